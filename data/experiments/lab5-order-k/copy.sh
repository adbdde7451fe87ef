#!/usr/bin/env bash
# queue4's strips at most R wide (issue 16): copied by a column and a row of blocks past the tiles
# (the tree's solution) against the kernel writing them from its ring inside the plane loop, in an
# instantiation of its own up to order 8, and the tail above (strips-kernels.cu, the solution at
# 1eae14f; git history only: git show 504a1c3:data/experiments/lab5-order-k/strips-kernels.cu).
# One dimension made 513 at a time, and
# 513^3, two rounds, 20 timed runs each; orders 4, 6, 10 once.
# Usage (repository root): OUT=dir bash data/experiments/lab5-order-k/copy.sh
set -u
make -j16 ARCH=sm_90 COMMIT="${COMMIT:-new}" sol5 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
make ARCH=sm_90 program LAB=lab5_register_tiling KERNELS=data/experiments/lab5-order-k/strips-kernels.cu OUT=/tmp/strips \
    >/tmp/sb.txt 2>&1 || { echo "build strips failed"; tail -3 /tmp/sb.txt; exit 1; }
bin() { if [ "$1" = copy ]; then echo ./sol5; else echo /tmp/strips; fi; }
for round in 1 2; do for k in 2 8 12 $([ $round = 1 ] && echo 4 6 10); do
    for s in 512x512x512 513x512x512 512x513x512 513x513x513; do
        [ $round = 1 ] && [ $k = 4 -o $k = 6 -o $k = 10 ] && [ $s != 512x512x512 -a $s != 513x513x513 ] && continue
        for v in strips copy; do
            $(bin $v) --size $s --order $k --variant queue4_128x16 --reps 20 --csv "$OUT/copy.csv" | grep queue4 | sed "s/^/$round $v $k /"
        done
    done
done; done
for v in strips copy; do for s in 512 513; do
    echo "== profile $v $s order 8: $($(bin $v) --profile --size $s --order 8 --variant queue4_128x16 2>&1 | grep -E 'queue4|ERR')"
done; done
