#!/bin/bash
# lab 5b: the stage at order 8 too (scratch/sol5b_st8: star_queue4.cuh with stage8.diff), on an H100
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for b in base st8; do for args in "--size 70x45x37" "--size 130x67x41" "--size 513x129x77" "--size 9x9x9" "--size 200x3x100"; do
  o=$(scratch/sol5b_$b --order 8 --variant queue4_128x16 $args --reps 2 2>&1); echo "$b $args: $(grep -c PASS <<<"$o") PASS $(grep -c FAIL <<<"$o") FAIL"
done; done
for round in 1; do for sz in 512 513 376; do for k in 8 12; do for b in base st8; do
  scratch/sol5b_$b --size $sz --order $k --variant queue4_128x16 --reps 20 --csv $OUT/st8-$b.csv > /dev/null
done; done; done; done
for b in base st8; do scratch/sol5b_$b --profile --size 512 --order 8 --variant queue4_128x16 2>&1 | grep queue4; done
compute-sanitizer --tool memcheck scratch/sol5b_st8 --order 8 --variant queue4_128x16 --size 130x67x41 --reps 1 2>&1 | tail -1
compute-sanitizer --tool synccheck scratch/sol5b_st8 --order 8 --variant queue4_128x16 --size 130x67x41 --reps 1 2>&1 | tail -1
echo "end $SECONDS s"
