#!/bin/bash
# lab 5b queue4 on one GPU: main against its output stores marked evict-first (st.global.cs)
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for k in 2 8 12; do for args in "--size 70x45x37" "--size 131x67x60" "--size 260x36x300"; do
  o=$(scratch/sol5b_cs --order $k --variant queue4_128x16 $args --reps 1 2>&1); echo "cs order $k $args: $(grep -c PASS <<<"$o") PASS $(grep -c FAIL <<<"$o") FAIL"
done; done
for round in 1 2; do for sz in 512 376; do for k in 8 12 2; do for b in main cs; do
  scratch/sol5b_$b --size $sz --order $k --variant queue4_128x16 --reps 30 | grep "^queue4" | sed "s/^/$b $k /" | cut -c1-100
done; done; done; echo "round $round $SECONDS s"; done
for b in main cs; do for k in 8 12; do scratch/sol5b_$b --profile --size 512 --order $k --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/$b $k /"; done; done
