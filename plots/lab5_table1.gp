# SPDX-License-Identifier: MIT
# 003's Table 1 layout measured: Mpoints/s of the order-k register-queue kernels against the
# order, one line per volume, with the 8-byte-per-point bound of the copy roof; one panel per
# variant, from `data.pl table1 GPU VARIANT` (lab 5's rows of data/$gpufile.csv).
# Inputs: out, gpu, gpufile (set with -e by make-plots.sh).
table(variant) = "perl plots/data.pl table1 '".gpufile."' ".variant
rows(cmd) = int(system(cmd." 2>/dev/null | grep -c '^[^#]'"))
# A data file without lab 5's order-k runs: no figure, and exit status 3 tells make-plots.sh
# that this is not an error (checked before set output, so no empty PNG is left).
if (rows(table("queue_16x16")) == 0) {
    print sprintf("lab5_table1.png: no lab 5 queue_16x16 rows in data/%s.csv: not drawn", gpufile)
    exit status 3
}
file16 = "< ".table("queue_16x16")
file32 = "< ".table("queue_32x32")
# queue4_128x16 came later than the other two: data measured before it leaves its panel empty
has4 = rows(table("queue4_128x16")) > 0
file4 = "< ".table("queue4_128x16")
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
if (has4) {
    set title "queue4_128x16"
    plot for [i=0:5] file4 index i using 1:2 with linespoints pt 7 lw 1.5 title columnhead(1), \
         file4 index 0 using 1:3 with lines dt 2 lw 2 lc rgb "#c0392b" title "bound: copy roof / 8 bytes"
}
unset multiplot
