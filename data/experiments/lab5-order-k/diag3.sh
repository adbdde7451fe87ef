#!/bin/bash
# diag2.sh's ncu of the kernels without halo rows (NOY) or side quads (NOX), with the first
# launch (diag2.sh skipped it, and a binary whose check fails launches once). One GPU.
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum
prof() {  # label, env, binary, args...
  local label=$1 env=$2 bin=$3; shift 3
  env $env timeout 120 ncu --clock-control none --kernel-name regex:star_queue4 --launch-skip 0 --launch-count 1 --metrics $M --csv \
    scratch/sol5b_$bin --variant queue4_128x16 --reps 2 "$@" 2>&1 | grep '^"0"' |
    awk -F'","' -v l="$label" '{v=$NF; gsub(/[",]/,"",v); printf "%s %s=%s\n", l, $(NF-2), v}'
}
for o in 8 12; do for b in cl NOY NOX; do
  prof "o$o $b" X=1 $b --size 512 --order $o
done; done
prof "o8 NOY 1/SM" QUEUE4_SMEM=120000 NOY --size 512 --order 8
echo "done $SECONDS s"
