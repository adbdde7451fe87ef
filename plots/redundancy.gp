# SPDX-License-Identifier: MIT
# Read redundancy models: 004's T^3/(T-2)^3 for a T^3 tile and lab 4's T^2(Z+2)/((T-2)^2 Z),
# and 003's (nm + kn + km)/(nm) against the order k for 16x16 and 32x32 tiles, with the
# configurations the labs run marked. Models only, no measured data: of the variables
# make-plots.sh sets, only out is used.
set terminal pngcairo size 1200,520 font "sans,11" noenhanced
set output out
set multiplot layout 1,2 title "Read redundancy: global-memory elements read per output point (models)"
set grid
set key top right
set xlabel "tile edge T (input tile; output T-2)"
set ylabel "elements read per output point"
set xrange [3:34]
set yrange [0:10]
set logscale x 2
cube(t) = t**3 / (t - 2)**3
plane(t, z) = t**2 * (z + 2) / ((t - 2)**2 * z)
set label 1 "lab 2 naive: 7" at 3.3, 7.4
plot cube(x) lw 2 title "lab 3: T^3 tile, T^3/(T-2)^3", \
     plane(x, 32) lw 2 dt 2 title "lab 4: T x T planes, Z = 32", \
     7 dt 2 lc rgb "gray" notitle, \
     '-' using 1:(cube($1)) with points pt 7 ps 1.3 lc 1 title "lab 3 variants (T = 4, 6, 8, 10)", \
     '-' using 1:(plane($1, 32)) with points pt 5 ps 1.3 lc 2 title "lab 4 (T = 32)"
4
6
8
10
e
32
e
unset label 1
unset logscale x
set xlabel "order k (radius k/2)"
set xrange [1:13]
set yrange [0:4]
set xtics 2
tile(n, m, k) = (n * m + k * n + k * m) / (n * m)
plot tile(16, 16, x) lw 2 title "16x16 tile: (nm+kn+km)/(nm)", \
     tile(32, 32, x) lw 2 dt 2 title "32x32 tile", \
     '-' using 1:(tile(16, 16, $1)) with points pt 7 ps 1.3 lc 1 title "lab 5b queue_16x16", \
     '-' using 1:(tile(32, 32, $1)) with points pt 5 ps 1.3 lc 2 title "lab 5b queue_32x32"
2
4
6
8
10
12
e
2
4
6
8
10
12
e
unset multiplot
