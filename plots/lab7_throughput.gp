# SPDX-License-Identifier: MIT
# Lab 7: Gpoint-steps/s (output points x steps / time) of every variant at the lab's default
# size, in the ladder's order, against the single-step bound (copy bandwidth / 8 bytes: the
# fastest any kernel that reads and writes every point once per step can go); second panel:
# Gpoint-steps/s against the 2D size for the variants benched at several sizes, with the same
# bound; the 3D rows are quoted in the title. Data: `figures.pl lab7variants GPU`,
# `figures.pl lab7sizes GPU`, `figures.pl lab7_3d GPU` (lab 7's rows of data/$gpufile.csv).
# Inputs: out, gpu, gpufile (set with -e by make-plots.sh).
vcmd = "perl plots/figures.pl lab7variants '".gpufile."'"
scmd = "perl plots/figures.pl lab7sizes '".gpufile."'"
tcmd = "perl plots/figures.pl lab7_3d '".gpufile."'"
# A data file without lab 7's rows: no figure, and exit status 3 tells make-plots.sh that this
# is not an error (checked before set output, so no empty PNG is left).
if (int(system(vcmd." 2>/dev/null | grep -c '^[^#]'")) == 0) {
    print sprintf("lab7_throughput.png: no lab7_heat_multistep rows in data/%s.csv: not drawn", gpufile)
    exit status 3
}
vdata = "< ".vcmd
sdata = "< ".scmd
head = system(vcmd." | head -1")  # "# commit C size S steps T"
commit = word(head, 3); size = word(head, 5); steps = word(head, 7)
has_sizes = int(system(scmd." 2>/dev/null | grep -c '^[^#]'")) > 0
# the 3D rows, one phrase each: "gm 360, tb 536 at 512x512x512 (32 steps)", largest size first
three = system(tcmd." 2>/dev/null | awk '!/^#/ { k = $2 \" (\" $3 \" steps)\"; if (!(k in s)) { o[++n] = k; s[k] = \"\" }" \
    ." s[k] = s[k] (s[k] == \"\" ? \"\" : \", \") $1 \" \" sprintf(\"%.0f\", $4); b[k] = $5 }" \
    ." END { for (i = 1; i <= n; i++) printf \"%s%s at %s, bound %.0f\", (i > 1 ? \"; \" : \"\"), s[o[i]], o[i], b[o[i]] }'")
stats vdata using 3 nooutput
bound = STATS_mean
stats vdata using 2 nooutput
top = STATS_max > bound ? STATS_max : bound
set terminal pngcairo size 1500,620 font "sans,11" noenhanced
set output out
set multiplot layout 1,2 title sprintf("Lab 7: FTCS heat, Gpoint-steps/s on %s, commit %s%s", gpu, commit, \
    strlen(three) > 0 ? "\n3D, Gpoint-steps/s: ".three : "")
set grid ytics
set ylabel "Gpoint-steps/s (output points x steps / time)"
# panel 1: the ladder at the default size
set title sprintf("every variant at %s, %s steps", size, steps)
set yrange [0:top * 1.18]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.75
set xtics rotate by -30 nomirror
set key off
set arrow 1 from graph 0, first bound to graph 1, first bound nohead lw 2 dt 2 lc rgb "#c0392b"
set label 1 sprintf("single-step bound: copy / 8 bytes = %.0f", bound) at graph 0.88, first bound + top * 0.05 right tc rgb "#c0392b"
plot vdata using 2:xtic(1) lc rgb "#1f4e99", \
     '' using 0:($2 + top * 0.025):(sprintf("%.0f", $2)) with labels notitle
unset arrow 1
unset label 1
unset style
set style data linespoints
# panel 2: against the size
if (has_sizes) {
    set title sprintf("against the 2D size (%s steps)", steps)
    set xlabel "grid n x n"
    set logscale x 2
    set xrange [700:24000]
    set xtics ("1024^2" 1024, "2048^2" 2048, "4096^2" 4096, "8192^2" 8192, "16384^2" 16384) norotate
    set key bottom right
    plot for [i=0:*] sdata index i using 1:2 with linespoints pt 4 + 2 * i ps 1.2 lw 2 title columnhead(1), \
         sdata index 0 using 1:3 with lines dt 2 lw 2 lc rgb "#c0392b" title "single-step bound (copy / 8 bytes)"
}
unset multiplot
