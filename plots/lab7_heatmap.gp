# SPDX-License-Identifier: MIT
# Lab 7: the temperature field after many FTCS steps of hot discs (at 1) on a cold plate (at 0)
# whose edges keep their input: data/$gpufile-lab7-heatmap.f32, raw little-endian float32,
# x fastest, a square grid, written by the last line of bench.args (`./sol7 --size 512x512
# --steps 4000 --discs 6 --variant tb --dump ...`). `figures.pl lab7heatmap GPU [FILE]` checks the
# file and gives "FILE N N STEPS COMMIT" (steps and commit from that run's CSV row).
# Inputs: out, gpu, gpufile (set with -e by make-plots.sh); heatfile (optional) draws another
# file of the same layout instead.
cmd = "perl plots/figures.pl lab7heatmap '".gpufile."'".(exists("heatfile") ? " '".heatfile."'" : "")
info = system(cmd." 2>/dev/null")
# No field file (or not a square grid of floats): no figure, and exit status 3 tells
# make-plots.sh that this is not an error (checked before set output, so no empty PNG is left).
if (words(info) < 3) {
    print sprintf("lab7_heatmap.png: no field in %s: not drawn", \
        exists("heatfile") ? heatfile : "data/".gpufile."-lab7-heatmap.f32")
    exit status 3
}
file = word(info, 1); n = int(word(info, 2)); steps = word(info, 4); commit = word(info, 5)
set terminal pngcairo size 820,760 font "sans,11" noenhanced
set output out
set title sprintf("Lab 7: hot discs on a cold plate, %dx%d%s\n%s%s", n, n, \
    steps ne "-" ? ", after ".steps." FTCS steps" : "", gpu, commit ne "-" ? ", commit ".commit : "")
set size ratio -1
set xrange [-0.5:n - 0.5]
set yrange [-0.5:n - 0.5]
set xlabel "x"
set ylabel "y"
set cblabel "u"
set cbrange [0:*]
set palette defined (0 "#000004", 0.25 "#51127c", 0.5 "#b73779", 0.75 "#fc8961", 1 "#fcfdbf")
set tics out
plot file binary array=(n, n) format="%float32" endian=little with image notitle
