#!/bin/bash
# lab 5b queue4: main against the TMA ring (order 8: tma; orders 8 and 12: tma12), one GPU
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for b in tma tma12; do for o in 8 12; do for args in "--size 70x45x37" "--size 131x67x60" "--size 260x36x300" "--size 513x513x40" "--size 40x20x7" "--size 200x130x9" "--size 136x33x100"; do
  out=$(timeout 60 scratch/sol5b_$b --order $o --variant queue4_128x16 $args --reps 1 2>&1); rc=$?; echo "$b order $o $args: $(grep -c PASS <<<"$out") PASS $(grep -c FAIL <<<"$out") FAIL rc=$rc"; grep -i "error\|fail" <<<"$out" | head -3
done; done; done
echo "correctness $SECONDS s"
for round in 1 2; do for sz in 512 376; do for o in 8 12; do for b in main tma tma12; do
  [ $b = tma ] && [ $o = 12 ] && continue
  timeout 60 scratch/sol5b_$b --size $sz --order $o --variant queue4_128x16 --reps 30 | grep "^queue4" | sed "s/^/$b $o /" | cut -c1-100
done; done; done; echo "round $round $SECONDS s"; done
for o in 8 12; do timeout 120 scratch/sol5b_tma12 --profile --size 512 --order $o --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/tma12 $o 512 /"; done
timeout 120 scratch/sol5b_tma12 --profile --size 376 --order 12 --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/tma12 12 376 /"
echo "profile $SECONDS s"
for t in memcheck racecheck synccheck; do
  out=$(timeout 120 compute-sanitizer --tool $t --error-exitcode 9 scratch/sol5b_tma12 --order 8 --variant queue4_128x16 --size 131x67x60 --reps 1 2>&1); rc=$?; echo "$t order 8 rc=$rc $(tail -1 <<<"$out")"
  out=$(timeout 120 compute-sanitizer --tool $t --error-exitcode 9 scratch/sol5b_tma12 --order 12 --variant queue4_128x16 --size 131x67x60 --reps 1 2>&1); rc=$?; echo "$t order 12 rc=$rc $(tail -1 <<<"$out")"
done
echo "done $SECONDS s"
