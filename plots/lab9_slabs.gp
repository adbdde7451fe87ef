# SPDX-License-Identifier: MIT
# Lab 9: strong scaling against slab thickness. The speed-up of N processes, one GPU each, over
# one process (Gpoint-steps/s of the same variant on the same grid) against the planes each
# process owns, on grids of 512x512 planes: 003's question of how thin a slab can be before
# the exchange no longer hides behind the interior ("about 200 slices" in 2009).
# Data: `figures.pl slabs GPU` (a block per variant). Inputs: out, gpu, gpufile (make-plots.sh).
cmd = "perl plots/figures.pl slabs '".gpufile."'"
# Fewer than three slab thicknesses in the newest lab 9 session (only a multi-GPU machine makes
# them, with make bench's whole series): no curve to draw, exit status 3.
if (int(system(cmd." 2>/dev/null | grep '^[0-9]' | cut -d' ' -f1 | sort -u | wc -l")) < 3) {
    print sprintf("lab9_slabs.png: fewer than 3 slab thicknesses of lab9_multigpu with one GPU per process in data/%s.csv: not drawn", gpufile)
    exit status 3
}
data = "< ".cmd
head = system(cmd." | head -1")  # "# commit C ranks N"
commit = word(head, 3); ranks = int(word(head, 5))
stats data using 2 nooutput
blocks = STATS_blocks
set terminal pngcairo size 1000,620 font "sans,11" noenhanced
set output out
set title sprintf("Lab 9: speed-up of %d processes (one GPU each) over one, against the slab's thickness\n%s, 512x512 planes, commit %s", \
    ranks, gpu, commit)
set xlabel "planes per slab (nz / processes)"
set ylabel sprintf("speed-up: Gpoint-steps/s of %d processes / 1 process", ranks)
set logscale x 2
set yrange [0:ranks * 1.15]
set grid xtics ytics
set key bottom right
# the ideal, and the course's target of 95% of it
set arrow 1 from graph 0, first ranks to graph 1, first ranks nohead dt 3 lw 1.5 lc rgb "#7f8c8d"
set label 1 sprintf("ideal (%d)", ranks) at graph 0.01, first ranks * 1.03 left tc rgb "#7f8c8d"
set arrow 2 from graph 0, first 0.95 * ranks to graph 1, first 0.95 * ranks nohead dt 2 lw 1 lc rgb "#c0392b"
set label 2 "95% of ideal" at graph 0.01, first 0.95 * ranks * 0.97 left tc rgb "#c0392b"
# a point type and a dash pattern per variant as well as a colour: readable in grey or by a
# reader who does not tell the colours apart
plot for [i = 0:blocks - 1] data index i using 1:2 with linespoints pt (4 + 2 * i) dt i % 5 + 1 ps 1.3 lw 2 title columnheader(1)
