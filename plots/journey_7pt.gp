# SPDX-License-Identifier: MIT
# The 7-point journey: labs 2-5 solve the same problem (lab 2's default, 512^3, order 2, one
# step), so their variants can be read along one axis: Gpoints/s of each variant in lab order,
# against the bound copy GB/s / 8 bytes per point (one float read and one written per point,
# at the copy bandwidth each lab's program measured), drawn as a line over each lab's bars.
# Data: `figures.pl journey GPU` (data/$gpufile.csv). Inputs: out, gpu, gpufile (set with -e by
# make-plots.sh).
cmd = "perl plots/figures.pl journey '".gpufile."'"
if (int(system(cmd." 2>/dev/null | grep -c '^[0-9]'")) == 0) {
    print sprintf("journey_7pt.png: no lab 2-5 rows of the 7-point problem in data/%s.csv: not drawn", gpufile)
    exit status 3
}
data = "< ".cmd
gpuname = system(cmd." | sed -n 's/^# gpu //p'")
commit = system(cmd." | sed -n 's/^# commit //p'")
problem = system(cmd." | sed -n 's/^# problem //p'")
# one colour per lab, as in bandwidth.png
labhue(n) = n == 1 ? 0x4e79a7 : n == 2 ? 0xf28e2b : n == 3 ? 0x59a14f : n == 4 ? 0xb07aa1 : \
              n == 5 ? 0xd4a72c : n == 6 ? 0x499894 : n == 7 ? 0x9c755f : 0xd37295
labcolor(s) = labhue(int(s) % 10)  # both parts of a lab (5a, 5b: 5 and 15) share its colour
stats data index 1 using 4 nooutput
bound = STATS_max
boundlo = STATS_min
stats data index 0 using 1 nooutput
xmax = STATS_max
top = bound * 1.32
set terminal pngcairo size 1200,680 font "sans,11" noenhanced
set output out
set title sprintf("The 7-point stencil (order 2) from lab 2 to lab 5, all on one problem: %s, one step\n%s, commit %s", problem, gpuname, commit)
set ylabel "Gpoints/s (output points / median time)"
set xrange [-1:xmax + 1]
set yrange [0:top]
set ytics 50 nomirror
set grid ytics
set xtics rotate by 40 right nomirror
set bmargin 6.5
set style fill solid 0.9 border rgb "#333333"
set key at graph 0.02, graph 0.66 left box opaque
plot data index 0 using 1:4:(0.8):(labcolor($2)):xtic(3) with boxes lc rgb variable notitle, \
     '' index 0 using 1:($4 + top * 0.012):(sprintf("%.0f", $4)) with labels font ",9" notitle, \
     '' index 1 using ($1 - 0.5):4:($2 - $1 + 1):(0) with vectors nohead lw 2.5 lc rgb "#c0392b" \
        title (sprintf("%.0f", boundlo) eq sprintf("%.0f", bound) ? \
            sprintf("bound: copy GB/s / 8 bytes per point = %.0f Gpoints/s", bound) : \
            sprintf("bound: each lab's copy GB/s / 8 bytes per point, %.0f-%.0f Gpoints/s", boundlo, bound)), \
     '' index 1 using (($1 + $2) / 2):(top * 0.96):(sprintf("lab %s", strcol(6))):(labcolor($3)) with labels tc rgb variable font "sans Bold,11" notitle, \
     '' index 1 using (($1 + $2) / 2):(top * 0.92):5:(labcolor($3)) with labels tc rgb variable font "sans Bold,10" notitle
