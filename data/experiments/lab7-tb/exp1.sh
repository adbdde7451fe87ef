#!/bin/bash
# ad hoc: lab 7 tb configurations beside EBISU, one call
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader
for b in ${BINS:-base skew t4 p4w8 t4p4w8 wave1}; do
  for pr in "7854x7854 64" "15708x15708 64" "512x512x512 32" "768x352x2560 32"; do
    set -- $pr
    [ -n "$ONLY3" ] && [ "${1//[^x]/}" = x ] && continue
    scratch/sol7_$b --variant tb --size $1 --steps $2 --reps 10 --csv $OUT/exp.csv --quiet || echo "$b $1 FAILED rc=$?"
  done
done
perl -F, -lane 'print join " ", @F[2..5,10,12,19] if $.>1' $OUT/exp.csv
for pr in "peers/build/e2d5pt 7854 7854 --fp32 --warmup --iter=900 --bdim=256" "peers/build/e2d5pt 15708 15708 --fp32 --warmup --iter=900 --bdim=256" "peers/build/e3d7pt 512 512 512 --fp32 --warmup --iter=80" "peers/build/e3d7pt 768 352 2560 --fp32 --warmup --iter=80"; do
  $pr 2>&1 | tail -n 1 | tr '\t' ' '
done
