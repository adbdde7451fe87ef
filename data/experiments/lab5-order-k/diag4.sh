#!/bin/bash
# One wave of two z chunks (QUEUE4_CHUNKS=2 QUEUE4_DOWN=1: almost no fills) read 4.30 B/pt at
# 512^3 order 8 (chunks-1wave.txt). With and without the halo rows (NOY), beside the default
# chunks and the pairs launch order: is the one-wave excess the halo (neighbours drifting apart
# over 256 planes) where the default's is the fills? One GPU.
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum
prof() {  # label, env, binary, args...
  local label=$1 env=$2 bin=$3; shift 3
  env $env timeout 120 ncu --clock-control none --kernel-name regex:star_queue4 --launch-skip 0 --launch-count 1 --metrics $M --csv \
    scratch/sol5b_$bin --variant queue4_128x16 --reps 2 "$@" 2>&1 | grep '^"0"' |
    awk -F'","' -v l="$label" '{v=$NF; gsub(/[",]/,"",v); printf "%s %s=%s\n", l, $(NF-2), v}'
}
for b in cl NOY; do
  prof "o8 $b default" X=1 $b --size 512 --order 8
  prof "o8 $b 1wave" "QUEUE4_CHUNKS=2 QUEUE4_DOWN=1" $b --size 512 --order 8
  prof "o8 $b pairs" QUEUE4_PAIRS=1 $b --size 512 --order 8
  prof "o8 $b 4chunks" QUEUE4_CHUNKS=4 $b --size 512 --order 8
done
echo "done $SECONDS s"
