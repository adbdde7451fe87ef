#!/bin/bash
cd "$(dirname "$0")/.."
B=${B:-scratch/sol7x}
V=$($B --list | awk '$1=="variant" && $2!~/^(gm|shm|fused)/ {printf " --variant %s", $2}')
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader | head -1
{ $B --list | grep '^case' | grep -v -- '--variant\|150000' | sed 's/.*: //' | sort -u; printf '%s\n' "--size 4097x33 --steps 20" "--size 129x1025 --steps 9" "--size 200x3x700 --steps 7" "--size 65x700x9 --steps 4" "--size 1000x1000 --steps 5"; } | while read -r args; do
  $B $V $args --reps 2 | grep -E "FAIL|error|refus" | sed "s|^|$args: |"
done
echo "cases done $SECONDS s"
for pr in "512x512x512 32" "768x352x2560 32"; do
  set -- $pr
  $B $V --size $1 --steps $2 --reps 10 --csv $OUT/exp.csv | grep -E "^\| *[a-z]" | cut -c1-150
done
echo "perf done $SECONDS s"
$B --profile --variant s1t4 --variant b1t4 --variant oldt4 --size 512x512x512 --steps 8 --csv $OUT/prof.csv 2>&1 | tail -8
echo "profile done $SECONDS s"
echo "all done $SECONDS s"
for a in "512 512 512" "768 352 2560"; do stdbuf -oL peers/build/e3d7pt $a --fp32 --warmup --iter=80 2>&1 | grep -P '\t[0-9.]+\t$' | tr '\t' ' '; done
echo "peers done $SECONDS s"
