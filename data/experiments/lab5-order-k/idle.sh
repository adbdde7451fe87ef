#!/bin/bash
# Warps of a partial tile row below the grid skip the stencil: idle.diff (it carries chunks.diff's
# two lines too), built without QUEUE4_SKIP_SHIFT, which spilled (236 bytes at order 8:
# ptxas-idle.txt). scratch/sol5b_idle is a4e65a9 with idle.diff, scratch/sol5b_ch the same
# without the skip (chunks.diff only), both built as chunks8.sh says. One GPU, from the
# repository root, about a minute.
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for round in 1 2; do
  for s in 376 512 376x376x752 384x384x376; do
    for k in 2 8 12; do
      for b in scratch/sol5b_ch scratch/sol5b_idle; do
        timeout 60 $b --size $s --order $k --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | sed "s|^|$s o$k ${b#scratch/} |"
      done
    done
  done
  echo "round $round $SECONDS s"
done
