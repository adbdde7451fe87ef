#!/bin/bash
# Order 8 at 376^3 with the halo 3 planes ahead (35d0ed6): the launcher's z chunks against forced
# ones. scratch/sol5b_ch is main at 5984096 with chunks.diff (QUEUE4_CHUNKS, the number of chunks,
# and QUEUE4_DOWN, whether odd ones walk down), built here in a worktree with the patch applied:
#   make -s ARCH=sm_90 COMMIT=<12 hex>-ch program LAB=lab5b_register_queue
#        KERNELS=solutions/lab5b_register_queue/kernels.cu OUT=<repo>/scratch/sol5b_ch
# then rm <repo>/scratch/*.d; carry scratch/. One GPU, from the repository root, about 90 s.
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
run() { timeout 60 env "$@" scratch/sol5b_ch --size 376 --order 8 --variant queue4_128x16 --reps 30 2>&1 |
        grep '^queue4' | sed "s/^/$* /"; }
for round in 1 2; do
  run X=launcher  # 11 chunks of 35 planes, odd down: exactly 3 waves of 264 slots
  for c in 7 9 10 12 14; do run QUEUE4_CHUNKS=$c; done
  run QUEUE4_CHUNKS=11 QUEUE4_DOWN=0
  run QUEUE4_CHUNKS=7 QUEUE4_DOWN=0
  echo "round $round $SECONDS s"
done
