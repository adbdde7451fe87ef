#!/usr/bin/env bash
# queue4 z-chunk schedules (ZSCHED=a,na,b: na chunks of a planes, then chunks of b) against the
# wave model's uniform chunk (no ZSCHED), two rounds interleaved; every run checked (PASS).
set -u
out=${OUT:-/tmp}/zsched.txt
run() { local s=$1 n=$2 k=$3
  if [ "$s" = default ]; then e=""; else e="ZSCHED=$s"; fi
  echo "round $round size $n order $k sched $s: $(env $e ./scratch/sol5b_zs --size $n --order $k --variant queue4_128x16 --reps 20 | grep -E '^queue4' | tr -s ' ')" | tee -a $out
}
for round in 1 2; do
  for s in default 188,1,38 107,3,28; do run $s 376 12; done
  for s in default 76,3,30 54,0,54; do run $s 376 8; done
  for s in default 256,1,86 512,0,512; do run $s 512 12; done
  for s in default 86,5,41 256,0,256; do run $s 512 8; done
  for s in default 257,1,128; do run $s 513 12; done
  for s in default 129,3,63; do run $s 513 8; done
done
