#!/bin/bash
# The ring placed so that every cp.async keeps its 16 bytes' place in a 32-byte sector (branch
# lab5-align, quad.cuh's ring_base: al) against main (cl: lab5-cluster's build, no switch set);
# the stage at order 8 with two rows (s2, s2a2 of diag6.sh) with the same placement (s2al,
# s2a2al). Where main's placement crossed sectors: order 10 (XQ = 2 with 48 bytes of barriers),
# the stage of diag5-7. One GPU.
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for o in 2 8 10 12; do for sz in 70x45x37 131x67x60 376x376x50 513x513x40; do
  out=$(timeout 60 scratch/sol5b_al --order $o --variant queue4_128x16 --size $sz --reps 1 2>&1); rc=$?
  echo "al order $o $sz: $(grep -c PASS <<<"$out") PASS $(grep -c FAIL <<<"$out") FAIL rc=$rc"
done; done
for b in s2al s2a2al; do for sz in 70x45x37 131x67x60 376x376x50; do
  out=$(timeout 60 scratch/sol5b_$b --order 8 --variant queue4_128x16 --size $sz --reps 1 2>&1); rc=$?
  echo "$b order 8 $sz: $(grep -c PASS <<<"$out") PASS $(grep -c FAIL <<<"$out") FAIL rc=$rc"
done; done
echo "correctness $SECONDS s"
for round in 1 2; do
  for o in 10 8 12 2 6; do for b in cl al; do
    timeout 60 scratch/sol5b_$b --size 512 --order $o --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | cut -c1-100 | sed "s/^/$b o$o /"
  done; done
  for o in 10 8 12; do for b in cl al; do
    timeout 60 scratch/sol5b_$b --size 376 --order $o --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | cut -c1-100 | sed "s/^/$b o$o /"
  done; done
  for sz in 512 376; do for b in s2al s2a2al; do
    timeout 60 scratch/sol5b_$b --size $sz --order 8 --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | cut -c1-100 | sed "s/^/$b o8 /"
  done; done
  echo "round $round $SECONDS s"
done
for run in "cl 10" "al 10" "s2al 8" "s2a2al 8"; do set -- $run
  timeout 120 scratch/sol5b_$1 --profile --size 512 --order $2 --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/$1 o$2 512 /"
done
echo "done $SECONDS s"
