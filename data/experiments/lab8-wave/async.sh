#!/usr/bin/env bash
# (H200, 2026-11-28, before 52c318a) The first test of the copies: queue4 with u_prev and vsq
# copied by cp.async 3 planes ahead into the thread's own slots of shared memory (async1), and with
# the queue's newest u too (async2), against main (f51f49c: registers one plane ahead),
# alternating, two rounds; correctness at three odd sizes first. The binaries were a draft of
# 52c318a's change, built with a macro (WQ_ASYNC 1 or 2) in place of Quad's COPY: the same copies,
# not the same machine code (52c318a with Quad<3, true> in queue4_pick was never timed). Output:
# async.txt.
set -u
make -s -j"$(nproc)" sol8 >/dev/null
for bin in scratch/sol8_async1 scratch/sol8_async2; do
    for args in "--size 131x67x45 --steps 5" "--size 259x33x70 --steps 3 --model 1 --sponge 6" "--size 128x16x40 --steps 4"; do
        echo "$bin $args | $($bin --variant queue4_128x16 --reps 1 $args | grep '^queue4_128x16 ' | head -n 1)"
    done
done
for round in 1 2; do
    for args in "--reps 10" "--size 768x768x768 --reps 5" "--size 256x256x256 --steps 6 --reps 20"; do
        for bin in ./sol8 scratch/sol8_async1 scratch/sol8_async2; do
            # shellcheck disable=SC2086
            echo "$bin $args | $($bin --variant queue4_128x16 $args | grep '^queue4_128x16 ' | head -n 1)"
        done
    done
done
for bin in scratch/sol8_async1 scratch/sol8_async2; do
    $bin --profile --size 512 --steps 2 --variant queue4_128x16 | tail -n 1
done
