#!/usr/bin/env bash
# The one-row queue4 (main, 90abd9d) against two deeper leads, each 4 bytes of spill at 128
# registers: up2.diff (u_prev and vsq two planes ahead instead of one) and q2.diff (the queue's
# newest plane of u two planes ahead). 512^3 and 768^3, alternating, two rounds.
set -u
make -s -j"$(nproc)" sol8 >/dev/null
for round in 1 2; do
    for args in "--reps 10" "--size 768x768x768 --reps 5"; do
        for bin in ./sol8 scratch/sol8_up2 scratch/sol8_q2; do
            # shellcheck disable=SC2086
            echo "$bin $args | $($bin --variant queue4_128x16 $args | grep '^queue4_128x16 ' | head -n 1)"
        done
    done
done
