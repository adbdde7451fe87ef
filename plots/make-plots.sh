#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make plots: every figure under plots/ (or $PLOTDIR) from data/ and the models.
# Each plots/NAME.gp draws one figure, NAME.png, and reads its own data through gnuplot's pipe
# data source ('< perl plots/figures.pl ...'), so a lab's figure is added by adding its script:
# nothing here names a figure (plots/compare.gnuplot is `make compare`'s, drawn from a student's
# CSV, not one of these). Every script is called with the same variables:
#   out      the PNG to write
#   gpu      the GPU's name for titles (NVIDIA H100 80GB HBM3)
#   gpufile  the data files' name: data/$gpufile.csv, -convergence.csv, -profile.csv
# One figure by hand, from the repository root (figures.pl's paths are relative to it):
#   gnuplot -e "out='x.png'; gpu='NVIDIA H100 80GB HBM3'; gpufile='NVIDIA_H100_80GB_HBM3'" plots/NAME.gp
# A script whose data this GPU does not have (no convergence runs, no ncu log) says so on
# stderr and exits with status 3: that figure is not drawn, which is not an error.
# GPU picks the data file (data/$GPU.csv); the course ships NVIDIA_H100_80GB_HBM3.
set -euo pipefail
out=${PLOTDIR:-plots}
gpu=${GPU:-NVIDIA_H100_80GB_HBM3}
[ -f "data/$gpu.csv" ] || { echo "make plots: no data/$gpu.csv (run make bench on a GPU, or set GPU=)" >&2; exit 2; }
mkdir -p "$out"
label=${gpu//_/ }
# the tracked figures' gnuplot: another version draws other bytes (tests/40-plots.t compares them)
if [ "$out" = plots ]; then gnuplot --version > plots/gnuplot.version; fi
for gp in plots/*.gp; do
    name=$(basename "$gp" .gp)
    rc=0
    gnuplot -e "out='$out/$name.png'; gpu='$label'; gpufile='$gpu'" "$gp" || rc=$?
    case $rc in
        0) echo "$out/$name.png" ;;
        3) ;;  # no data for it on this GPU; the script said which
        *) echo "make plots: $gp failed (exit $rc)" >&2; exit "$rc" ;;
    esac
done
