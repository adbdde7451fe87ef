#!/bin/bash
# Where a block's time goes at 376^3 against sizes of longer chunks: scratch/sol5b_trace is a34a496
# with trace.diff (each block's SM and clock64 at its start, after its first plane and at its end,
# written by the host to $QUEUE4_TRACE after every launch, which it synchronises: the "traced"
# times mean nothing, and the file kept is the last launch's), built as chunks8.sh says (sm_90).
# The traced binary is timed untraced beside main's ./sol5b (make sol5b) to see what the trace
# costs. One GPU, from the repository root; the traces go to ${1:-.}/traces.tar.gz.
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
d=$(mktemp -d)
for s in 376 384x384x376 384x384x768 512; do
  for k in 8 12; do
    for b in ./sol5b scratch/sol5b_trace; do
      timeout 60 $b --size $s --order $k --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | sed "s|^|o$k $b |"
    done
    QUEUE4_TRACE=$d/trace-o$k-$s.csv timeout 60 scratch/sol5b_trace --size $s --order $k --variant queue4_128x16 \
      --reps 3 2>&1 | grep '^queue4' | sed "s|^|o$k traced |"
  done
done
tar -C "$d" -czf "${1:-.}/traces.tar.gz" .
rm -rf "$d"
