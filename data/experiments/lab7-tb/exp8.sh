#!/bin/bash
# run 8: three rows a warp in 3D (PY3 = 3) with 16, 12 or 10 warps a block
cd "$(dirname "$0")/.."
B=${B:-scratch/sol7t}
V="--variant base --variant p3w16 --variant p3w12 --variant p3w10"
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader | head -1
for args in "--size 70x45x37 --steps 7" "--size 33x9x100 --steps 5" "--size 3x4x5 --steps 2" "--size 130x67x41 --steps 10 --diffusion 0.1666" \
  "--size 200x3x700 --steps 7" "--size 65x700x9 --steps 4" "--size 57x25x30 --steps 9" "--size 113x49x77 --steps 6" "--size 2x2x2 --steps 3" "--size 300x200x60 --steps 9" "--size 97x130x50 --steps 4"; do
  o=$($B $V $args --reps 2 2>&1); echo "$args: $(grep -c PASS <<<"$o") PASS"; grep -E "FAIL|rror|refus" <<<"$o"
done
echo "cases done $SECONDS s"
for pr in "512x512x512 32" "768x352x2560 32"; do
  set -- $pr
  $B $V --size $1 --steps $2 --reps 10 --csv $OUT/exp.csv | grep -E "^\| *[a-z]" | cut -c1-150
done
echo "perf done $SECONDS s"
for pr in "256x256x256 32" "128x128x128 32"; do
  set -- $pr
  $B $V --size $1 --steps $2 --reps 10 --csv $OUT/exp.csv > /dev/null
done
echo "all done $SECONDS s"
