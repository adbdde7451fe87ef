#!/usr/bin/env bash
# queue4's z chunks from the occupancy calculator (issue 16): wave-kernels.cu (git history only: git show
# 65294d0:data/experiments/lab5-order-k/wave-kernels.cu > the same path) takes WAVES, and cuts z
# so that the grid is at most WAVES waves of the blocks the SMs hold at once ("sol" is the solution:
# about 16 blocks per SM up to order 8, 4 above). Timed at 512^3 (every order), 513^3 and 376^3.
# Usage (repository root): OUT=dir bash data/experiments/lab5-order-k/wave.sh [WAVES...]
set -u
waves=${*:-1 2 4}
make -j16 ARCH=sm_90 COMMIT="${COMMIT:-new}" sol5 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
for w in $waves; do
    make ARCH=sm_90 program LAB=lab5_register_tiling KERNELS=data/experiments/lab5-order-k/wave-kernels.cu OUT=/tmp/w$w \
        NVFLAGS_lab5_register_tiling=-DWAVES=$w >/tmp/wb$w.txt 2>&1 || { echo "build $w failed"; tail -3 /tmp/wb$w.txt; } &
done
wait
cp sol5 /tmp/wsol
progs="sol $(for w in $waves; do printf 'w%s ' $w; done)"
for v in $progs; do
    bad=0
    for c in "--order 2 --size 513x7x9" "--order 8 --size 67x45x31" "--order 12 --size 260x45x31" "--order 8 --size 513x40x37"; do
        /tmp/$([ $v = sol ] && echo wsol || echo $v) $c --variant queue4_128x16 --reps 1 --quiet || { echo "$v FAILS $c"; bad=1; }
    done
    echo "== $v odd sizes: $([ $bad = 0 ] && echo pass || echo FAIL)"
done
for round in 1 2; do for n in 512 $([ $round = 1 ] && echo 513 376); do
    for k in 2 8 12 $([ $round$n = 1512 ] && echo 4 6 10); do for v in $progs; do
        /tmp/$([ $v = sol ] && echo wsol || echo $v) --size $n --order $k --variant queue4_128x16 --reps 20 --csv "$OUT/wave.csv" |
            grep queue4 | sed "s/^/$round $v $k /"
    done; done
done; done
for k in 2 12; do for v in $progs; do
    echo "== profile $v order $k: $(/tmp/$([ $v = sol ] && echo wsol || echo $v) --profile --order $k --variant queue4_128x16 2>&1 | grep -E 'queue4|ERR')"
done; done
