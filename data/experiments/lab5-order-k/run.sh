#!/bin/bash
# Rebuild the experiment and time its variants (on a GPU): bash data/experiments/lab5-order-k/run.sh
# Variant names: see NOTES.md. Prints one table per order at 512^3, then any FAIL at odd sizes.
cd "$(dirname "$0")/../../.." || exit 2
X=${TMPDIR:-/tmp}/lab5-order-k
make -s program SRC=data/experiments/lab5-order-k OUT="$X" && make -s sol5 || exit 2
V=$(for v in q16_2_8_1 b16_1_2_8 b4_2_1_16 b4_4_1_16 b16_1_1_4 c16_1_2_8 c4_2_1_16 p16_1_2_8 r16_1_1_8 r8_1_1_8; do echo --variant $v; done)
for o in 8 12; do ./sol5 --order $o --variant queue_16x16 --reps 20; "$X" --order $o $V --reps 20; done
for s in 516x37x45 132x7x29 4x4x4 8x300x17 12x12x12 260x19x40; do
    for o in 2 8 12; do "$X" --order $o --size $s $V --reps 1 | grep -E '\| FAIL'; done
done
