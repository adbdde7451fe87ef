# SPDX-License-Identifier: MIT
# Lab 6: error of the 8th-order derivatives against the analytic ones on the periodic unit cube
# (n^3 grids, h = 1/n), with the slope-8 truncation model of the x derivative of sin(8 pi x):
# (8 pi)^9 h^8 / 630; past it, the float rounding floor grows as 1/h. Data: one block per
# variant from `data.pl convergence GPU lab6_pencils` (data/$gpufile-convergence.csv).
# Inputs: out, gpu, gpufile (set with -e by make-plots.sh).
cmd = "perl plots/data.pl convergence '".gpufile."' lab6_pencils"
# A GPU measured without lab 6's convergence runs has no rows: no figure, and exit status 3
# tells make-plots.sh that this is not an error (checked before set output: no empty PNG).
if (int(system(cmd." 2>/dev/null | grep -c '^[^#]'")) == 0) {
    print sprintf("lab6_convergence.png: no lab6_pencils rows in data/%s-convergence.csv: not drawn", gpufile)
    exit status 3
}
data = "< ".cmd
set terminal pngcairo size 900,600 font "sans,11" noenhanced
set output out
set title sprintf("Lab 6: eighth order until float32 rounding takes over (%s)", gpu)
set logscale xy
set format x "1e%L"
set format y "1e%L"
set xlabel "grid spacing h = 1/n"
set ylabel "max |derivative - analytic| over the grid"
set grid
set key bottom right
set xrange [2e-3:0.2]
set yrange [1e-6:1e3]
trunc(h) = (8 * pi)**9 * h**8 / 630
plot for [i=0:5] data index i using 2:3 with linespoints pt 7 ps 0.8 lw 1.5 \
         title columnhead(1), \
     [1.0/300:0.12] trunc(x) dt 2 lw 2 lc rgb "black" title "x: (8 pi)^9 h^8/630, slope 8"
