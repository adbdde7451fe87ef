# SPDX-License-Identifier: MIT
# A roofline of every reference variant at its lab's default problem (lab 5b: every order at
# 512^3; lab 7: its 2D and its 3D problem): Gflop/s (flop per point x Gpoints/s) against the
# arithmetic intensity, flop per point over the minimal bytes per point (8 for one array in and
# one out, per step in lab 7; lab 8's 16). The flop counts are the kernels' own, as each lab's
# definition counts them (flops_per_point; the programs' --list says them, so the programs must be
# built: make all): 7-point 8, order-k star 1 + 3.5k, lab 1's difference 2, lab 6's derivative
# 11, lab 7's heat step 7 (2D) and 9 (3D), lab 8's wave 33.
# The roofs: memory, the copy bandwidth the programs measured x intensity; compute, the fp32
# peak without tensor cores from NVIDIA's H100 SXM datasheet (67 TFLOP/s), drawn only for that
# GPU. A point above the memory roof moved fewer bytes than the minimal traffic (lab 7's tb
# keeps its data on chip across steps). Data: `figures.pl roofline GPU` (data/$gpufile.csv), the
# latest session of each lab. Inputs: out, gpu, gpufile (set with -e by make-plots.sh).
cmd = "perl plots/figures.pl roofline '".gpufile."'"
if (int(system(cmd." 2>/dev/null | grep -c '^[a-z]'")) == 0) {
    print sprintf("roofline.png: no passing rows in data/%s.csv, or no lab program built to count their flops (make all): not drawn", gpufile)
    exit status 3
}
data = "< ".cmd
gpuname = system(cmd." | sed -n 's/^# gpu //p'")
commit = system(cmd." | sed -n 's/^# commit //p'")
labs = system(cmd." | sed -n 's/^# labs //p'")
# one colour and one symbol per lab, as in bandwidth.png
labhue(n) = n == 1 ? 0x4e79a7 : n == 2 ? 0xf28e2b : n == 3 ? 0x59a14f : n == 4 ? 0xb07aa1 : \
              n == 5 ? 0xd4a72c : n == 6 ? 0x499894 : n == 7 ? 0x9c755f : 0xd37295
labcolor(s) = labhue(int(s) % 10)  # both parts of a lab (5a, 5b: 5 and 15) share its colour
labpt(n) = n == 1 ? 6 : n == 2 ? 4 : n == 3 ? 8 : n == 4 ? 10 : n == 5 ? 12 : n == 15 ? 13 : n == 6 ? 14 : n == 7 ? 2 : 3  # 5a open, 5b filled
# the memory roof: the copy bandwidth the programs measured (the mean over the rows; they agree
# within 1%)
stats data using 8 nooutput
copy = STATS_mean
# the compute roof: NVIDIA's H100 SXM5 datasheet, FP32 67 TFLOPS (CUDA cores, no tensor cores)
h100 = strstrt(gpuname, "H100 80GB HBM3") > 0 || strstrt(gpuname, "H100 SXM") > 0
peak = h100 ? 67000.0 : 1/0
ridge = peak / copy
set terminal pngcairo size 1250,800 font "sans,11" noenhanced
set output out
set title sprintf("Roofline: every reference variant at its lab's default problem, %s\ncommit %s\n%s", gpuname, commit, \
    h100 ? "compute roof: 67 TFLOP/s fp32 without tensor cores, the H100 SXM datasheet figure (not measured)" \
         : "no compute roof: the fp32 peak of this GPU is not in the script")
set logscale xy
set xrange [0.1:100]
set yrange [20:150000]
set format y "%.0f"
set xtics ("0.1" 0.1, "0.25" 0.25, "0.5" 0.5, "1" 1, "2" 2, "5" 5, "10" 10, "20" 20, "50" 50, "100" 100)
set ytics ("20" 20, "50" 50, "100" 100, "200" 200, "500" 500, "1000" 1000, "2000" 2000, "5000" 5000, \
    "10^4" 10000, "2x10^4" 20000, "5x10^4" 50000, "10^5" 100000)
set grid xtics ytics
set xlabel "arithmetic intensity (flop/byte) = flop per point / minimal bytes per point"
set ylabel "Gflop/s = flop per point x Gpoints/s"
set key bottom right box opaque spacing 1.15
set label 1 sprintf("memory roof: copy %.0f GB/s x intensity", copy) at 0.12, copy * 0.12 * 1.35 left rotate by 25 tc rgb "#c0392b"
if (h100) {
    set label 2 sprintf("compute roof: fp32 peak %.0f Gflop/s (datasheet)", peak) at 90, peak * 1.22 right tc rgb "#1f4e99"
    set arrow 1 from ridge, 20 to ridge, peak nohead dt 3 lc rgb "#1f4e99"
    set label 3 sprintf("ridge: %.0f flop/byte", ridge) at ridge * 1.06, 30 left tc rgb "#1f4e99"
}
# the highest point above the memory roof, explained
above = system(cmd." | awk '!/^[#\"]/ && NF >= 10 && $9 > 105 && $7 > m { m = $7; x = $6 } END { if (m) print x, m }'")
if (words(above) == 2) {
    set label 5 "above the memory roof:\nfewer bytes than the minimal\ntraffic, data kept on chip\nacross steps" \
        at real(word(above, 1)) / 1.6, real(word(above, 2)) * 1.25 right font ",9" tc rgb "#555555"
}
# lab 5b's orders along the top, over its points
set label 4 "lab 5b, order k:" at 0.93, 120000 right font ",9" tc rgb "#8a6d0b"
set samples 1000
plot [0.1:100] (!h100 || x < ridge ? copy * x : 1/0) with lines lw 2.5 lc rgb "#c0392b" notitle, \
     [0.1:100] (h100 && x >= ridge * 0.999 ? peak : 1/0) with lines lw 2.5 lc rgb "#1f4e99" notitle, \
     for [i=1:words(labs)] data index (i - 1) using 6:7 with points pt labpt(int(word(labs, i))) ps 1.7 lw 2 \
        lc rgb sprintf("#%06x", labcolor(int(word(labs, i)))) title columnhead(1), \
     data using 6:($2 > 0 ? 120000 : 1/0):(sprintf("%d", $2)) with labels font ",9" tc rgb "#8a6d0b" notitle, \
     data using 6:7:(strcol(10) ne "-" && $6 >= 0.95 ? strcol(10) : "") with labels left offset 1.3, 0 font ",9" notitle, \
     data using 6:7:(strcol(10) ne "-" && $6 < 0.95 ? strcol(10) : "") with labels right offset -1.3, 0 font ",9" notitle
