#!/bin/bash
# Where order 8's DRAM reads above 4 bytes a point come from, continued (diag.sh's --profile
# refuses binaries whose results are wrong, so ncu here directly): the kernel without its halo
# rows (NOY) or its side quads (NOX), and main's kernel held to one block an SM by asking for
# 120000 bytes of shared memory (QUEUE4_SMEM; z chunks unchanged): half the tiles in flight.
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_op_read_lookup_miss.sum,lts__t_sectors_op_read_lookup_hit.sum
prof() {  # label, env, binary, args...
  local label=$1 env=$2 bin=$3; shift 3
  env $env timeout 120 ncu --clock-control none --kernel-name regex:star_queue4 --launch-skip 1 --launch-count 1 --metrics $M --csv \
    scratch/sol5b_$bin --variant queue4_128x16 --reps 2 "$@" 2>&1 | grep '^"0"' |
    awk -F'","' -v l="$label" '{v=$NF; gsub(/[",]/,"",v); printf "%s %s=%s\n", l, $(NF-2), v}'
}
for o in 8 12; do
  prof "o$o main" X=1 cl --size 512 --order $o
  prof "o$o NOY" X=1 NOY --size 512 --order $o
  prof "o$o NOX" X=1 NOX --size 512 --order $o
done
prof "o8 1/SM" QUEUE4_SMEM=120000 cl --size 512 --order 8
prof "o8 376 main" X=1 cl --size 376 --order 8
prof "o8 376 1/SM" QUEUE4_SMEM=120000 cl --size 376 --order 8
for round in 1 2; do for sz in 512 376; do
  for e in X=1 QUEUE4_SMEM=120000; do
    env $e timeout 60 scratch/sol5b_cl --size $sz --order 8 --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | cut -c1-110 | sed "s/^/$e /"
  done; done; done
echo "done $SECONDS s"
