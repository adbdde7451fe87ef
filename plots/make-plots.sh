#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make plots: the figures under plots/ (or $PLOTDIR) from data/ and the models.
# GPU picks the data file (data/$GPU.csv); the course ships NVIDIA_H100_80GB_HBM3.
set -euo pipefail
out=${PLOTDIR:-plots}
gpu=${GPU:-NVIDIA_H100_80GB_HBM3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"
[ -f "data/$gpu.csv" ] || { echo "make plots: no data/$gpu.csv (run make bench on a GPU, or set GPU=)" >&2; exit 2; }
label=${gpu//_/ }
perl plots/data.pl bandwidth "$gpu" > "$tmp/bandwidth.dat"
gnuplot -e "datafile='$tmp/bandwidth.dat'; out='$out/bandwidth.png'; gpu='$label'" plots/bandwidth.gp
if [ -f "data/$gpu-convergence.csv" ]; then
    perl plots/data.pl convergence "$gpu" lab1_diff1d > "$tmp/lab1.dat"
    gnuplot -e "datafile='$tmp/lab1.dat'; out='$out/lab1_convergence.png'; gpu='$label'" plots/convergence.gp
    perl plots/data.pl convergence "$gpu" lab6_pencils > "$tmp/lab6.dat"
    if [ -s "$tmp/lab6.dat" ]; then
        gnuplot -e "datafile='$tmp/lab6.dat'; out='$out/lab6_convergence.png'; gpu='$label'" plots/convergence8.gp
    fi
fi
ls "$out"/*.png
