#!/usr/bin/env bash
# Lab 8's queue4 with one row a thread (BY = 16, PY = 1: 512 threads, 128 registers, 16 warps an
# SM) against main's two rows a thread (BY = 8, 201 registers, 8 warps an SM), alternating, two
# rounds, at the three sizes of lab 8's bench that time queue4. scratch/sol8_py1 is main's lab 8
# built with that one line of common/device/wave_queue4.cuh changed (py1.diff).
set -u
make -s -j"$(nproc)" sol8 >/dev/null
for round in 1 2; do
    for args in "--reps 10" "--size 768x768x768 --reps 5" "--size 256x256x256 --steps 6 --reps 20"; do
        for bin in ./sol8 scratch/sol8_py1; do
            # shellcheck disable=SC2086
            echo "$bin $args | $($bin --variant queue4_128x16 $args | grep '^queue4_128x16 ' | head -n 1)"
        done
    done
done
scratch/sol8_py1 --profile --size 256 --steps 2 --variant queue4_128x16 | tail -n 2
./sol8 --profile --size 512 --steps 2 --variant queue4_128x16 | tail -n 1
scratch/sol8_py1 --profile --size 512 --steps 2 --variant queue4_128x16 | tail -n 1
