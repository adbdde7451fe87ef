# SPDX-License-Identifier: MIT
# Each variant's effective bandwidth (minimal bytes / median time) against the copy roof
# measured on the same GPU in the same runs, from `data.pl bandwidth` (data/$gpufile.csv).
# Inputs: out, gpu, gpufile (set with -e by make-plots.sh).
set terminal pngcairo size 1100,600 font "sans,11" noenhanced
set output out
data = "< perl plots/data.pl bandwidth '".gpufile."'"
stats data using 3 nooutput
roof = STATS_mean
set title sprintf("Effective bandwidth of each reference solution on %s", gpu)
set ylabel "effective bandwidth (GB/s)\nminimal bytes / median time"
set yrange [0:roof * 1.22]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.75
set xtics rotate by -25 nomirror
set grid ytics
set key off
set arrow 1 from graph 0, first roof to graph 1, first roof nohead lw 2 dt 2 lc rgb "#c0392b"
set label 1 sprintf("copy roof: device-to-device cudaMemcpy, %.0f GB/s", roof) \
    at graph 0.99, first roof * 1.11 right tc rgb "#c0392b"
plot data using 2:xtic(1) title "measured", \
     '' using 0:($2 + roof * 0.02):(sprintf("%.0f%%", $4)) with labels notitle
