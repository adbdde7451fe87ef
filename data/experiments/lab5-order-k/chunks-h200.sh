#!/bin/bash
# z chunks at 376^3 on an H200 with main's kernel (a4e65a9): the launcher's choice against forced
# ones, orders 8 and 12, and 512^3 beside them. scratch/sol5b_ch is a4e65a9 with chunks.diff
# (QUEUE4_CHUNKS, the number of chunks; QUEUE4_DOWN, whether odd ones walk down), built as
# chunks8.sh says. One GPU, from the repository root, about 3 minutes.
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
run() { local s=$1 k=$2; shift 2
        timeout 60 env "$@" scratch/sol5b_ch --size $s --order $k --variant queue4_128x16 --reps 30 2>&1 |
        grep '^queue4' | sed "s/^/$s o$k $* /"; }
for round in 1 2; do
  run 512 8 X=launcher
  run 376 8 X=launcher  # 11 chunks of 35, odd down
  for c in 6 7 8 9 14; do run 376 8 QUEUE4_CHUNKS=$c; done
  run 376 8 QUEUE4_CHUNKS=7 QUEUE4_DOWN=0
  run 512 12 X=launcher
  run 376 12 X=launcher  # 7 chunks of 54, up
  for c in 5 6 9 11; do run 376 12 QUEUE4_CHUNKS=$c; done
  run 376 12 QUEUE4_CHUNKS=11 QUEUE4_DOWN=1
  echo "round $round $SECONDS s"
done
