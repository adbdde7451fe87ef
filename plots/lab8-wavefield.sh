#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The data of lab 8's pictures, made on the host by the CPU reference (./sol8 --dump-reference,
# double precision; every variant matches it within the tolerance): no GPU needed.
#   data/lab8-wavefield.f32  the plane y = N/2 of the --model 1 run (two layers, a Ricker source)
#                            at three times, N x N float32 each, x fastest, then z
#   data/lab8-wavefield.txt  what it is: N, C, the colour scale, the three steps, the commit
#   data/lab8-trace.csv      the field at a receiver against the step, with and without a sponge
# Usage: bash plots/lab8-wavefield.sh [wavefield] [trace]   (both by default; the trace takes
# about 5 minutes on two cores)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-160}
TIMES=${TIMES:-"240 360 480"}
TN=${TN:-96}
PARTS=${*:-wavefield trace}
commit=$(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
[ -x ./sol8 ] || make -s sol8
if [[ " $PARTS " == *" wavefield "* ]]; then
: > "$tmp/slices.f32"
for s in $TIMES; do
    ./sol8 --variant naive --size "$N" --steps "$s" --model 1 --dump-reference "$tmp/u.f64"
    perl -e '
        my ($n, $f) = @ARGV; open my $in, "<:raw", $f or die; my $y = int($n / 2);
        for my $z (0 .. $n - 1) { seek $in, (($z * $n + $y) * $n) * 8, 0; read $in, my $row, 8 * $n;
            print pack("f<*", unpack("d<*", $row)); }' "$N" "$tmp/u.f64" >> "$tmp/slices.f32"
done
mv "$tmp/slices.f32" data/lab8-wavefield.f32
# The colour scale: the largest |u| of the last plane (the first holds the strong source region).
amp=$(perl -e 'my ($n, $f) = @ARGV; open my $in, "<:raw", $f or die; seek $in, 2 * $n * $n * 4, 0;
    read $in, my $p, $n * $n * 4; my $m = 0; for (unpack "f<*", $p) { $m = abs($_) if abs($_) > $m } printf "%.3g", $m' \
    "$N" data/lab8-wavefield.f32)
echo "$N 0.4 $amp $TIMES $commit" > data/lab8-wavefield.txt
fi
[[ " $PARTS " == *" trace "* ]] || exit 0
# The receiver: on the source's plane (a quarter of the depth), 20 points away in x.
{
    echo "# lab 8, --size $TN --model 1: u at x = N/2 + 20, y = N/2, z = N/4 (the source at x = N/2)"
    echo "step,u,u_sponge12"
    for s in $(seq 4 4 480); do
        line=$s
        for sp in 0 12; do
            ./sol8 --variant naive --size "$TN" --steps "$s" --model 1 --sponge "$sp" --dump-reference "$tmp/t.f64"
            line+=,$(perl -e '
                my ($n, $f) = @ARGV; open my $in, "<:raw", $f or die;
                my $i = (int($n / 4) * $n + int($n / 2)) * $n + int($n / 2) + 20;
                seek $in, 8 * $i, 0; read $in, my $v, 8; printf "%.9g", unpack("d<", $v)' "$TN" "$tmp/t.f64")
        done
        echo "$line"
    done
} > "$tmp/trace.csv"
mv "$tmp/trace.csv" data/lab8-trace.csv
