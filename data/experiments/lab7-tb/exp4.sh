#!/bin/bash
# run 4: the live-step mask in 3D (base = 4ca7815, live = skip steps no row of the warp matters at)
# (as run for run4b.csv; run4a.csv had V="--variant base --variant live --variant live5 --variant live3"
# and ran peers/build/e3d7pt at both sizes after the timings, as exp3.sh does)
cd "$(dirname "$0")/.."
B=${B:-scratch/sol7x}
V="--variant base --variant live --variant live2 --variant hoist --variant live2t5"
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader | head -1
for args in "--size 70x45x37 --steps 7" "--size 33x9x100 --steps 5" "--size 3x4x5 --steps 2" "--size 130x67x41 --steps 10 --diffusion 0.1666" \
  "--size 200x3x700 --steps 7" "--size 65x700x9 --steps 4" "--size 57x25x30 --steps 9" "--size 113x49x77 --steps 6" "--size 2x2x2 --steps 3"; do
  o=$($B $V $args --reps 2 2>&1); echo "$args: $(grep -c PASS <<<"$o") PASS"; grep -E "FAIL|rror|refus" <<<"$o"
done
echo "cases done $SECONDS s"
for pr in "512x512x512 32" "768x352x2560 32"; do
  set -- $pr
  $B $V --size $1 --steps $2 --reps 10 --csv $OUT/exp.csv | grep -E "^\| *[a-z]" | cut -c1-150
done
echo "perf done $SECONDS s"
