#!/usr/bin/env bash
# x_lpencils at 64^3 (issue 16): the solution against x-kernels.cu built three ways: the images
# filled one value per thread (-DXIMG), the compute loop over a thread's rows unrolled (-DXROWS),
# both (x-kernels.cu: git history only, git show d091324:data/experiments/lab6-small/x-kernels.cu).
# Back to back and per launch at 64^3 (three rounds), 512^3 once, ncu durations, SASS of x.
# Usage (repository root): OUT=dir bash data/experiments/lab6-small/x.sh
set -u
here=data/experiments/lab6-small
make -j16 ARCH=sm_90 COMMIT="${COMMIT:-new}" sol6 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
declare -A flags=([img]=-DXIMG [rows]=-DXROWS [both]="-DXIMG -DXROWS")
for v in img rows both; do
    make ARCH=sm_90 program LAB=lab6_pencils KERNELS=$here/x-kernels.cu OUT=/tmp/x$v \
        NVFLAGS_lab6_pencils="${flags[$v]}" >/tmp/xb$v.txt 2>&1 || { echo "build $v failed"; tail -3 /tmp/xb$v.txt; } &
done
wait
bin() { if [ "$1" = new ]; then echo ./sol6; else echo /tmp/x$1; fi; }
for round in 1 2 3; do for v in new img rows both; do for t in b2b launch; do
    $(bin $v) --size 64 --reps 200 --timing $t --csv "$OUT/x-small.csv" | grep -E "x_lpencils *\||empty" | sed "s/^/$round $v $t /"
done; done; done
for v in new img rows both; do $(bin $v) --size 512 --reps 20 --variant x_lpencils --variant x_spencils | grep -E "pencils *\|" | sed "s/^/$v 512 /"; done
for v in new both; do
    ncu --cache-control none --clock-control none -k regex:deriv_x --metrics gpu__time_duration.sum,sm__cycles_active.avg \
        $(bin $v) --size 64 --reps 2 --variant x_lpencils 2>&1 | grep -E "gpu__time|sm__cycles" | sed "s/^/ncu $v /"
done
cuobjdump -sass -fun '_Z7deriv_xILi32ELi64ELi8EEvPKfPfii' ./sol6 > "$OUT/sass-x-new.txt" 2>&1
cuobjdump -sass -fun '_Z8deriv_yzILi32ELi16EEvPKfPfiimmi' ./sol6 > "$OUT/sass-yz-new.txt" 2>&1
cuobjdump -sass -fun '_Z7deriv_xILi32ELi64ELi8EEvPKfPfii' /tmp/xboth > "$OUT/sass-x-both.txt" 2>&1
wc -l "$OUT"/sass-*.txt
