# SPDX-License-Identifier: MIT
# Lab 1: error of the central difference against the analytic derivative of sin(2 pi x),
# with the two models: truncation (2 pi)^3 h^2 / 6 and float rounding 2^-25 / h. Data: the
# naive kernel's rows of `figures.pl convergence GPU lab1_diff1d` (data/$gpufile-convergence.csv).
# Inputs: out, gpu, gpufile (set with -e by make-plots.sh).
cmd = "perl plots/figures.pl convergence '".gpufile."' lab1_diff1d"
# A GPU measured without the convergence runs has no rows: no figure, and exit status 3 tells
# make-plots.sh that this is not an error (checked before set output, so no empty PNG is left).
if (int(system(cmd." 2>/dev/null | grep -c '^[^#]'")) == 0) {
    print sprintf("lab1_convergence.png: no lab1_diff1d rows in data/%s-convergence.csv: not drawn", gpufile)
    exit status 3
}
data = "< ".cmd
gpuname = system(cmd." | sed -n 's/^# gpu //p'")
commit = system(cmd." | sed -n 's/^# commit //p'")
set terminal pngcairo size 900,600 font "sans,11"
set output out
set title sprintf("Lab 1: second order until float32 rounding takes over\n(%s, commit %s)", gpuname, commit)
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
plot data index 0 using 2:3 with linespoints pt 7 lw 2 title "measured (naive kernel)", \
     [1e-7:0.1] trunc(x) dt 2 lw 2 title "truncation (2{/Symbol p})^3 h^2/6: slope 2", \
     [1e-7:0.1] round(x) dt 3 lw 2 title "rounding of float inputs 2^{-25}/h: slope -1"
