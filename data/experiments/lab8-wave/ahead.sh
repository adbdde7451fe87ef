#!/usr/bin/env bash
# (H200, 2026-11-28, before 52c318a; a second call) The copies of all three streams (async.sh's
# async2) with the halo and the copies AHEAD = 2, 3 or 4 planes ahead (rings of 5, 6 and 7 planes,
# 3, 4 and 5 planes of slots), alternating, two rounds. The binaries were async.sh's draft, built
# with a second macro (WQ_AHEAD) for the ring; not 52c318a's code, which ships AHEAD = 2
# (Quad<2, true>) and was never timed beside 3 or 4 in one call. Output: ahead.txt.
set -u
for bin in scratch/sol8_async2a2 scratch/sol8_async2a4; do
    for args in "--size 131x67x45 --steps 5" "--size 259x33x70 --steps 3 --model 1 --sponge 6"; do
        echo "$bin $args | $($bin --variant queue4_128x16 --reps 1 $args | grep '^queue4_128x16 ' | head -n 1)"
    done
done
for round in 1 2; do
    for args in "--reps 10" "--size 768x768x768 --reps 5"; do
        for bin in scratch/sol8_async2a2 scratch/sol8_async2 scratch/sol8_async2a4; do
            # shellcheck disable=SC2086
            echo "$bin $args | $($bin --variant queue4_128x16 $args | grep '^queue4_128x16 ' | head -n 1)"
        done
    done
done
for bin in scratch/sol8_async2a2 scratch/sol8_async2a4; do
    $bin --profile --size 512 --steps 2 --variant queue4_128x16 | tail -n 1
done
