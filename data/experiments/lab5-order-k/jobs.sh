#!/usr/bin/env bash
# queue4's strips from the ring at orders 10 and 12 (issue 16): ring.sh's first version (cae0dc3)
# made 513^3 0.96 of 512^3 at orders 2 and 8 but order 12 20% slower in every grid with strips (the
# instantiation took 128 registers, against 108 without strips). Here each thread's strip quads are
# precomputed jobs (a ring slot and an output offset; j: ./sol5 at 5b4bb85), the same computed in
# the loop (jl-kernels.cu), or written before the plane's compute (jb-kernels.cu), against the copy
# blocks of 504a1c3 (copy-kernels.cu). Two rounds, 20 timed runs each. The kernels files are in git
# history: git show 6c5434c:data/experiments/lab5-order-k/copy-kernels.cu, and jl-, jb-kernels.cu at
# 5b4bb85, whose solution is j (git show 5b4bb85:solutions/lab5_register_tiling/kernels.cu).
# Usage (repository root): OUT=dir bash data/experiments/lab5-order-k/jobs.sh
set -u
make -j16 ARCH=sm_90 COMMIT="${COMMIT:-new}" sol5 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
for v in copy jl jb; do
    make ARCH=sm_90 program LAB=lab5_register_tiling KERNELS=data/experiments/lab5-order-k/$v-kernels.cu OUT=/tmp/$v \
        >/tmp/b$v.txt 2>&1 || { echo "build $v failed"; tail -3 /tmp/b$v.txt; exit 1; } &
done
wait
bin() { case $1 in j) echo ./sol5 ;; *) echo /tmp/$1 ;; esac; }
run() { $(bin $1) --size $2 --order $3 --variant queue4_128x16 --reps 20 --csv "$OUT/jobs.csv" |
        grep -E 'queue4|FAIL|rror' | sed "s/^/$4 $1 $3 /"; }
echo "built after ${SECONDS}s"
for round in 1 2; do
    for k in 12 10 2 4 6 8; do
        [ $round = 1 ] && run copy 512x512x512 $k $round
        for v in copy j jl jb; do run $v 513x513x513 $k $round; done
        if [ $k -ge 10 ]; then for s in 513x512x512 512x513x512; do for v in copy j jl jb; do run $v $s $k $round; done; done; fi
    done
    echo "round $round done after ${SECONDS}s"
done
