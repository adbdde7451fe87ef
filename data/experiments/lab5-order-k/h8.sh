#!/bin/bash
# lab 5b queue4 above order 8: tiles 128x8 (256 threads, two blocks an SM: h8) against 128x16
# (512 threads, one block an SM: ch = main plus the chunk override); one GPU
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for o in 10 12; do for args in "--size 70x45x37" "--size 131x67x60" "--size 260x36x300" "--size 513x513x40" "--size 40x20x7" "--size 200x130x9" "--size 136x33x100" "--size 376x376x50"; do
  out=$(timeout 60 scratch/sol5b_h8 --order $o --variant queue4_128x16 $args --reps 1 2>&1); rc=$?; echo "h8 order $o $args: $(grep -c PASS <<<"$out") PASS $(grep -c FAIL <<<"$out") FAIL rc=$rc"; grep -i "error" <<<"$out" | head -3
done; done
echo "correctness $SECONDS s"
for round in 1 2; do for sz in 512 376 513 800x800x400 640x640x400 480x480x400; do for o in 12 10; do
  [ $o = 10 ] && [ $sz != 512 ] && [ $sz != 376 ] && continue
  for b in ch h8; do
    timeout 60 scratch/sol5b_$b --size $sz --order $o --variant queue4_128x16 --reps 30 | grep "^queue4" | sed "s/^/$b $o /" | cut -c1-120
  done; done; done; echo "round $round $SECONDS s"; done
for sz in 512 376; do timeout 120 scratch/sol5b_h8 --profile --size $sz --order 12 --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/h8 12 $sz /"; done
for t in memcheck racecheck; do
  out=$(timeout 120 compute-sanitizer --tool $t --error-exitcode 9 scratch/sol5b_h8 --order 12 --variant queue4_128x16 --size 131x67x60 --reps 1 2>&1); rc=$?; echo "$t order 12 rc=$rc $(tail -1 <<<"$out")"
done
echo "done $SECONDS s"
