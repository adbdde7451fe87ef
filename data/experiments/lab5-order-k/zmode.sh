#!/usr/bin/env bash
# queue4: chunk order and direction (STENCIL_ZMODE: 1 odd chunks walk down z, 2 chunk pairs adjacent
# in launch order, 3 both) against main's kernel; then correctness at odd sizes and DRAM bytes
set -u
M=scratch/sol5b_main; Z=scratch/sol5b_zm
row() { grep -E '^queue4' | awk -F'|' '{gsub(/ /,"",$4); gsub(/ /,"",$NF); printf "%s %s", $4, $NF}'; }
for round in 1 2; do
  for s in 512 376 480x480x400; do
    for k in 8 12; do
      line="round $round $s order $k: main $($M --size $s --order $k --variant queue4_128x16 --reps 20 | row)"
      for zm in 0 1 2 3; do
        line="$line | z$zm $(STENCIL_ZMODE=$zm $Z --size $s --order $k --variant queue4_128x16 --reps 20 | row)"
      done
      echo "$line"
    done
  done
done
for zm in 1 3; do
  for k in 2 8 12; do
    for s in 13x13x13 131x67x45 513x20x40 131x17x553 68x45x31 512x32x64 136x20x30; do
      echo "check z$zm order $k $s: $(STENCIL_ZMODE=$zm $Z --size $s --order $k --variant queue4_128x16 --reps 2 | row)"
    done
  done
done
for zm in 0 3; do
  for s in 376 512; do
    for k in 8 12; do
      echo "profile z$zm $s order $k: $(STENCIL_ZMODE=$zm $Z --profile --size $s --order $k --variant queue4_128x16 | grep -E '^queue4' | tr -s ' ')"
    done
  done
done
