#!/bin/bash
# lab 7 3D: branch kernel (py3, store flags kept) against py3s (flags computed at the last step: no spill)
cd "$(dirname "$0")/.."
for v in py3s; do for args in "--size 70x45x37" "--size 130x67x41" "--size 513x129x77" "--size 9x9x9" "--size 200x3x100"; do
  o=$(scratch/sol7x --variant $v $args --steps 7 --reps 1 2>&1); echo "$v $args: $(grep -c '| PASS' <<<"$o") PASS $(grep -c FAIL <<<"$o") FAIL"
done; done
for round in 1 2; do for sz in 512x512x512 768x352x2560 256x256x256; do for v in py3 py3s; do
  scratch/sol7x --variant $v --size $sz --steps 32 --reps 5 --csv $OUT/py3s.csv | grep "^$v "
done; done; done
echo "end $SECONDS s"
