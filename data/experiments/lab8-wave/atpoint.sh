#!/usr/bin/env bash
# Lab 8's question 5 on the one-row kernel (16 warps an SM): u_prev and vsq loaded one plane ahead
# (main) against at the point (scratch/sol8_atpoint: main with atpoint.diff), 512^3, two rounds.
set -u
make -s -j"$(nproc)" sol8 >/dev/null
for round in 1 2; do
    for bin in ./sol8 scratch/sol8_atpoint; do
        echo "$bin | $($bin --variant queue4_128x16 --reps 10 | grep '^queue4_128x16 ' | head -n 1)"
    done
done
