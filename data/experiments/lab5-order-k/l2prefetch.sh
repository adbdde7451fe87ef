#!/bin/bash
# lab 5b queue4 on one GPU: main against an L2 prefetch of the thread's own rows D planes before
# their load (cp.async.bulk.prefetch.L2, lane 0 a row; orders without the stage: 2 and 8)
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for k in 2 8; do for args in "--size 70x45x37" "--size 131x67x60" "--size 513x129x77" "--size 9x9x9" "--size 260x36x300"; do
  o=$(scratch/sol5b_p4 --order $k --variant queue4_128x16 $args --reps 1 2>&1); echo "p4 order $k $args: $(grep -c PASS <<<"$o") PASS $(grep -c FAIL <<<"$o") FAIL"
done; done
for round in 1 2; do for sz in 512 376; do for k in 8 2; do for b in main p2 p4 p8; do
  scratch/sol5b_$b --size $sz --order $k --variant queue4_128x16 --reps 30 --csv $OUT/pf.csv | grep "^queue4" | sed "s/^/$b $k /" | cut -c1-100
done; done; done; echo "round $round $SECONDS s"; done
scratch/sol5b_p4 --profile --size 512 --order 8 --variant queue4_128x16 2>&1 | grep "^queue4"
