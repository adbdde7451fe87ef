#!/bin/bash
# lab 5b queue4: z chunks forced by QUEUE4_CHUNKS (count) and QUEUE4_DOWN (odd chunks walk down),
# against the launcher's own choice ("-"); one GPU
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
run() {  # size order chunks down
  if [ "$3" = - ]; then out=$(timeout 60 scratch/sol5b_ch --size $1 --order $2 --variant queue4_128x16 --reps 30 2>&1)
  else out=$(QUEUE4_CHUNKS=$3 QUEUE4_DOWN=$4 timeout 60 scratch/sol5b_ch --size $1 --order $2 --variant queue4_128x16 --reps 30 2>&1); fi
  echo "$1 o$2 c=$3 down=$4 | $(grep '^queue4' <<<"$out" | cut -c22-)"
}
for round in 1 2; do
  for c in "- -" "2 1" "2 0" "4 1" "4 0"; do run 512 8 $c; done
  for c in "- -" "2 1" "4 1"; do run 512 2 $c; done
  for c in "- -" "1 0" "2 1"; do run 512 12 $c; done
  for c in "- -" "2 1" "3 1"; do run 376 8 $c; done
  for c in "- -" "1 0" "2 1"; do run 376 12 $c; done
  for c in "- -" "2 1"; do run 513 8 $c; done
  echo "round $round $SECONDS s"
done
for c in "- -" "2 1"; do
  if [ "$c" = "- -" ]; then timeout 120 scratch/sol5b_ch --profile --size 512 --order 8 --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/default /"
  else QUEUE4_CHUNKS=2 QUEUE4_DOWN=1 timeout 120 scratch/sol5b_ch --profile --size 512 --order 8 --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/c=2 down /"; fi
done
# the handout's question 8 command, as a student runs it (./lab5b, the lab's own build)
timeout 120 ncu --clock-control none --kernel-name regex:star_queue4 --launch-skip 1 --launch-count 1 --section SourceCounters \
    --page source --print-source sass --csv ./lab5b --order 8 --variant queue4_128x16 --reps 1 > $OUT/o8.csv 2> $OUT/o8.err
echo "question 8 command rc=$? $(wc -l < $OUT/o8.csv) lines"
echo "done $SECONDS s"
