# SPDX-License-Identifier: MIT
# Lab 8: the field at a receiver 20 points from the source (same depth) against the step, with
# reflecting faces and with a 12-point sponge: data/lab8-trace.csv ("step,u,u_sponge12"; its first
# line says the run), written by plots/lab8-wavefield.sh from the CPU reference (no GPU).
# Inputs: out (set with -e by make-plots.sh).
file = "data/lab8-trace.csv"
if (system("test -s ".file." && echo y") ne "y") {
    print "lab8_trace.png: no data/lab8-trace.csv (run bash plots/lab8-wavefield.sh): not drawn"
    exit status 3
}
about = system("head -n 1 ".file." | sed 's/^# //'")
set terminal pngcairo size 1000,520 font "sans,11" noenhanced
set output out
set title sprintf("Lab 8: a receiver's trace (%s)\nCPU reference (double); direct wave, then reflections", about)
set datafile separator ","
set xlabel "time step"
set ylabel "u at the receiver"
set key top left box opaque
set grid
plot file skip 2 using 1:2 with lines lw 2 lc rgb "#b2182b" title "faces reflect (--sponge 0)", \
     file skip 2 using 1:3 with lines lw 2 dt 2 lc rgb "#2166ac" title "absorbing sponge (--sponge 12)"
