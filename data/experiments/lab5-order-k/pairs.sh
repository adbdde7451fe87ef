#!/bin/bash
# lab 5b queue4: the z layers launched in pairs (QUEUE4_PAIRS=1, branch lab5-cluster): order
# 0, g, 1, g+1, ... so that chunk c + 1 of a tile starts about when chunk c ends (two layers of
# 128 tiles = 256 blocks after it, against 264 slots at 512^3 order 8) and its queue's fill
# finds the shared planes in L2. diag3.sh: without the halo rows order 8 still reads 4.28 B/pt,
# and 4.02 with one block an SM, where c + 1 starts a layer (0.97 waves) after c. One GPU.
cd "$(dirname "$0")/../../.."
B=scratch/sol5b_cl
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for o in 2 8 12; do for sz in 70x45x37 136x33x100 376x376x50 300x200x90 131x67x60 513x513x40 256x256x300; do
  out=$(QUEUE4_PAIRS=1 timeout 60 $B --order $o --variant queue4_128x16 --size $sz --reps 1 2>&1); rc=$?
  echo "pairs order $o $sz: $(grep -c PASS <<<"$out") PASS $(grep -c FAIL <<<"$out") FAIL rc=$rc"
done; done
echo "correctness $SECONDS s"
for round in 1 2; do for o in 8 2 4 6 12; do for sz in 512 480x480x400 513 376 800x800x400; do
  [ $o = 4 -o $o = 6 ] && [ $sz != 512 ] && continue
  for pr in 0 1; do
    QUEUE4_PAIRS=$pr timeout 60 $B --size $sz --order $o --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | cut -c1-100 | sed "s/^/pairs=$pr o$o /"
  done; done; done; echo "round $round $SECONDS s"; done
for o in 8 2; do for pr in 0 1; do
  QUEUE4_PAIRS=$pr timeout 120 $B --profile --size 512 --order $o --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/pairs=$pr o$o 512 /"
done; done
QUEUE4_PAIRS=1 timeout 120 $B --profile --size 480x480x400 --order 8 --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/pairs=1 o8 480x480x400 /"
QUEUE4_PAIRS=0 timeout 120 $B --profile --size 480x480x400 --order 8 --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/pairs=0 o8 480x480x400 /"
echo "done $SECONDS s"
