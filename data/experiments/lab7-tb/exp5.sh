#!/bin/bash
# run 5: MIN_RUN (the shortest run per warp/block, in passes' depths) at the small bench sizes
cd "$(dirname "$0")/.."
B=${B:-scratch/sol7m}
V="--variant base --variant mr2 --variant mr1 --variant old"
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader | head -1
for args in "--size 301x257 --steps 13" "--size 1000x3 --steps 17" "--size 70x45x37 --steps 7" "--size 200x3x700 --steps 7" "--size 129x1025 --steps 9"; do
  o=$($B $V $args --reps 2 2>&1); echo "$args: $(grep -c PASS <<<"$o") PASS"; grep -E "FAIL|rror|refus" <<<"$o"
done
for pr in "1024x1024 64 10" "2048x2048 64 10" "4096x4096 64 10" "512x512 256 10" "256x256x256 32 10" "128x128x128 32 10"; do
  set -- $pr
  $B $V --size $1 --steps $2 --reps $3 --csv $OUT/exp5.csv > /dev/null
done
echo "perf done $SECONDS s"
