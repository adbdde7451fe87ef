# SPDX-License-Identifier: MIT
# Model read redundancy (what each kernel's code asks for) against what reached DRAM
# (Nsight Compute's bytes read / 4 per output point), from `figures.pl measured GPU`, which reads
# data/$gpufile-profile.csv (make profile), grouped by lab. A linear scale, so that 1.0 and
# 1.3 look different, with the values written on their bars; a bar beyond the top (lab 2's
# bad_mapping) is cut, with a gap in it, and its value written. Hatched: a profile older than
# the lab's newest (the kernel may have changed since). The title names the
# profiles' commit(s) and, where git knows them, the labs whose reference kernels changed after
# their profile. Inputs: out, gpu, gpufile (set by make-plots.sh).
cmd = "perl plots/figures.pl measured '".gpufile."'"
# No profile CSV (make profile never ran on this GPU): no figure, and exit
# status 3 tells make-plots.sh that this is not an error (checked before set output).
if (int(system(cmd." 2>/dev/null | grep -c '^[0-9]'")) == 0) {
    print sprintf("redundancy_measured.png: no profile rows in data/%s-profile.csv: not drawn", gpufile)
    exit status 3
}
data = "< ".cmd
gpuname = system(cmd." | sed -n 's/^# gpu //p'")
commit = system(cmd." | sed -n 's/^# commit //p'")
changed = system(cmd." | sed -n 's/^# changed //p' | paste -sd ';' - | sed 's/;/; /g'")
stale = system(cmd." | awk '!/^#/ && $NF == 1 && !s[$(NF-1)]++ { printf \"%s%s\", (n++ ? \", \" : \"\"), $(NF-1) }'")
stats data using 1 nooutput
xmax = STATS_max
top = 10.0
# the labs: first and last x of each, for their names and the separators
groups = system(cmd." | awk '!/^#/ { if (!($2 in f)) { f[$2] = $1; o[++n] = $2 } l[$2] = $1 }" \
    ." END { for (i = 1; i <= n; i++) printf \"%s %s %s \", o[i], f[o[i]], l[o[i]] }'")
set terminal pngcairo size 1500,680 font "sans,11" noenhanced
set output out
# three lines: the commits and the labs changed since do not fit one line of the figure's width
set title sprintf("Elements read per output point: the model against DRAM (Nsight Compute), %s\nprofiled at commit %s%s", \
    gpuname, commit, strlen(changed) > 0 ? "\nreference kernels changed since: ".changed." (re-run make profile)" : "")
set ylabel "elements read per output point (DRAM bytes read / 4)"
set xrange [-1:xmax + 1]
set yrange [0:top]
set ytics 1 nomirror
set grid ytics
set xtics rotate by 50 right nomirror font ",9"
set bmargin 7.5
set key tmargin center horizontal box  # above the plot: the bars and their cut labels keep the plot area
set style fill solid 0.9 border rgb "#333333"
do for [i = 0:words(groups) / 3 - 1] {
    n = word(groups, 3 * i + 1); a = real(word(groups, 3 * i + 2)); b = real(word(groups, 3 * i + 3))
    set label 100 + i sprintf("lab %s", n) at (a + b) / 2, top * 0.955 center font "sans Bold,11" front boxed
    if (i > 0) { set arrow 100 + i from a - 1, 0 to a - 1, top nohead dt 3 lc rgb "#999999" }
}
set style textbox opaque noborder
w = 0.4
# the model's bars outlined, the measured ones filled: readable without the colours
plot data using ($1 - w / 2):($4 > top ? top : $4):(w) with boxes fs empty border rgb "#7b3294" lw 1.5 lc rgb "#7b3294" title "model (the kernel's loads)", \
     '' using ($1 + w / 2):($7 > 0 ? 1/0 : ($5 > top ? top : $5)):(w):xtic(stringcolumn(3)[strstrt(stringcolumn(3), " ") + 1:]) \
        with boxes lc rgb "#1b9e77" title "measured DRAM reads / 4 bytes", \
     '' using ($1 + w / 2):($7 > 0 ? ($5 > top ? top : $5) : 1/0):(w) with boxes fs pattern 4 border rgb "#1b9e77" \
        lc rgb "#1b9e77" title (strlen(stale) > 0 ? "measured, hatched: profiled at an older commit (".stale.") than the lab's newest: stale" : ""), \
     '' using ($1 + w / 2):($5 > top ? top * 0.8 : 1/0):(w / 2 + 0.02):(top * 0.01) with boxxyerror fs solid 1.0 noborder lc rgb "white" notitle, \
     '' using ($1 + w / 2):($5 > top ? 1/0 : $5 + 0.12):(sprintf("%.2f", $5)) with labels rotate by 90 left font ",8" notitle, \
     '' using ($1 - w / 2):($4 > top ? 1/0 : $4 + 0.12):(sprintf("%.2f", $4)) with labels rotate by 90 left font ",8" tc rgb "#7b3294" notitle, \
     '' using ($1 + w / 2):($5 > top ? top * 0.9 : 1/0):(sprintf("%.1f (cut)", $5)) with labels left offset 1, 0 font ",9" notitle, \
     '' using ($1 - w / 2):($4 > top ? top * 0.9 : 1/0):(sprintf("%.1f (cut)", $4)) with labels right offset -1, 0 font ",9" tc rgb "#7b3294" notitle
