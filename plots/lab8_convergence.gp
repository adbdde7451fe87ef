# SPDX-License-Identifier: MIT
# Lab 8: error against the continuous standing wave at a fixed time (t = 0.025, C = 0.4, so the
# steps grow as h shrinks), against h; the leapfrog's second order (a slope-2 line through the
# first point) and the float rounding floor, which grows as 1/h: a per-step rounding of about
# 1e-7 becomes about 1e-7 / (w dt) in the slow mode, w = 2 pi sqrt(3), dt = C h. Data: one block
# per variant from `figures.pl convergence GPU lab8_wave` (data/$gpufile-convergence.csv); every
# variant gives the same errors, so the lines lie on each other.
# Inputs: out, gpu, gpufile (set with -e by make-plots.sh).
cmd = "perl plots/figures.pl convergence '".gpufile."' lab8_wave"
# A GPU measured without lab 8's convergence runs has no rows: no figure, and exit status 3
# tells make-plots.sh that this is not an error (checked before set output: no empty PNG).
if (int(system(cmd." 2>/dev/null | grep -c '^[^#]'")) == 0) {
    print sprintf("lab8_convergence.png: no lab8_wave rows in data/%s-convergence.csv: not drawn", gpufile)
    exit status 3
}
data = "< ".cmd
gpuname = system(cmd." | sed -n 's/^# gpu //p'")
commit = system(cmd." | sed -n 's/^# commit //p'")
# the first point of the first block, to anchor the slope-2 line
h0 = real(system(cmd." | awk '$1 ~ /^[0-9]/ { print $2; exit }'"))
e0 = real(system(cmd." | awk '$1 ~ /^[0-9]/ { print $3; exit }'"))
set terminal pngcairo size 950,650 font "sans,11" noenhanced
set output out
set title sprintf("Lab 8: second order (the time step's) until float32 rounding takes over\n%s, commit %s; C = 0.4, t = 0.025", gpuname, commit)
set logscale xy
set format x "1e%L"
set format y "1e%L"
set xlabel "grid spacing h = 1/n (n^3 points on the unit cube)"
set ylabel "max |u - exact| deeper than the boundary's reach"
set grid
set key bottom right box opaque
set xrange [3e-3:4e-2]
set yrange [1e-7:3e-4]
order2(h) = e0 * (h / h0)**2
rounding(h) = 1e-7 / (2 * pi * sqrt(3) * 0.4 * h)
plot for [i=0:*] data index i using 2:3 with linespoints pt 7 + i ps 1.2 - 0.2 * i lw 2 title columnhead(1), \
     order2(x) dt 2 lw 2 lc rgb "black" title "slope 2 (leapfrog in time)", \
     rounding(x) dt 3 lw 2 lc rgb "#c0392b" title "rounding: 1e-7 / (w dt)"
