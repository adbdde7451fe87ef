#!/bin/bash
# lab 5b queue4 at order 8: tiles 128x32 (32x16 threads, 2 rows each, one block an SM) against
# main's 128x16 (32x8 threads, two blocks an SM); h32: ring of 6, halo 3 ahead; h32a5: ring of 8,
# 5 ahead; h32s: the stage, 3 ahead; ch = main plus the chunk override; one GPU
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for b in h32 h32a5 h32s; do for args in "--size 70x45x37" "--size 136x33x100" "--size 376x376x50" "--size 300x200x90" "--size 131x67x60"; do
  out=$(timeout 60 scratch/sol5b_$b --order 8 --variant queue4_128x16 $args --reps 1 2>&1); rc=$?; echo "$b order 8 $args: $(grep -c PASS <<<"$out") PASS $(grep -c FAIL <<<"$out") FAIL rc=$rc"; grep -i "error" <<<"$out" | head -3
done; done
echo "correctness $SECONDS s"
for round in 1 2; do for sz in 512 376 480x480x400 800x800x400 513; do for b in ch h32 h32a5 h32s; do
  timeout 60 scratch/sol5b_$b --size $sz --order 8 --variant queue4_128x16 --reps 30 | grep "^queue4" | sed "s/^/$b 8 /" | cut -c1-120
done; done; echo "round $round $SECONDS s"; done
for b in ch h32 h32a5 h32s; do timeout 120 scratch/sol5b_$b --profile --size 512 --order 8 --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/$b 8 512 /"; done
echo "done $SECONDS s"
