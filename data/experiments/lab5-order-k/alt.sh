#!/bin/bash
# z chunks in pairs of unequal length (zchunk - d, zchunk + d planes, d = QUEUE4_ALT_PCT % of
# zchunk; alt.diff), so that the blocks of one wave do not all end, and fill their queues, at the
# same time. dims.sh found 376^3's short chunks cost it 6-7% on an H200. scratch/sol5b_alt is
# 35fb8f1 with alt.diff, built as chunks8.sh says (sm_90); ./sol5b is main (make sol5b). One GPU,
# from the repository root, about 2 minutes.
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for s in 131x67x60 70x45x37 376x376x50 513x129x77 376; do  # correctness: every run checks PASS
  for k in 8 12; do
    QUEUE4_ALT_PCT=25 timeout 60 scratch/sol5b_alt --size $s --order $k --variant queue4_128x16 --reps 2 2>&1 |
      grep -E '^alt|^queue4' | tr '\n' ' ' | sed "s/^/check o$k /"; echo
  done
done
for round in 1 2; do
  for s in 376 384x384x376 512; do
    for k in 2 8 12; do
      timeout 60 ./sol5b --size $s --order $k --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | sed "s/^/o$k main /"
      for pct in 12 25 35; do
        QUEUE4_ALT_PCT=$pct timeout 60 scratch/sol5b_alt --size $s --order $k --variant queue4_128x16 --reps 30 2>&1 |
          grep -E '^alt|^queue4' | tr '\n' ' ' | sed "s/^/o$k alt$pct /"; echo
      done
    done
  done
  echo "round $round $SECONDS s"
done
