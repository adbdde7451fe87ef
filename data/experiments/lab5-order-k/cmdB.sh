# Lab 5's 50-gpu and sanitizers, then queue4 at 512^3 and 513^3 into the alignment CSV. Usage: OUT=dir bash cmdB.sh COMMIT
set -u
COMMIT=$1 timeout 300 bash tests/gpu-session.sh test-5 > $OUT/session.txt 2>&1
base=data/NVIDIA_H100_80GB_HBM3
for n in 512 513; do for k in 2 8 12; do ./sol5 --size $n --order $k --variant queue4_128x16 --reps 20 --csv $base-alignment.csv | grep queue4; done; done
cp $base-test.log $base-alignment.csv $OUT/
grep -E "^not ok|exit status" $OUT/session.txt
