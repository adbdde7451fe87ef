#!/usr/bin/env bash
# Lab 6 at 64^3: the solution's kernels against other kernels files, on one GPU in one run.
#   old-kernels.cu  the solution before (each value stored to shared memory before the next load)
#   pdl-kernels.cu  the solution at the first run, launched with programmatic dependent launch
# Both are in git history only: git show a16a3d8:data/experiments/lab6-small/old-kernels.cu > ...
# Usage (repository root): OUT=dir bash data/experiments/lab6-small/run.sh [VARIANTS...]
# VARIANTS: old pdl (kernels files here; "new" is the tree's own solution), default old pdl.
set -u
here=data/experiments/lab6-small
others=${*:-old pdl}
make -j16 ARCH=sm_90 COMMIT="${COMMIT:-new}" sol6 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
for v in $others; do
    rm -rf /tmp/$v && mkdir -p /tmp/$v && cp -r Makefile common labs solutions /tmp/$v/
    cp $here/$v-kernels.cu /tmp/$v/solutions/lab6_pencils/kernels.cu
    (cd /tmp/$v && make -j16 ARCH=sm_90 COMMIT=$v sol6 >/dev/null 2>&1) || { echo "build $v failed"; exit 1; }
done
bin() { if [ "$1" = new ]; then echo ./sol6; else echo /tmp/$1/sol6; fi; }
for round in 1 2 3; do
    for v in $others new; do
        for t in b2b launch; do
            echo "== $round $v $t"; $(bin $v) --size 64 --reps 200 --timing $t --csv "$OUT/small.csv" | grep -E "pencils *\||empty"
        done
    done
done
for v in $others new; do echo "== $v 512"; $(bin $v) --size 512 --reps 20 --csv "$OUT/large.csv" | grep -E "pencils *\|"; done
for v in $others new; do
    ncu --cache-control none --clock-control none -k regex:deriv --metrics gpu__time_duration.sum \
        $(bin $v) --size 64 --reps 2 > "$OUT/ncu-$v.txt" 2>&1
    echo "== ncu $v: $(grep -c gpu__time "$OUT/ncu-$v.txt") kernels"
done
# runN-ncu.txt: each kernel's durations (us) from the raw ncu output, y and z (the same kernel) together
for v in $others new; do
    awk -v v=$v '/deriv_/{ if ($0 ~ /x\(64, 8/) k="x_lpencils"; else if ($0 ~ /x\(64, 4/) k="x_spencils";
                           else if ($0 ~ /x\(32, 16/) k="yz_lpencils"; else if ($0 ~ /x\(4, 64/) k="yz_spencils" }
                 /gpu__time_duration/ { print v, k, $NF }' "$OUT/ncu-$v.txt" | sort -k2,2 -k3,3n |
        awk '{ a[$1 " " $2] = a[$1 " " $2] " " $3 } END { for (k in a) print k, a[k] }' | sort
done > "$OUT/ncu-summary.txt"
