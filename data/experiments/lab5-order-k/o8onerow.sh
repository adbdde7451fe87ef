#!/bin/bash
# lab 5b queue4 on one GPU: main (order 8: 2 rows a thread, 32x8, 2 blocks an SM, 128 registers)
# against one row a thread at order 8 (32x16 threads, 1 block an SM, 95 registers)
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for args in "--size 70x45x37" "--size 131x67x60" "--size 260x36x300"; do
  o=$(scratch/sol5b_r1 --order 8 --variant queue4_128x16 $args --reps 1 2>&1); echo "r1 order 8 $args: $(grep -c PASS <<<"$o") PASS $(grep -c FAIL <<<"$o") FAIL"
done
for round in 1 2; do for sz in 512 376; do for b in main r1; do
  scratch/sol5b_$b --size $sz --order 8 --variant queue4_128x16 --reps 30 | grep "^queue4" | sed "s/^/$b 8 /" | cut -c1-100
done; done; echo "round $round $SECONDS s"; done
scratch/sol5b_r1 --profile --size 512 --order 8 --variant queue4_128x16 2>&1 | grep "^queue4"
