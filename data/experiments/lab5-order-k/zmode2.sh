#!/usr/bin/env bash
# queue4: odd z chunks walking down z (STENCIL_ZMODE=1, no change of launch order) against main
set -u
M=scratch/sol5b_main; Z=scratch/sol5b_z1
row() { grep -E '^queue4' | awk -F'|' '{gsub(/ /,"",$4); gsub(/ /,"",$NF); printf "%s %s", $4, $NF}'; }
for round in 1 2; do
  for s in 512 376 480x480x400 800x800x400 513; do
    for k in 2 8 12; do
      line="round $round $s order $k: main $($M --size $s --order $k --variant queue4_128x16 --reps 20 | row)"
      for zm in 0 1; do
        line="$line | z$zm $(STENCIL_ZMODE=$zm $Z --size $s --order $k --variant queue4_128x16 --reps 20 | row)"
      done
      echo "$line"
    done
  done
done
for s in 376 512; do
  for k in 8 12; do
    echo "profile z1 $s order $k: $(STENCIL_ZMODE=1 $Z --profile --size $s --order $k --variant queue4_128x16 | grep -E '^queue4' | tr -s ' ')"
  done
done
