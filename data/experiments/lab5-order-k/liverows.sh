#!/bin/bash
# lab 5b queue4 on one GPU: main against warps past ny skipping the stencil (live)
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for k in 2 8 12; do for args in "--size 70x45x37" "--size 131x67x60" "--size 513x129x77" "--size 9x9x9" "--size 131x17x553" "--size 260x36x300"; do
  o=$(scratch/sol5b_live --order $k --variant queue4_128x16 $args --reps 1 2>&1); echo "live order $k $args: $(grep -c PASS <<<"$o") PASS $(grep -c FAIL <<<"$o") FAIL"
done; done
for round in 1 2 3; do for sz in 376 300 512; do for k in 12 8 2; do for b in main live; do
  scratch/sol5b_$b --size $sz --order $k --variant queue4_128x16 --reps 30 --csv $OUT/live.csv | grep "^queue4" | sed "s/^/$b $k /"
done; done; done; echo "round $round $SECONDS s"; done
