#!/bin/bash
# Order 10 under the poll (Quad::POLL, R > 4) against try_wait: main before the change (0bd9305,
# built here as scratch/sol5b_try: make -s ARCH=sm_90 sol5b, then moved) against ./sol5b of the
# change, at orders 10 and 12, 512^3 and 376^3, two rounds. Run from the repository root, one GPU,
# carry scratch.
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for round in 1 2; do for o in 10 12; do for sz in 512 376; do for b in try poll; do
  bin=./sol5b; [ $b = try ] && bin=scratch/sol5b_try
  timeout 60 $bin --size $sz --order $o --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | sed "s/^/$b o$o /"
done; done; done; echo "round $round $SECONDS s"; done
