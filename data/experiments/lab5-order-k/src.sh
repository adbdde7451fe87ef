#!/bin/bash
# Where queue4's warps wait, instruction by instruction (ncu source page, SASS), main at 512^3 order 8
# and 376^3 / 512^3 order 12; one GPU
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
ncu --version | tail -1
for run in "8 512" "12 376" "12 512"; do set -- $run
  timeout 200 ncu --clock-control none --kernel-name regex:star_queue4 --launch-skip 1 --launch-count 1 \
    --section SourceCounters --section WarpStateStats --page source --print-source sass --csv \
    scratch/sol5b_main --size $2 --order $1 --variant queue4_128x16 --reps 1 > $OUT/src-o$1-$2.csv 2> $OUT/src-o$1-$2.err
  echo "order $1 size $2 rc=$? $(wc -l < $OUT/src-o$1-$2.csv) lines $SECONDS s"
done
timeout 100 ncu --clock-control none --kernel-name regex:star_queue4 --launch-skip 1 --launch-count 1 \
    --section SourceCounters --section WarpStateStats scratch/sol5b_main --size 512 --order 8 --variant queue4_128x16 --reps 1 > $OUT/details-o8-512.txt 2>&1
echo "done $SECONDS s"
