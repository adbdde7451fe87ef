#!/bin/bash
# quad_zchunk's "at least 3 waves" against "more than one wave" (QUEUE4_MINWAVES=1), labs 5b and 8,
# at the sizes whose grid is small enough for the two to differ. scratch/sol5b_mw and
# scratch/sol8_mw are main at 8d63bd9 with minwaves.diff, built as chunks8.sh says (sm_90), with
# QUEUE4_SHOW printing each choice. 2 rounds; in the second, a config whose two choices agreed in
# the first runs the main rule only.
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
declare -A same
one() {  # rule prog args...
  local mw=$1; shift
  local o; o=$(QUEUE4_SHOW=1 QUEUE4_MINWAVES=$mw timeout 90 "$@" --variant queue4_128x16 2>&1)
  echo "mw$mw ${*:2} | $(grep -m1 '^zchunk' <<<"$o") | $(grep -m1 '^queue4' <<<"$o")"
}
pair() {
  local key="$*"
  a=$(one 3 "$@"); echo "$a"
  [ -n "${same[$key]:-}" ] && return
  b=$(one 1 "$@"); echo "$b"
  [ "$(echo "$a" | grep -o 'zchunk[^)]*')" = "$(echo "$b" | grep -o 'zchunk[^)]*')" ] && same[$key]=1
}
for round in 1 2; do
  for s in 376 512 513 480x480x400 544x544x400; do
    for k in 2 4 6 8 10 12; do pair scratch/sol5b_mw --order $k --size $s --reps 20; done
  done
  for s in 256 320x320x400 480 512 544; do pair scratch/sol8_mw --size $s --steps 6 --reps 10; done
  echo "round $round $SECONDS s"
done
