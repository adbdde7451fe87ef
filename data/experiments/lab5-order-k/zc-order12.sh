#!/bin/bash
# lab 5b queue4 order 12: the number of z chunks forced (QUEUE4_CHUNKS; odd ones walk down where
# QUEUE4_DOWN=1) against the launcher's choice ("-"), 376^3 and 512^3; one GPU
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
run() {  # size chunks down
  if [ "$2" = - ]; then out=$(timeout 60 scratch/sol5b_ch --size $1 --order 12 --variant queue4_128x16 --reps 30 2>&1)
  else out=$(QUEUE4_CHUNKS=$2 QUEUE4_DOWN=$3 timeout 60 scratch/sol5b_ch --size $1 --order 12 --variant queue4_128x16 --reps 30 2>&1); fi
  echo "$1 c=$2 down=$3 | $(grep '^queue4' <<<"$out" | cut -c22-)"
}
for round in 1 2; do
  for c in "- -" "5 0" "6 0" "7 0" "7 1" "8 0" "9 0" "10 0" "11 0" "12 0" "14 0"; do run 376 $c; done
  for c in "- -" "3 0" "5 0" "6 0" "8 0"; do run 512 $c; done
  echo "round $round $SECONDS s"
done
