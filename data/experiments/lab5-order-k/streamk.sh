#!/bin/bash
# lab 5b queue4 on one GPU: main's chunks (main) against one wave of equal parts (sk)
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for k in 2 8 12; do for args in "--size 70x45x37" "--size 131x67x60" "--size 513x129x77" "--size 9x9x9" "--size 131x17x553" "--size 260x36x300"; do
  o=$(scratch/sol5b_sk --order $k --variant queue4_128x16 $args --reps 1 2>&1); echo "sk order $k $args: $(grep -c PASS <<<"$o") PASS $(grep -c FAIL <<<"$o") FAIL"
done; done
echo "checks $SECONDS s"
for round in 1 2; do for sz in 512 376 513; do for k in 8 12 2; do for b in main sk; do
  scratch/sol5b_$b --size $sz --order $k --variant queue4_128x16 --reps 20 --csv $OUT/sk.csv | grep "^queue4" | sed "s/^/$b $k /"
done; done; done; echo "round $round $SECONDS s"; done
