# SPDX-License-Identifier: MIT
# Lab 8: Gpoint-steps/s of every variant at the lab's default size against the 16-byte bound
# (copy bandwidth / 16 bytes: read u, u_prev and vsq, write the new level); second panel, 003's
# Table 2 layout: the 16x16 and 32x32 tiles over 003's five volumes as % of their bound, here
# (measured copy bandwidth / 16) and in 2009 (003's figures over the Tesla 10-series'
# theoretical 102 GB/s / 16). Data: `figures.pl lab8variants GPU`, `figures.pl table2 GPU`.
# Inputs: out, gpu, gpufile (set with -e by make-plots.sh).
vcmd = "perl plots/figures.pl lab8variants '".gpufile."'"
tcmd = "perl plots/figures.pl table2 '".gpufile."'"
# A data file without lab 8's rows: no figure, and exit status 3 tells make-plots.sh that this
# is not an error (checked before set output, so no empty PNG is left).
if (int(system(vcmd." 2>/dev/null | grep -c '^[^#]'")) == 0) {
    print sprintf("lab8_throughput.png: no lab8_wave rows in data/%s.csv: not drawn", gpufile)
    exit status 3
}
vdata = "< ".vcmd
tdata = "< ".tcmd
head = system(vcmd." | head -1")  # "# commit C size S steps T"
commit = word(head, 3); size = word(head, 5); steps = word(head, 7)
has_table2 = int(system(tcmd." 2>/dev/null | grep -c '^[^#]'")) > 0
stats vdata using 3 nooutput
bound = STATS_mean
stats vdata using 2 nooutput
top = STATS_max > bound ? STATS_max : bound
set terminal pngcairo size 1500,620 font "sans,11" noenhanced
set output out
set multiplot layout 1,2 title sprintf("Lab 8: the acoustic wave, order 8 in space, on %s, commit %s", gpu, commit)
set grid ytics
set style data histograms
set style fill solid 0.85 border -1
set xtics nomirror
# panel 1: every variant at the default size
set title sprintf("every variant at %s, %s steps", size, steps)
set ylabel "Gpoint-steps/s (output points x steps / time)"
set yrange [0:top * 1.18]
set style histogram clustered gap 1
set boxwidth 0.75
set key off
set arrow 1 from graph 0, first bound to graph 1, first bound nohead lw 2 dt 2 lc rgb "#c0392b"
set label 1 sprintf("bound: copy / 16 bytes = %.0f", bound) at graph 0.97, first bound + top * 0.05 right tc rgb "#c0392b"
plot vdata using 2:xtic(1) lc rgb "#1f4e99", \
     '' using 0:($2 + top * 0.025):(sprintf("%.0f (%.0f%%)", $2, 100 * $2 / $3)) with labels notitle
unset arrow 1
unset label 1
# panel 2: 003's Table 2, then and now, as % of each GPU's own bound
if (has_table2) {
    set title "003's Table 2: the two tiles over its volumes, % of the 16-byte bound"
    set ylabel "% of the bound"
    set yrange [0:100]
    set key top left
    set xtics rotate by -20
    # 2009's bars hatched, today's solid, 16x16 darker than 32x32: readable without the colours
    plot tdata using 4:xtic(1) lc rgb "#1f4e99" title "16x16, here", \
         '' using 5 lc rgb "#5dade2" title "32x32, here", \
         '' using 8 fs pattern 4 border -1 lc rgb "#4d5656" title "16x16, 2009 (Tesla 10-series)", \
         '' using 9 fs pattern 5 border -1 lc rgb "#7f8c8d" title "32x32, 2009"
}
unset multiplot
