#!/usr/bin/env bash
# Does the rows' pitch cost queue4 at 513^3 (issue 16)? edge.sh: 512^3 with rows of 544 floats ran
# 1.4% (order 2) and 2.6% (order 8) slower than with 512, for the same DRAM bytes. Prediction: a
# row that is not a multiple of 512 bytes puts 3 in 4 of a tile's 512-byte row segments across a
# 512-byte boundary. Copies of the tree whose lab 5 pads rows to a multiple of A floats (aA: A =
# 64, 128; p544, p640: 512^3 with rows of 544 and 640 floats), two rounds, 20 timed runs each.
# Usage (repository root): OUT=dir bash data/experiments/lab5-order-k/pitch.sh
set -u
make -j16 ARCH=sm_90 COMMIT="${COMMIT:-new}" sol5 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
for a in 64 128 544 640; do
    ( rm -rf /tmp/a$a && mkdir -p /tmp/a$a && cp -r Makefile common labs solutions /tmp/a$a/ &&
      sed -i "s/\.row_align = 32,/.row_align = $a,/" /tmp/a$a/labs/lab5_register_tiling/lab.c &&
      grep -q "row_align = $a," /tmp/a$a/labs/lab5_register_tiling/lab.c &&
      cd /tmp/a$a && make -j4 ARCH=sm_90 COMMIT=a$a sol5 >/dev/null 2>&1 ) || echo "build a$a failed" &
done
wait
bin() { if [ "$1" = a32 ]; then echo ./sol5; else echo /tmp/$1/sol5; fi; }
run() { $(bin $1) --size $2 --order $3 --variant queue4_128x16 --reps 20 --csv "$OUT/pitch.csv" | grep queue4 | sed "s/^/$4 $1 $3 /"; }
for round in 1 2; do for k in 2 8 12; do
    for v in a32 a544 a640; do run $v 512 $k $round; done
    for v in a32 a64 a128; do run $v 513 $k $round; done
    for v in a32 a128; do run $v 544x544x400 $k $round; done
done; done
for v in a32 a128; do for n in 512 513; do
    $(bin $v) --size $n --variant regcol4_z4 --reps 20 --csv "$OUT/pitch.csv" | grep regcol4 | sed "s/^/1 $v 2 /"
done; done
