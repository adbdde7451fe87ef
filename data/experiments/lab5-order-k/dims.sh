#!/bin/bash
# Where 376^3 loses against 512^3, one dimension at a time: queue4 at orders 2, 8 and 12 at 512^3,
# 376^3, 384x384x376 (the same 72 tiles and z chunks as 376^3, all tiles whole),
# 376x376x752 (376^3's tiles and waves, chunks twice as long: z redundancy near 512^3's),
# 384x384x768 (both) and 512x512x376 (512^3's tiles and a z of 376), then a plain copy of each
# size (copysize.py, torch) against the 1 GiB copy that "% copy" divides by, and --profile (ncu)
# at orders 8 and 12 of 376^3, 384x384x376 and 376x376x752 to $1 (default: dims-profile.csv in
# the current directory). Main's sol5b (make sol5b), one GPU, from the repository root, about
# 2 minutes on an H200.
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
sizes="512 376 384x384x376 376x376x752 384x384x768 512x512x376"
for round in 1 2; do
  for s in $sizes; do
    for k in 2 8 12; do
      timeout 60 ./sol5b --size $s --order $k --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | sed "s/^/o$k /"
    done
  done
  echo "round $round $SECONDS s"
done
python3 data/experiments/lab5-order-k/copysize.py 268435456x1x1 512x512x512 376x376x376 384x384x376 376x376x752 \
  384x384x768 512x512x376
for s in 376 384x384x376 376x376x752; do
  for k in 8 12; do ./sol5b --profile --size $s --order $k --variant queue4_128x16 --csv "${1:-dims-profile.csv}"; done
done
