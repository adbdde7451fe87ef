#!/usr/bin/env bash
# queue4 as committed (52c318a: u_prev, vsq and u copied by cp.async 2 planes ahead) against the
# same code with QUEUE4_COPY = false (scratch/sol8_regs: the register path, one plane ahead) and
# with the copies 1 plane ahead (scratch/sol8_copy1: Quad<1, true>), alternating, two rounds.
set -u
make -s -j"$(nproc)" sol8 >/dev/null
for round in 1 2; do
    for args in "--reps 10" "--size 768x768x768 --reps 5"; do
        for bin in ./sol8 scratch/sol8_regs scratch/sol8_copy1; do
            # shellcheck disable=SC2086
            echo "$bin $args | $($bin --variant queue4_128x16 $args | grep '^queue4_128x16 ' | head -n 1)"
        done
    done
done
./sol8 --profile --size 512 --steps 2 --variant queue4_128x16 | tail -n 1
