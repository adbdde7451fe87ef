# SPDX-License-Identifier: MIT
# Each reference variant's effective bandwidth (minimal bytes / median time) at its lab's
# default problem, grouped by lab (a colour per lab; the labs solve different problems, named
# above each group), against that lab's copy roof: the device-to-device cudaMemcpy bandwidth its
# program measured at start-up. Bars above the plot (lab 7's tb, which keeps data on chip across
# steps) are cut, with a gap in the bar, and their value written beside them. Data: `figures.pl bandwidth GPU`
# (data/$gpufile.csv). Inputs: out, gpu, gpufile (set with -e by make-plots.sh).
cmd = "perl plots/figures.pl bandwidth '".gpufile."'"
if (int(system(cmd." 2>/dev/null | grep -c '^[0-9]'")) == 0) {
    print sprintf("bandwidth.png: no passing rows in data/%s.csv: not drawn", gpufile)
    exit status 3
}
data = "< ".cmd
gpuname = system(cmd." | sed -n 's/^# gpu //p'")
commit = system(cmd." | sed -n 's/^# commit //p'")
# one colour per lab (lab number -> 0xRRGGBB); labcolor takes a lab style (figures.pl)
labhue(n) = n == 1 ? 0x4e79a7 : n == 2 ? 0xf28e2b : n == 3 ? 0x59a14f : n == 4 ? 0xb07aa1 : \
              n == 5 ? 0xd4a72c : n == 6 ? 0x499894 : n == 7 ? 0x9c755f : 0xd37295
labcolor(s) = labhue(int(s) % 10)  # both parts of a lab (5a, 5b: 5 and 15) share its colour
stats data index 1 using 4 nooutput
roof = STATS_max
stats data index 0 using 1 nooutput
xmax = STATS_max
top = roof * 1.5
set terminal pngcairo size 1500,720 font "sans,11" noenhanced
set output out
set title sprintf("Effective bandwidth of every reference variant at its lab's default problem\n%s, commit %s", \
    gpuname, commit)
set ylabel "effective bandwidth (GB/s) = minimal bytes / median time"
set xrange [-1:xmax + 1]
set yrange [0:top]
set ytics 500 nomirror
set grid ytics
set xtics rotate by 50 right nomirror font ",10"
set bmargin 7
set style fill solid 0.9 border rgb "#333333"
set key tmargin center horizontal box  # above the plot, clear of the bars and their notes
# the groups' names and problems, above them
plot data index 0 using 1:($4 > top ? top : $4):(0.8):(labcolor($2)):xtic(3) with boxes lc rgb variable notitle, \
     '' index 0 using 1:($4 > top ? top * 0.95 : 1/0):(0.5):(top * 0.008) with boxxyerror fs solid 1.0 noborder lc rgb "white" notitle, \
     '' index 0 using 1:($4 > top ? 1/0 : $4 + top * 0.012):(sprintf("%.0f%%", $6)) with labels font ",9" notitle, \
     '' index 0 using ($1 - 0.6):($4 > top ? top * 0.82 : 1/0):(sprintf("%.0f GB/s = %.0f%% of copy (cut):\ndata kept on chip across steps", $4, $6)) \
        with labels right font ",10" notitle, \
     '' index 1 using ($1 - 0.5):4:($2 - $1 + 1):(0) with vectors nohead dt 2 lw 2.5 lc rgb "#c0392b" \
        title "copy roof: the device-to-device cudaMemcpy GB/s each lab's program measured", \
     '' index 1 using (($1 + $2) / 2):(top * 0.965):(sprintf("lab %s", strcol(7))):(labcolor($3)) with labels tc rgb variable font "sans Bold,11" notitle, \
     '' index 1 using (($1 + $2) / 2):(top * 0.928):5:(labcolor($3)) with labels tc rgb variable font "sans Bold,9" notitle, \
     '' index 1 using (($1 + $2) / 2):(top * 0.893):6 with labels font ",9" notitle
