# SPDX-License-Identifier: MIT
# 003's Table 1 layout measured: Mpoints/s of the order-k register-queue kernels against the
# order, one line per volume, with the 8-byte-per-point bound of the copy roof.
# Inputs: file16, file32, file4 (empty: no such rows yet), out, gpu.
set terminal pngcairo size 1650,520 font "sans,11" noenhanced
set output out
set multiplot layout 1,3 title sprintf("Lab 5: order-k star stencils, Mpoints/s (%s)", gpu)
set grid
set xlabel "order k"
set ylabel "Mpoints/s"
set xrange [1:13]
set xtics 2
set yrange [0:420000]
set key bottom left
set title "queue_16x16"
plot for [i=0:5] file16 index i using 1:2 with linespoints pt 7 lw 1.5 title columnhead(1), \
     file16 index 0 using 1:3 with lines dt 2 lw 2 lc rgb "#c0392b" title "bound: copy roof / 8 bytes"
set title "queue_32x32"
plot for [i=0:5] file32 index i using 1:2 with linespoints pt 7 lw 1.5 title columnhead(1), \
     file32 index 0 using 1:3 with lines dt 2 lw 2 lc rgb "#c0392b" title "bound: copy roof / 8 bytes"
if (strlen(file4) > 0) {
    set title "queue4_128x16"
    plot for [i=0:5] file4 index i using 1:2 with linespoints pt 7 lw 1.5 title columnhead(1), \
         file4 index 0 using 1:3 with lines dt 2 lw 2 lc rgb "#c0392b" title "bound: copy roof / 8 bytes"
}
unset multiplot
