#!/bin/bash
# run 6: 2D plan, MIN_RUN = 1 and at most TB_SAT warps per SM (s12 = every resident warp)
cd "$(dirname "$0")/.."
B=${B:-scratch/sol7m}
V="--variant base --variant s12 --variant s10 --variant s8 --variant s6"
nvidia-smi --query-gpu=name,clocks.sm --format=csv,noheader | head -1
for args in "--size 301x257 --steps 13" "--size 1000x3 --steps 17" "--size 129x1025 --steps 9" "--size 4097x33 --steps 20" "--size 70x45x37 --steps 7"; do
  o=$($B $V $args --reps 2 2>&1); echo "$args: $(grep -c PASS <<<"$o") PASS"; grep -E "FAIL|rror|refus" <<<"$o"
done
for pr in "512x512 256 10" "1024x1024 64 10" "2048x2048 64 10" "4096x4096 64 10" "7854x7854 64 10" "8192x8192 64 10" "15708x15708 64 5"; do
  set -- $pr
  $B $V --size $1 --steps $2 --reps $3 --csv $OUT/exp6.csv > /dev/null; echo "$1 done $SECONDS s"
done
