# SPDX-License-Identifier: MIT
# Lab 6: error of the 8th-order derivatives against the analytic ones on the periodic unit cube
# (n^3 grids, h = 1/n), with the slope-8 truncation model of the x derivative of sin(8 pi x):
# (8 pi)^9 h^8 / 630; past it, the float rounding floor grows as 1/h.
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
plot for [i=0:5] datafile index i using 2:3 with linespoints pt 7 ps 0.8 lw 1.5 \
         title columnhead(1), \
     [1.0/300:0.12] trunc(x) dt 2 lw 2 lc rgb "black" title "x: (8 pi)^9 h^8/630, slope 8"
