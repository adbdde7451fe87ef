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
gnuplot -e "out='$out/redundancy.png'" plots/redundancy.gp
perl plots/data.pl table1 "$gpu" queue_16x16 > "$tmp/t16.dat"
perl plots/data.pl table1 "$gpu" queue_32x32 > "$tmp/t32.dat"
perl plots/data.pl table1 "$gpu" queue4_128x16 > "$tmp/t4.dat"
t4=$tmp/t4.dat
[ -s "$t4" ] || t4=
if [ -s "$tmp/t16.dat" ]; then
    gnuplot -e "file16='$tmp/t16.dat'; file32='$tmp/t32.dat'; file4='$t4'; out='$out/lab5_table1.png'; gpu='$label'" plots/table1.gp
fi
if [ -f "data/$gpu-test.log" ] && grep -q '^DRAM traffic per output point' "data/$gpu-test.log"; then
    GPU=$gpu perl plots/data.pl measured > "$tmp/measured.dat"
    gnuplot -e "datafile='$tmp/measured.dat'; out='$out/redundancy_measured.png'; gpu='$label'" plots/measured.gp
fi
ls "$out"/*.png
