#!/bin/bash
# lab 5b queue4 at order 8: the stage (own quads by cp.async 2 planes early, halo 3 ahead) with
# main's two rows a thread and two blocks an SM (s2), against main (ch); one GPU
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for args in "--size 70x45x37" "--size 131x67x60" "--size 136x33x100" "--size 376x376x50" "--size 513x513x40" "--size 260x36x300"; do
  out=$(timeout 60 scratch/sol5b_s2 --order 8 --variant queue4_128x16 $args --reps 1 2>&1); rc=$?; echo "s2 order 8 $args: $(grep -c PASS <<<"$out") PASS $(grep -c FAIL <<<"$out") FAIL rc=$rc"; grep -i "error" <<<"$out" | head -3
done
echo "correctness $SECONDS s"
for round in 1 2; do for sz in 512 376 480x480x400 800x800x400 513; do for b in ch s2; do
  timeout 60 scratch/sol5b_$b --size $sz --order 8 --variant queue4_128x16 --reps 30 | grep "^queue4" | sed "s/^/$b 8 /" | cut -c1-130
done; done; echo "round $round $SECONDS s"; done
for b in ch s2; do timeout 120 scratch/sol5b_$b --profile --size 512 --order 8 --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/$b 8 512 /"; done
for t in memcheck racecheck; do
  out=$(timeout 120 compute-sanitizer --tool $t --error-exitcode 9 scratch/sol5b_s2 --order 8 --variant queue4_128x16 --size 131x67x60 --reps 1 2>&1); rc=$?; echo "$t 131x67x60 rc=$rc $(tail -1 <<<"$out")"
  out=$(timeout 120 compute-sanitizer --tool $t --error-exitcode 9 scratch/sol5b_s2 --order 8 --variant queue4_128x16 --size 136x33x100 --reps 1 2>&1); rc=$?; echo "$t 136x33x100 rc=$rc $(tail -1 <<<"$out")"
done
echo "done $SECONDS s"
