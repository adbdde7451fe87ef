#!/bin/bash
# Where the staged order-8 queue4 kernel's warps wait (ncu source page, SASS), the merged solution's
# ./sol5b at 512^3; run from the repository root after gpu-session.sh built it; one GPU
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
ncu --version | tail -1
timeout 200 ncu --clock-control none --kernel-name regex:star_queue4 --launch-skip 1 --launch-count 1 \
  --section SourceCounters --section WarpStateStats --page source --print-source sass --csv \
  ./sol5b --size 512 --order 8 --variant queue4_128x16 --reps 1 > $OUT/src-o8stage-512.csv 2> $OUT/src-o8stage-512.err
echo "source page rc=$? $(wc -l < $OUT/src-o8stage-512.csv) lines $SECONDS s"
timeout 100 ncu --clock-control none --kernel-name regex:star_queue4 --launch-skip 1 --launch-count 1 \
  --section SourceCounters --section WarpStateStats --section LaunchStats --section Occupancy \
  ./sol5b --size 512 --order 8 --variant queue4_128x16 --reps 1 > $OUT/details-o8stage-512.txt 2>&1
echo "done rc=$? $SECONDS s"
