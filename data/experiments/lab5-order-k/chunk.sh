#!/usr/bin/env bash
# Where queue4's extra DRAM reads at order 8 come from (issue 16): the z chunks. The solution built
# with other numbers of blocks per SM for its chunks (16, the solution's, down to 1: 2 chunks of
# 256 planes at 512^3, one wave), timed and profiled at orders 2 and 8.
# Usage (repository root): OUT=dir bash data/experiments/lab5-order-k/chunk.sh [PER_SM...]
set -u
per=${*:-16 8 4 2 1}
make -j16 ARCH=sm_90 COMMIT="${COMMIT:-new}" sol5 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
for n in $per; do
    sed "s/r <= 4 ? 16 : 4);/r <= 4 ? $n : 4);/" solutions/lab5_register_tiling/kernels.cu > /tmp/chunk-$n.cu
    grep -q "r <= 4 ? $n : 4);" /tmp/chunk-$n.cu || { echo "no chunk rule to change"; exit 1; }
    make ARCH=sm_90 program LAB=lab5_register_tiling KERNELS=/tmp/chunk-$n.cu OUT=/tmp/chunk-$n >/tmp/chunk-build-$n.txt 2>&1 ||
        { echo "build $n failed"; tail -3 /tmp/chunk-build-$n.txt; } &
done
wait
for round in 1 2; do for k in 2 8; do for n in $per; do
    /tmp/chunk-$n --order $k --variant queue4_128x16 --reps 20 --csv "$OUT/chunk.csv" | grep queue4 | sed "s/^/$round per_sm=$n order=$k /"
done; done; done
for k in 2 8; do for n in $per; do
    echo "== profile per_sm=$n order $k: $(/tmp/chunk-$n --profile --order $k --variant queue4_128x16 2>&1 | grep -E 'queue4|ERR')"
done; done
