#!/usr/bin/env bash
# queue4_128x16 with its own quads staged by cp.async (issue 16) against the kernel before, on one
# GPU in one run. Kernels files, in git history only: git show 65294d0:data/experiments/lab5-order-k/old-kernels.cu
# > data/experiments/lab5-order-k/old-kernels.cu (and r1-kernels.cu) before running:
#   old   old-kernels.cu: the solution before (the queue's newest plane loaded into a register)
#   r1    r1-kernels.cu: staged at every order
#   cand  the tree's solution: staged at order 12 (runs 1-2 of the notes used earlier builds)
# Usage (repository root): OUT=dir bash data/experiments/lab5-order-k/stage.sh PHASE [PROGRAMS...]
#   PHASE: time (odd sizes, then 512^3 at every order, 513^3 and 376^3), profile (orders 8 10 12)
set -u
here=data/experiments/lab5-order-k
phase=$1; shift
progs=${*:-old r1 cand}
make -j16 ARCH=sm_90 COMMIT="${COMMIT:-new}" sol5 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
for v in $progs; do
    k=$here/$v-kernels.cu; [ "$v" = cand ] && k=solutions/lab5_register_tiling/kernels.cu
    make ARCH=sm_90 COMMIT="${COMMIT:-new}" program LAB=lab5_register_tiling KERNELS=$k OUT=/tmp/q4-$v >/tmp/build-$v.txt 2>&1 ||
        { echo "build $v failed"; tail -3 /tmp/build-$v.txt; } &
done
wait
odd="--order 2 --size 513x7x9|--order 4 --size 130x34x20|--order 6 --size 70x35x20|--order 8 --size 132x40x20|--order 8 --size 67x45x31|--order 10 --size 133x21x40|--order 12 --size 260x45x31|--order 12 --size 131x17x30|--order 8 --size 513x40x37|--order 10 --size 129x33x70"
case $phase in
time)
    for v in $progs; do
        bad=0
        IFS='|'; for c in $odd; do IFS=' '
            /tmp/q4-$v $c --variant queue4_128x16 --reps 1 --quiet || { echo "$v FAILS $c"; bad=1; }
        done; IFS=' '
        echo "== $v odd sizes: $([ $bad = 0 ] && echo pass || echo FAIL)"
    done
    for round in 1 2; do
        for k in 10 12 $([ $round = 1 ] && echo 2 4 6 8); do
            for v in $progs; do
                /tmp/q4-$v --order $k --variant queue4_128x16 --reps 20 --csv "$OUT/stage-$v.csv" | grep queue4 | sed "s/^/$round $v $k /"
            done
        done
    done
    for n in 513 376; do for k in 8 10 12; do for v in $progs; do
        /tmp/q4-$v --size $n --order $k --variant queue4_128x16 --reps 20 --csv "$OUT/stage-$v.csv" | grep queue4 | sed "s/^/$n $v $k /"
    done; done; done ;;
profile)
    for k in 8 10 12; do for v in $progs; do
        echo "== profile $v order $k: $(/tmp/q4-$v --profile --order $k --variant queue4_128x16 2>&1 | grep -E 'queue4|ERR')"
    done; done ;;
esac
