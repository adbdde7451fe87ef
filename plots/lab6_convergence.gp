# SPDX-License-Identifier: MIT
# Lab 6: error of the 8th-order derivatives against the analytic ones on the periodic unit cube
# (n^3 grids, h = 1/n), with the slope-8 truncation model of the x derivative of sin(8 pi x):
# (8 pi)^9 h^8 / 630; past it, the float rounding floor grows as 1/h. Data: one block per
# variant from `figures.pl convergence GPU lab6_pencils` (data/$gpufile-convergence.csv).
# Inputs: out, gpu, gpufile (set with -e by make-plots.sh).
cmd = "perl plots/figures.pl convergence '".gpufile."' lab6_pencils"
# A GPU measured without lab 6's convergence runs has no rows: no figure, and exit status 3
# tells make-plots.sh that this is not an error (checked before set output: no empty PNG).
if (int(system(cmd." 2>/dev/null | grep -c '^[^#]'")) == 0) {
    print sprintf("lab6_convergence.png: no lab6_pencils rows in data/%s-convergence.csv: not drawn", gpufile)
    exit status 3
}
data = "< ".cmd
gpuname = system(cmd." | sed -n 's/^# gpu //p'")
commit = system(cmd." | sed -n 's/^# commit //p'")
set terminal pngcairo size 950,650 font "sans,11" noenhanced
set output out
# Do the two tiles of each direction give the same errors at every n? (They run the same sums in
# the same order, so they should: then their lines coincide, and the title says so.)
same = system(cmd." | awk '/^#/ || NF < 4 { next } $1 !~ /^[0-9]/ { v = $1; next }" \
    ." { split(v, p, \"_\"); e[p[1] \" \" $1, p[2]] = $3; k[p[1] \" \" $1] = 1 }" \
    ." END { n = 0; for (i in k) { n++; if (e[i, \"spencils\"] != e[i, \"lpencils\"]) { print \"no\"; exit } } print (n ? \"yes\" : \"no\") }'")
set title sprintf("Lab 6: eighth order until float32 rounding takes over (%s, commit %s)\n%s", gpuname, commit, \
    same eq "yes" ? "sPencils and lPencils of a direction run the same sums in the same order: their errors are\n" \
                    ."identical at every n, so each lPencils line (dashed, open symbols) lies on its sPencils line" \
                  : "sPencils: solid lines, filled symbols; lPencils: dashed lines, open symbols")
set logscale xy
set format x "1e%L"
set format y "1e%L"
set xlabel "grid spacing h = 1/n (n^3 points on the periodic unit cube)"
set ylabel "max |derivative - analytic| over the grid"
set grid
set key bottom right box opaque
set xrange [2e-3:0.2]
set yrange [1e-6:1e3]
trunc(h) = (8 * pi)**9 * h**8 / 630
# blocks: x_spencils, x_lpencils, y_spencils, ... (as figures.pl prints them); a colour and a
# symbol per direction (circle x, square y, triangle z: readable without the colours),
# sPencils solid with filled symbols, lPencils dashed with larger open ones
dircolor(i) = i / 2 == 0 ? "#1f4e99" : i / 2 == 1 ? "#d95f02" : "#1b9e77"
dirfilled(i) = i / 2 == 0 ? 7 : i / 2 == 1 ? 5 : 9
plot for [i=0:4:2] data index i using 2:3 with linespoints pt dirfilled(i) ps 0.8 lw 2 lc rgb dircolor(i) title columnhead(1), \
     for [i=1:5:2] data index i using 2:3 with linespoints pt dirfilled(i) - 1 ps 2.0 lw 1.5 dt 2 lc rgb dircolor(i) title columnhead(1), \
     [1.0/300:0.12] trunc(x) dt 3 lw 2 lc rgb "black" title "x: (8 pi)^9 h^8/630, slope 8"
