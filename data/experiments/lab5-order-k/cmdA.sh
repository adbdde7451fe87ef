# A/B of lab 5 queue4 at 512^3 and 513^3: the tree against old-kernels.cu, which was
# `git show e044eb3:solutions/lab5_register_tiling/kernels.cu > data/experiments/lab5-order-k/old-kernels.cu`
# (the kernels before the strips), and lab 5's 50-gpu and sanitizers. Usage: OUT=dir bash cmdA.sh COMMIT
set -u
C=$1
rm -rf /tmp/old && mkdir -p /tmp/old && cp -r Makefile common labs solutions /tmp/old/ && cp data/experiments/lab5-order-k/old-kernels.cu /tmp/old/solutions/lab5_register_tiling/kernels.cu
(cd /tmp/old && make -j16 COMMIT=old sol5 >/dev/null 2>&1) || echo "old build failed"
COMMIT=$C timeout 330 bash tests/gpu-session.sh test-5 > $OUT/session.txt 2>&1
base=data/NVIDIA_H100_80GB_HBM3
for n in 513 512; do for k in 2 8 12; do for b in /tmp/old/sol5 ./sol5; do
  $b --size $n --order $k --variant queue4_128x16 --reps 20 --csv $OUT/ab.csv | grep -E "queue4" ; done; done; done
./sol5 --size 513 --variant regcol4_z4 --variant regcol_z8 --reps 20 --csv $OUT/ab.csv | grep -E "regcol"
tail -3 $OUT/session.txt
