# SPDX-License-Identifier: MIT
# Model read redundancy (what each kernel's code asks for) against what reached DRAM
# (Nsight Compute's bytes read / 4 per output point). Inputs: datafile, out, gpu.
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
plot datafile using 2:xtic(1) title "model (the kernel's loads)", '' using 3 title "measured DRAM reads / 4 bytes"
