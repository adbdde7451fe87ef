# SPDX-License-Identifier: MIT
# Lab 1: error of the central difference against the analytic derivative of sin(2 pi x),
# with the two models: truncation (2 pi)^3 h^2 / 6 and float rounding 2^-25 / h.
set terminal pngcairo size 900,600 font "sans,11"
set output out
set title sprintf("Lab 1: second order until float32 rounding takes over (%s)", gpu)
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "grid spacing h"
set ylabel "max |f'_{GPU} - 2{/Symbol p} cos(2{/Symbol p}x)| over the interior"
set grid
set key top center
set yrange [1e-7:1]
trunc(h) = (2 * pi)**3 / 6 * h**2
round(h) = 2.0**-25 / h
plot datafile index 0 using 2:3 with linespoints pt 7 lw 2 title "measured (naive kernel)", \
     [1e-7:0.1] trunc(x) dt 2 lw 2 title "truncation (2{/Symbol p})^3 h^2/6: slope 2", \
     [1e-7:0.1] round(x) dt 3 lw 2 title "rounding of float inputs 2^{-25}/h: slope -1"
