#!/usr/bin/env bash
# x_lpencils at 64^3 (issue 16): is its code size the gap to y_lpencils? The solution's deriv_x<32,
# 64, 8> is 14.8 KB of SASS (rows unrolled, each row's loop over i unrolled 4 with its remainder),
# deriv_yz's 6.3 KB; at 64^3 an SM runs about one block, so every instruction comes from a cold
# instruction cache. xloop-kernels.cu (git history only: git show 048a47b:$here/xloop-kernels.cu >
# $here/xloop-kernels.cu before running; here = data/experiments/lab6-small) turns the loops
# round: i outer, unrolled XLOOP times, the rows inner and unrolled (their shared loads still issue
# together): 5.6 KB at XLOOP=1, 9.9 KB at 2, 12.4 KB at 4. ncu durations (x and y), back to back
# and per launch at 64^3 (three rounds), 512^3 twice.
# Usage (repository root): OUT=dir bash data/experiments/lab6-small/xloop.sh
set -u
here=data/experiments/lab6-small
make -j16 ARCH=sm_90 COMMIT="${COMMIT:-new}" sol6 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
for u in 1 2 4; do
    make ARCH=sm_90 program LAB=lab6_pencils KERNELS=$here/xloop-kernels.cu OUT=/tmp/xl$u \
        NVFLAGS_lab6_pencils="-DXLOOP=$u" >/tmp/xlb$u.txt 2>&1 || { echo "build $u failed"; tail -3 /tmp/xlb$u.txt; } &
done
wait
bin() { if [ "$1" = new ]; then echo ./sol6; else echo /tmp/xl$1; fi; }
for v in new 1 2 4; do
    ncu --cache-control none --clock-control none -k regex:deriv_ --metrics gpu__time_duration.sum,sm__cycles_active.avg \
        $(bin $v) --size 64 --reps 2 --variant x_lpencils --variant y_lpencils 2>&1 | grep -E "deriv_|gpu__time|sm__cycles" | sed "s/^/ncu $v /"
done
for round in 1 2 3; do for v in new 1 2 4; do for t in b2b launch; do
    $(bin $v) --size 64 --reps 200 --timing $t --csv "$OUT/xloop-small.csv" | grep -E "lpencils *\||empty" | sed "s/^/$round $v $t /"
done; done; done
for round in 1 2; do for v in new 1 2 4; do
    $(bin $v) --size 512 --reps 20 --variant x_lpencils --variant x_spencils | grep -E "pencils *\|" | sed "s/^/$round $v 512 /"
done; done
