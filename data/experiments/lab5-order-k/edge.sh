#!/usr/bin/env bash
# Where 513^3 loses against 512^3 (issue 16): queue4_128x16 with one dimension at a time made 513,
# and 512^3 with rows padded to 544 floats (the pitch 513 gets) from a copy of the tree whose lab 5
# asks row_align 544. Two rounds, 20 timed runs each; DRAM bytes of 512^3 and 513^3 at order 8.
# Usage (repository root): OUT=dir bash data/experiments/lab5-order-k/edge.sh
set -u
make -j16 ARCH=sm_90 COMMIT="${COMMIT:-new}" sol5 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
rm -rf /tmp/p544 && mkdir -p /tmp/p544 && cp -r Makefile common labs solutions /tmp/p544/
sed -i 's/\.row_align = 32,/.row_align = 544,/' /tmp/p544/labs/lab5_register_tiling/lab.c
grep -q 'row_align = 544' /tmp/p544/labs/lab5_register_tiling/lab.c || { echo "p544 sed failed"; exit 1; }
(cd /tmp/p544 && make -j16 ARCH=sm_90 COMMIT=p544 sol5 >/dev/null 2>&1) || { echo "build p544 failed"; exit 1; }
for round in 1 2; do
    for k in 2 8 12; do
        for s in 512x512x512 513x512x512 512x513x512 512x512x513 513x513x513; do
            ./sol5 --size $s --order $k --variant queue4_128x16 --reps 20 --csv "$OUT/edge.csv" | grep queue4 | sed "s/^/$round tree $k /"
        done
        /tmp/p544/sol5 --size 512 --order $k --variant queue4_128x16 --reps 20 --csv "$OUT/edge.csv" | grep queue4 | sed "s/^/$round p544 $k /"
    done
done
for s in 512 513; do ./sol5 --size $s --variant regcol4_z4 --reps 20 | grep regcol4 | sed "s/^/1 tree 2 /"; done
for s in 512 513; do echo "== profile $s order 8: $(./sol5 --profile --size $s --order 8 --variant queue4_128x16 2>&1 | grep -E 'queue4|ERR')"; done
echo "== profile p544 order 8: $(/tmp/p544/sol5 --profile --size 512 --order 8 --variant queue4_128x16 2>&1 | grep -E 'queue4|ERR')"
