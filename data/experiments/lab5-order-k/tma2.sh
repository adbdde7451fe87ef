#!/bin/bash
# lab 5b queue4 order 8: main against TMA ring variants (pa: as tma.sh, L2 promotion 256 B; pn: no
# promotion; l1: copies R+1 ahead, ring 7; l3: R+3 ahead, ring 8), order 12: p12; one GPU
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for b in pa pn l1 l3 p12; do for args in "--size 70x45x37" "--size 131x67x60" "--size 136x33x100"; do
  out=$(timeout 60 scratch/sol5b_$b --order 8 --variant queue4_128x16 $args --reps 1 2>&1); rc=$?; echo "$b order 8 $args: $(grep -c PASS <<<"$out") PASS $(grep -c FAIL <<<"$out") FAIL rc=$rc"; grep -i "error" <<<"$out" | head -3
done; done
echo "correctness $SECONDS s"
for round in 1 2; do for sz in 512 376; do for b in main pa pn l1 l3; do
  timeout 60 scratch/sol5b_$b --size $sz --order 8 --variant queue4_128x16 --reps 30 | grep "^queue4" | sed "s/^/$b 8 /" | cut -c1-100
done; for b in main p12; do
  timeout 60 scratch/sol5b_$b --size $sz --order 12 --variant queue4_128x16 --reps 30 | grep "^queue4" | sed "s/^/$b 12 /" | cut -c1-100
done; done; echo "round $round $SECONDS s"; done
for b in main pn l1 l3; do timeout 120 scratch/sol5b_$b --profile --size 512 --order 8 --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/$b 8 512 /"; done
echo "done $SECONDS s"
