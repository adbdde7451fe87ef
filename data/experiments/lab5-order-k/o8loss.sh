#!/bin/bash
# Why the staged order 8 kernel (f6794ae) loses 3% at 640x640x400 and 800^3 while it gains at
# 512^3 and 544x544x400: staged against the ring of 6 without the stage, one binary (main's
# ./sol5b, built first: make sol5b), the unstaged kernel picked by emulating 79 KB a block
# (its 78,368 bytes fit, the stage's 81,696 do not; both run two blocks an SM, so the z chunks
# are the same). Time, then DRAM and L2 bytes. One GPU; run from the repository root.
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
run() { local k=$1; shift; if [ "$k" = unstaged ]; then STENCIL_EMULATE=smem=79K timeout 120 "$@"; else timeout 120 "$@"; fi; }
for round in 1 2; do for sz in 512 544x544x400 640x640x400 800x800x800; do for k in staged unstaged; do
  run $k ./sol5b --size $sz --order 8 --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | sed "s/^/$k /"
done; done; echo "round $round $SECONDS s"; done
for sz in 512 640x640x400 800x800x800; do for k in staged unstaged; do
  run $k ./sol5b --profile --size $sz --order 8 --variant queue4_128x16 2>&1 | grep '^queue4' | sed "s/^/$k $sz /"
done; done
echo "done $SECONDS s"
