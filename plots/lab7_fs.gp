# SPDX-License-Identifier: MIT
# Lab 7: 002's model of N fused steps in a p x p shared tile, flops per global access
#   f(s) = a s (p-2s)^D / (p^D + (p-2s)^D),  a = 7 flops per point-step, p = 32, D = 2
# (the kernel's own 32x32 tile; s = 1..15, the tile keeps an output up to s = 15), beside the
# measured speed-up of fused_sN over gm (Gpoint-steps/s of fused_sN / gm's at the lab's default
# size) on the second y axis, each with its peak marked. Data: `figures.pl lab7fs GPU`
# (lab 7's rows of data/$gpufile.csv). Inputs: out, gpu, gpufile (set with -e by make-plots.sh).
cmd = "perl plots/figures.pl lab7fs '".gpufile."'"
# A data file without lab 7's fused rows: no figure, and exit status 3 tells make-plots.sh
# that this is not an error (checked before set output, so no empty PNG is left).
if (int(system(cmd." 2>/dev/null | grep -c '^[^#]'")) == 0) {
    print sprintf("lab7_fs.png: no lab7_heat_multistep fused_sN and gm rows in data/%s.csv: not drawn", gpufile)
    exit status 3
}
data = "< ".cmd
head = system(cmd." | head -1")  # "# commit C size S steps T"
commit = word(head, 3); size = word(head, 5); steps = word(head, 7)
a = 7.0; p = 32.0; D = 2
f(s) = a * s * (p - 2*s)**D / (p**D + (p - 2*s)**D)
# the model's peak over whole s, and the measured one
smax = 1
do for [s = 2:15] { if (f(s) > f(smax)) { smax = s } }
stats data using 1:4 nooutput
nmax = int(STATS_pos_max_y); spmax = STATS_max_y
set terminal pngcairo size 1000,620 font "sans,11" noenhanced
set output out
set title sprintf("Lab 7: 002's f(s) for the 32x32 tile, and fused_sN / gm measured\n%s, %s, %s steps, commit %s", \
    gpu, size, steps, commit)
set xlabel "steps per launch s (fused_sN: N = s)"
set ylabel "f(s): useful flops per global access (a = 7, p = 32, D = 2)"
set y2label "measured speed-up: Gpoint-steps/s of fused_sN / gm"
set xrange [0.5:15.5]
set xtics 1
set yrange [0:f(smax) * 1.2]
set y2range [0:(spmax > 1 ? spmax : 1) * 1.6]
set ytics nomirror
set y2tics
set grid xtics ytics
set key top right
# gm itself, on the speed-up axis
set arrow 1 from graph 0, second 1 to graph 1, second 1 nohead dt 3 lw 1.5 lc rgb "#7f8c8d"
set label 1 "gm (= 1)" at graph 0.99, second 1.03 right tc rgb "#7f8c8d"
set label 2 sprintf("model peak: s = %d, f = %.2f", smax, f(smax)) at smax, f(smax) * 1.07 center tc rgb "#1f4e99"
set label 3 sprintf("measured peak: N = %d, %.2fx gm", nmax, spmax) at first nmax + 0.6, second spmax * 0.7 center tc rgb "#c0392b"
plot sample [s = 1:15:1] '+' using (s):(f(s)) with linespoints pt 7 ps 1.1 lw 2 lc rgb "#1f4e99" title "002's model f(s)", \
     data using 1:4 axes x1y2 with linespoints pt 5 ps 1.2 lw 2 lc rgb "#c0392b" title "measured fused_sN / gm", \
     [s = 1:1:1] '+' using (smax):(f(smax)) with points pt 6 ps 3 lw 2 lc rgb "#1f4e99" notitle, \
     data using 1:($1 == nmax ? $4 : 1/0) axes x1y2 with points pt 6 ps 3 lw 2 lc rgb "#c0392b" notitle
