# SPDX-License-Identifier: MIT
# Model read redundancy (what each kernel's code asks for) against what reached DRAM
# (Nsight Compute's bytes read / 4 per output point), from `data.pl measured GPU`, which reads
# the ncu sections of data/$gpufile-test.log. Inputs: out, gpu, gpufile (set by make-plots.sh).
cmd = "perl plots/data.pl measured '".gpufile."'"
# No test log, or one from before `make profile` printed its DRAM tables: no figure, and exit
# status 3 tells make-plots.sh that this is not an error (checked before set output).
if (int(system(cmd." 2>/dev/null | grep -c '^[^#]'")) == 0) {
    print sprintf("redundancy_measured.png: no ncu DRAM tables in data/%s-test.log: not drawn", gpufile)
    exit status 3
}
data = "< ".cmd
set terminal pngcairo size 1400,580 font "sans,10" noenhanced
set rmargin 8
set output out
set title sprintf("Elements read per output point: the model against DRAM (ncu), %s", gpu)
set ylabel "elements read per output point"
set logscale y
set yrange [0.5:40]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set xtics rotate by -45 nomirror font ",9"
set grid ytics
set key top left
plot data using 2:xtic(1) title "model (the kernel's loads)", '' using 3 title "measured DRAM reads / 4 bytes"
