#!/bin/bash
# Order 8's stage two planes early instead of one (branch lab5-lead2, f19a819, -DSTAGE_SPLIT): the
# ncu source page of the staged kernel (src-o8stage-512.csv.gz) puts 35% of the warps' samples on
# the read of the stage, waiting for copies issued one plane before. With the split, a plane's own
# quads go in a cp.async group of their own, 2 planes early, so that the wait for the halo of the
# next plane no longer covers them (stage of 3 slots: 88 KB a block, two blocks an SM).
# Built here: scratch/sol5b_main (main at ddf75d7: make -s ARCH=sm_90 sol5b) and scratch/sol5b_split.
# Run from the repository root on one GPU, carry scratch.
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for sz in 131x67x60 513x513x40 128x16x273 131x17x274 376; do
  timeout 60 scratch/sol5b_split --size $sz --order 8 --variant queue4_128x16 --reps 2 2>&1 | grep '^queue4' | sed "s/^/split /"
done
for tool in memcheck racecheck synccheck; do
  out=$(timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 scratch/sol5b_split --order 8 --variant queue4_128x16 --size 131x67x60 --reps 1 2>&1)
  echo "$tool split order 8 rc=$? $(tail -1 <<<"$out")"
done
for round in 1 2; do for sz in 512 376 544x544x400 640x640x400 800x800x800; do for b in main split; do
  timeout 60 scratch/sol5b_$b --size $sz --order 8 --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | sed "s/^/$b /"
done; done; echo "round $round $SECONDS s"; done
for sz in 512 800x800x800; do for b in main split; do
  timeout 60 scratch/sol5b_$b --profile --size $sz --order 8 --variant queue4_128x16 2>&1 | grep '^queue4' | sed "s/^/$b $sz /"
done; done
echo "done $SECONDS s"
