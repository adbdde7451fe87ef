# SPDX-License-Identifier: MIT
# make compare CSV=mine.csv [OUT=mine.png] [GPU=...]: a student's own CSV (written by
# `./labN --csv FILE`, any labs) beside the reference data of the same problems (lab, variant,
# size, order, steps, timing) in data/$GPU.csv, as % of each GPU's own copy bandwidth (the
# CSV's pct_copy), one pair of bars per variant: the figure to hand in with a report. A variant
# the reference has no row for gets the student's bar alone, and a row that FAILed is hatched
# and marked. Data: `figures.pl compare CSV GPU`.
# Not one of make plots' figures (those are plots/*.gp, drawn from data/ alone): the student's
# file comes from the environment, so that no path needs quoting:
#   COMPARE_CSV=mine.csv COMPARE_OUT=mine.png [COMPARE_GPU=NVIDIA_H100_80GB_HBM3] gnuplot plots/compare.gnuplot
env(name) = system("printf '%s' \"$".name."\"")
csv = env("COMPARE_CSV")
out = env("COMPARE_OUT")
gpufile = env("COMPARE_GPU")
if (strlen(gpufile) == 0) { gpufile = "NVIDIA_H100_80GB_HBM3" }
if (strlen(csv) == 0 || strlen(out) == 0) {
    print "make compare: give CSV=your.csv (written by ./labN --csv FILE)"
    exit status 2
}
cmd = "perl plots/figures.pl compare \"$COMPARE_CSV\" '".gpufile."'"
# figures.pl says why on stderr (no such file, not a lab CSV, no variant rows) and exits nonzero
if (int(system(cmd." >/dev/null; echo $?")) != 0) { exit status 2 }
data = "< ".cmd
mygpu = system(cmd." | sed -n 's/^# gpu //p'")
mycommit = system(cmd." | sed -n 's/^# commit //p'")
refgpu = system(cmd." | sed -n 's/^# reference gpu //p'")
refcommit = system(cmd." | sed -n 's/^# reference commit //p'")
missing = system(cmd." | sed -n 's/^# missing //p'")
nmissing = int(word(missing, 1))
# the student's rows that did not pass (block 0 ends at the first empty line)
nfail = int(system(cmd." | awk 'NF == 0 { exit } !/^#/ && $NF != \"PASS\" { n++ } END { print n + 0 }'"))
stats data index 0 using 1 nooutput
xmax = STATS_max
nbars = STATS_records
stats data index 0 using 4 nooutput
top1 = STATS_max
top2 = 0
if (strlen(refgpu) > 0) { stats data index 0 using 5 nooutput; top2 = STATS_max }
top = (top1 > top2 ? top1 : top2) > 100 ? 1.3 * (top1 > top2 ? top1 : top2) : 130
set datafile missing "-"
set terminal pngcairo size (nbars * 80 + 360 > 900 ? nbars * 80 + 360 : 900),700 font "sans,11" noenhanced
set output out
csvname = system("basename -- \"$COMPARE_CSV\"")
set title sprintf("%s against the reference solutions: %% of each GPU's own copy bandwidth%s", csvname, \
    nmissing > 0 ? sprintf("\n(%d of your %d rows: no reference row of the same size, order, steps and timing; your bar alone)", \
        nmissing, nbars) : "")
set ylabel "% of copy bandwidth (effective GB/s / the GPU's own copy GB/s)"
set xrange [-1:xmax + 1]
set yrange [0:top]
set grid ytics
set xtics rotate by 40 right nomirror
set key below box
set bmargin 10
set style fill solid 0.9 border rgb "#333333"
w = 0.38
set arrow 1 from graph 0, first 100 to graph 1, first 100 nohead dt 2 lw 2 lc rgb "#c0392b"
# The bars of each kind only where there are some (gnuplot warns about an empty plot): the
# others become an empty function, without a key entry.
npass = nbars - nfail
nref = nbars - nmissing
PASSBARS = npass > 0 ? "data index 0 using ($1 - w / 2):(strcol(6) eq \"PASS\" ? $4 : 1/0):(w) with boxes lc rgb \"#1f4e99\" title sprintf(\"yours: %s, commit %s\", mygpu, mycommit)" : "NaN notitle"
FAILBARS = nfail > 0 ? "data index 0 using ($1 - w / 2):(strcol(6) ne \"PASS\" ? $4 : 1/0):(w) with boxes fs pattern 4 border rgb \"#1f4e99\" lc rgb \"#1f4e99\" title \"yours, hatched: FAILed (a wrong answer: its speed is not a result)\"" : "NaN notitle"
REFBARS = nref > 0 ? "data index 0 using ($1 + w / 2):5:(w) with boxes lc rgb \"#b0b0b0\" title sprintf(\"reference: %s, commit %s\", refgpu, refcommit)" : "NaN notitle"
REFLABELS = nref > 0 ? "data index 0 using ($1 + w / 2):($5 + top * 0.012):(sprintf(\"%.0f%%\", $5)) with labels font \",9\" tc rgb \"#555555\" notitle" : "NaN notitle"
plot data index 0 using 1:(0):xtic(3) with points pt -1 notitle, \
     @PASSBARS, \
     @FAILBARS, \
     @REFBARS, \
     NaN with lines dt 2 lw 2 lc rgb "#c0392b" title "100%: as fast as a device-to-device copy", \
     data index 0 using ($1 - w / 2):($4 + top * 0.012):(strcol(6) eq "PASS" ? sprintf("%.0f%%", $4) : "FAIL") with labels font ",9" notitle, \
     @REFLABELS, \
     data index 1 using (($1 + $2) / 2):(top * 0.965):(sprintf("lab %s", strcol(6))) with labels font "sans Bold,11" notitle, \
     '' index 1 using (($1 + $2) / 2):(top * 0.925):4 with labels font "sans Bold,9" notitle, \
     '' index 1 using (($1 + $2) / 2):(top * 0.89):5 with labels font ",9" notitle
