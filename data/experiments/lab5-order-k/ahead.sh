#!/bin/bash
# lab 5b on an H100: the halo AHEAD 4 and 5 planes (a4, a5; the solution a3), and two rows a thread
# at orders <= 8 in 256-thread blocks held two a SM (c: 16 warps an SM, 128 registers)
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for b in a4 a5 c; do for k in 8 12; do for args in "--size 70x45x37" "--size 130x67x41" "--size 513x129x77" "--size 9x9x9"; do
  o=$(scratch/sol5b_$b --order $k --variant queue4_128x16 $args --reps 1 2>&1); echo "$b order $k $args: $(grep -c PASS <<<"$o") PASS $(grep -c FAIL <<<"$o") FAIL"
done; done; done
echo "checks $SECONDS s"
for round in 1 2; do for sz in 512 376; do for k in 8 12; do for b in a3 a4 a5 c; do
  [ $b = c ] && [ $k = 12 ] && continue
  scratch/sol5b_$b --size $sz --order $k --variant queue4_128x16 --reps 20 --csv $OUT/ahead.csv | grep "^queue4" | sed "s/^/$b $k /"
done; done; done; echo "round $round $SECONDS s"; done
for b in a3 a5 c; do scratch/sol5b_$b --profile --size 512 --order 8 --variant queue4_128x16 2>&1 | grep queue4 | sed "s/^/$b /"; done
echo "end $SECONDS s"
