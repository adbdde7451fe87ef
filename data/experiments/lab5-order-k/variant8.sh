#!/bin/bash
# An order 8 variant of queue4 against main, one binary each (built here, carried in scratch/):
# scratch/sol5b_main (the build compared against: for lead2.txt and a3l1.txt main at ddf75d7,
# make -s ARCH=sm_90 sol5b, then moved there) and scratch/sol5b_$1.
# Correct at five sizes (strips among them), the three sanitizers, two timed rounds at five sizes,
# DRAM bytes at two. Run from the repository root on one GPU, carry scratch.
#   bash variant8.sh split   lead2.txt: branch lab5-lead2 at f19a819, -DSTAGE_SPLIT: the own quads
#                            2 planes early in cp.async groups of their own (a stage of 3, 88 KB)
#   bash variant8.sh a3l1    a3l1.txt: lab5-lead2 at 6ef0799, -DSTAGE_SPLIT -DO8_LEAD=1 -DO8_AHEAD=3:
#                            the halo 3 planes ahead, the own quads 1 early (a stage of 2, 92.5 KB)
#   bash variant8.sh sf      sf.txt: lab5-o8a3-sf at 82f4fff, -DSTAGE_FIRST (the stage's group
#                            before the halo's), against lab5-o8a3's own build (35d0ed6) as sol5b_main
v=${1:?which variant: split, a3l1 or sf}
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for sz in 131x67x60 513x513x40 128x16x273 131x17x274 376; do
  timeout 60 scratch/sol5b_$v --size $sz --order 8 --variant queue4_128x16 --reps 2 2>&1 | grep '^queue4' | sed "s/^/$v /"
done
for tool in memcheck racecheck synccheck; do
  out=$(timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 scratch/sol5b_$v --order 8 --variant queue4_128x16 --size 131x67x60 --reps 1 2>&1)
  echo "$tool $v order 8 rc=$? $(tail -1 <<<"$out")"
done
for round in 1 2; do for sz in 512 376 544x544x400 640x640x400 800x800x800; do for b in main $v; do
  timeout 60 scratch/sol5b_$b --size $sz --order 8 --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | sed "s/^/$b /"
done; done; echo "round $round $SECONDS s"; done
for sz in 512 800x800x800; do for b in main $v; do
  timeout 60 scratch/sol5b_$b --profile --size $sz --order 8 --variant queue4_128x16 2>&1 | grep '^queue4' | sed "s/^/$b $sz /"
done; done
echo "done $SECONDS s"
