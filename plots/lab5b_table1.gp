# SPDX-License-Identifier: MIT
# 003's Table 1 layout measured: Gpoints/s of the order-k register-queue kernels against the
# order, one line per volume, with the 8-byte-per-point bound of the copy roof; one panel per
# variant, from `figures.pl table1 GPU VARIANT` (lab 5b's rows of data/$gpufile.csv). The fourth
# panel puts 003's own 2009 figures beside the 16x16 tile measured here, each as % of its own
# bound, over 003's five volumes (`figures.pl table1pct GPU queue_16x16 VOLUMES`).
# Inputs: out, gpu, gpufile (set with -e by make-plots.sh).
table(variant) = "perl plots/figures.pl table1 '".gpufile."' ".variant
rows(cmd) = int(system(cmd." 2>/dev/null | grep -c '^[0-9]'"))
# A data file without lab 5b's order-k runs: no figure, and exit status 3 tells make-plots.sh
# that this is not an error (checked before set output, so no empty PNG is left).
if (rows(table("queue_16x16")) == 0) {
    print sprintf("lab5b_table1.png: no lab 5b queue_16x16 rows in data/%s.csv: not drawn", gpufile)
    exit status 3
}
file16 = "< ".table("queue_16x16")
file32 = "< ".table("queue_32x32")
# queue4_128x16 came later than the other two: data measured before it leaves its panel empty
has4 = rows(table("queue4_128x16")) > 0
file4 = "< ".table("queue4_128x16")
gpuname = system(table("queue_16x16")." | sed -n 's/^# gpu //p'")
commit = system(table("queue_16x16")." | sed -n 's/^# commit //p'")

# 003: Paulius Micikevicius, "3D Finite Difference Computation on GPUs using CUDA", GPGPU-2,
# 2009, Table 1: stencil-only throughput in Mpoints/s, 16x16 threadblocks on 16x16 output
# tiles, one Tesla 10-series GPU (a Tesla S1070 server's, CUDA 2.0). Copied from the paper.
$paper << EOD
volume order6 order8 order10 order12
480x480x400 4455 4269 3435 2885
544x544x400 4389 4214 3347 2816
640x640x400 4168 3932 3331 2802
800x800x400 3807 3717 3236 2752
800x800x800 3780 3656 3247 2302
EOD
# Its bound, in the same terms as ours (bytes per point / bandwidth): the paper gives no copy
# bandwidth, only the Tesla 10-series' theoretical global-memory bandwidth, 102 GB/s (its
# section 2), so 003's figures are % of 102 GB/s / 8 bytes = 12,750 Mpoints/s, a theoretical
# peak; ours are % of the copy bandwidth the program measured. (003 reports the memory
# throughput it reached, reads and writes, as 45 to 55 GB/s.)
paper_gbps = 102.0
paper_bound = 1000 * paper_gbps / 8
# mean, min and max over 003's volumes, per order: order mean min max
set print $paper_pct
do for [c = 2:5] {
    stats $paper using c every ::1 nooutput
    print sprintf("%d %.2f %.2f %.2f", 2 * c + 2, 100 * STATS_mean / paper_bound, 100 * STATS_min / paper_bound, \
        100 * STATS_max / paper_bound)
}
unset print
# our rows of the same five volumes
volumes = ""
do for [i = 2:|$paper|] { volumes = volumes.word($paper[i], 1)." " }
pct16 = "< perl plots/figures.pl table1pct '".gpufile."' queue_16x16 ".volumes

set terminal pngcairo size 1500,1000 font "sans,11" noenhanced
set output out
set multiplot layout 2,2 title sprintf("Lab 5b: order-k star stencils in 003's Table 1 layout, %s, commit %s", gpuname, commit)
set grid
set xlabel "order k"
set xrange [1:13]
set xtics 2
set ylabel "Gpoints/s (output points / median time)"
set yrange [0:450]
set key bottom left
set title "queue_16x16 (003's tile)"
plot for [i=0:5] file16 index i using 1:($2 / 1000) with linespoints pt 4 + 2 * i ps 1.1 lw 1.5 title columnhead(1), \
     file16 index 0 using 1:($3 / 1000) with lines dt 2 lw 2 lc rgb "#c0392b" title "bound: copy GB/s / 8 bytes"
set title "queue_32x32"
plot for [i=0:5] file32 index i using 1:($2 / 1000) with linespoints pt 4 + 2 * i ps 1.1 lw 1.5 title columnhead(1), \
     file32 index 0 using 1:($3 / 1000) with lines dt 2 lw 2 lc rgb "#c0392b" title "bound: copy GB/s / 8 bytes"
if (has4) {
    set title "queue4_128x16"
    plot for [i=0:5] file4 index i using 1:($2 / 1000) with linespoints pt 4 + 2 * i ps 1.1 lw 1.5 title columnhead(1), \
         file4 index 0 using 1:($3 / 1000) with lines dt 2 lw 2 lc rgb "#c0392b" title "bound: copy GB/s / 8 bytes"
} else {
    set multiplot next
}
set title "16x16 tiles, 2009 and now: % of each GPU's own 8-byte bound\n(line: mean over 003's five volumes; bars: their min and max)"
set ylabel "% of the bound (bandwidth / 8 bytes per point)"
set yrange [0:100]
set key bottom left box opaque
set label 1 sprintf("here: %% of the copy GB/s the program measured / 8 bytes\n003: %% of 102 GB/s / 8 bytes = %.0f Mpoints/s, the theoretical global-memory\nbandwidth 003 gives (it gives no measured copy bandwidth): a theoretical peak,\nso 003's %% reads lower than a %% of a measured copy would", paper_bound) \
    at graph 0.03, graph 0.95 left font ",9"
plot pct16 using 1:2:3:4 with yerrorlines pt 7 ps 1.3 lw 2 lc rgb "#1f4e99" title "queue_16x16 on ".gpuname, \
     $paper_pct using 1:2:3:4 with yerrorlines pt 5 ps 1.3 lw 2 lc rgb "#b35806" title "003 on a Tesla 10-series (2009)"
unset multiplot
