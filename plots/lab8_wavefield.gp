# SPDX-License-Identifier: MIT
# Lab 8: the plane y = N/2 through the source of the --model 1 run (a slow layer over a fast one,
# a Ricker point source), at three times: data/lab8-wavefield.f32 (three N x N float32 planes, x
# fastest, then z) and its description data/lab8-wavefield.txt ("N C AMP STEP1 STEP2 STEP3 COMMIT"),
# both written by plots/lab8-wavefield.sh from the CPU reference (no GPU).
# Inputs: out (set with -e by make-plots.sh).
meta = system("cat data/lab8-wavefield.txt 2>/dev/null")
if (words(meta) < 7 || system("test -s data/lab8-wavefield.f32 && echo y") ne "y") {
    print "lab8_wavefield.png: no data/lab8-wavefield.f32 (run bash plots/lab8-wavefield.sh): not drawn"
    exit status 3
}
n = int(word(meta, 1)); c = word(meta, 2); amp = real(word(meta, 3)); commit = word(meta, 7)
file = "data/lab8-wavefield.f32"
set terminal pngcairo size 1560,620 font "sans,11" noenhanced
set output out
set multiplot layout 1,3 margins 0.05, 0.93, 0.1, 0.85 spacing 0.02 title sprintf("Lab 8: the wave from a Ricker source in a slow layer (v/2) over a fast one (v), %d^3, C = %s\nthe plane through the source; CPU reference (double), commit %s; dashed: the interface", n, c, commit)
set size ratio -1
set xrange [-0.5:n - 0.5]
set yrange [n - 0.5:-0.5]
set xlabel "x (points)"
set cbrange [-1000 * amp:1000 * amp]
set cblabel "u (x 1e-3)"
set palette defined (-1 "#2166ac", -0.3 "#92c5de", 0 "#f7f7f7", 0.3 "#f4a582", 1 "#b2182b")
set tics out
set arrow 1 from -0.5, 0.55 * n to n - 0.5, 0.55 * n nohead dt 2 lc rgb "#333333" front
set ylabel "z (depth, points)"
do for [k = 0:2] {
    # one colour scale for the three: drawn beside the last plane only
    if (k < 2) { unset colorbox } else { set colorbox }
    if (k > 0) { unset ylabel; set format y "" }
    set title sprintf("after %s steps", word(meta, 4 + k))
    plot file binary array=(n, n) skip=(k * n * n * 4) format="%float32" endian=little using ($1 * 1000) with image notitle
}
unset multiplot
