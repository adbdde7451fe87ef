#!/usr/bin/env bash
# queue4's strips at most R wide (issue 16): written from the ring by the last tiles' lanes, a float4
# each (ring: the solution at cae0dc3; the tree keeps it up to order 8 only), against a column and a row of copy blocks past the tiles (copy:
# 504a1c3's solution, copy-kernels.cu: git show 6c5434c:data/experiments/lab5-order-k/copy-kernels.cu
# > data/experiments/lab5-order-k/copy-kernels.cu before running); each with lab 5's rows
# padded to 32 floats (the tree) and to 64 (a copy of the tree, row_align = 64). Two rounds, 20
# timed runs each (every timed run is checked against the CPU reference).
# Usage (repository root): OUT=dir bash data/experiments/lab5-order-k/ring.sh
set -u
make -j16 ARCH=sm_90 COMMIT="${COMMIT:-new}" sol5 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
make ARCH=sm_90 program LAB=lab5_register_tiling KERNELS=data/experiments/lab5-order-k/copy-kernels.cu OUT=/tmp/copy32 \
    >/tmp/b32.txt 2>&1 || { echo "build copy32 failed"; tail -3 /tmp/b32.txt; exit 1; }
rm -rf /tmp/a64 && mkdir -p /tmp/a64 && cp -r Makefile common labs solutions data /tmp/a64/ &&
    sed -i "s/\.row_align = 32,/.row_align = 64,/" /tmp/a64/labs/lab5_register_tiling/lab.c &&
    grep -q "row_align = 64," /tmp/a64/labs/lab5_register_tiling/lab.c &&
    ( cd /tmp/a64 && make -j16 ARCH=sm_90 COMMIT=a64 sol5 >/dev/null 2>&1 &&
      make ARCH=sm_90 program LAB=lab5_register_tiling KERNELS=data/experiments/lab5-order-k/copy-kernels.cu \
          OUT=/tmp/copy64 >/dev/null 2>&1 ) || { echo "build a64 failed"; exit 1; }
bin() { case $1 in ring32) echo ./sol5 ;; ring64) echo /tmp/a64/sol5 ;; *) echo /tmp/$1 ;; esac; }
run() { $(bin $1) --size $2 --order $3 --variant ${5:-queue4_128x16} --reps 20 --csv "$OUT/ring.csv" |
        grep -E 'queue4|regcol4|FAIL|rror' | sed "s/^/$4 $1 $3 /"; }
echo "built after ${SECONDS}s"
for round in 1 2; do for k in 2 8 12; do
    for s in 512x512x512 513x513x513 513x512x512 512x513x512; do
        for v in copy32 ring32 copy64 ring64; do run $v $s $k $round; done
    done
    for v in ring32 ring64; do run $v 544x544x400 $k $round; done
    echo "round $round order $k done after ${SECONDS}s"
done; done
for v in ring32 ring64; do for n in 512 513; do run $v $n 2 1 regcol4_z4; done; done
