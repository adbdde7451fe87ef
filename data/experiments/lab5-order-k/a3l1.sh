#!/bin/bash
# Order 8's stage with the halo 3 planes ahead (a ring of 6, as before the stage) and the own
# quads 1 plane early in cp.async groups of their own (branch lab5-lead2, 6ef0799, -DSTAGE_SPLIT
# -DO8_LEAD=1 -DO8_AHEAD=3; a stage of 2, 92.5 KB a block, two blocks an SM). lead2.txt suggests
# DRAM reads grow with the planes between a tile's copy of its own rows and its neighbours' halo
# copies of them: here that gap is the unstaged ring of 6's (2 planes), with the stage's wait.
# Built here: scratch/sol5b_main (ddf75d7) and scratch/sol5b_a3l1. Run from the repository root
# on one GPU, carry scratch.
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for sz in 131x67x60 513x513x40 128x16x273 131x17x274 376; do
  timeout 60 scratch/sol5b_a3l1 --size $sz --order 8 --variant queue4_128x16 --reps 2 2>&1 | grep '^queue4' | sed "s/^/a3l1 /"
done
for tool in memcheck racecheck synccheck; do
  out=$(timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 scratch/sol5b_a3l1 --order 8 --variant queue4_128x16 --size 131x67x60 --reps 1 2>&1)
  echo "$tool a3l1 order 8 rc=$? $(tail -1 <<<"$out")"
done
for round in 1 2; do for sz in 512 376 544x544x400 640x640x400 800x800x800; do for b in main a3l1; do
  timeout 60 scratch/sol5b_$b --size $sz --order 8 --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | sed "s/^/$b /"
done; done; echo "round $round $SECONDS s"; done
for sz in 512 800x800x800; do for b in main a3l1; do
  timeout 60 scratch/sol5b_$b --profile --size $sz --order 8 --variant queue4_128x16 2>&1 | grep '^queue4' | sed "s/^/$b $sz /"
done; done
echo "done $SECONDS s"
