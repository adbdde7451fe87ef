#!/bin/bash
# Order 8 with the ring placed by ring_base (lab5-h8 + lab5-align): the stage with the halo 2
# planes ahead (s2a2al) and, to tell the stage from the smaller ring, the same ring of 5 without
# the stage (u2al), against main (cl), at more sizes (513^3: the strips' instantiation, 4 rows a
# thread, staged too). One GPU.
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for b in u2al s2a2al; do for sz in 70x45x37 131x67x60 513x513x40 260x36x300; do
  out=$(timeout 60 scratch/sol5b_$b --order 8 --variant queue4_128x16 --size $sz --reps 1 2>&1); rc=$?
  echo "$b order 8 $sz: $(grep -c PASS <<<"$out") PASS $(grep -c FAIL <<<"$out") FAIL rc=$rc"
done; done
echo "correctness $SECONDS s"
for round in 1 2; do for sz in 512 376 480x480x400 800x800x400 513; do for b in cl s2a2al u2al; do
  timeout 60 scratch/sol5b_$b --size $sz --order 8 --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | cut -c1-100 | sed "s/^/$b o8 /"
done; done; echo "round $round $SECONDS s"; done
for b in u2al; do timeout 120 scratch/sol5b_$b --profile --size 512 --order 8 --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/$b o8 512 /"; done
out=$(timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 scratch/sol5b_s2a2al --order 8 --variant queue4_128x16 --size 131x67x60 --reps 1 2>&1); echo "racecheck s2a2al rc=$? $(tail -1 <<<"$out")"
out=$(timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 scratch/sol5b_s2a2al --order 8 --variant queue4_128x16 --size 131x67x60 --reps 1 2>&1); echo "memcheck s2a2al rc=$? $(tail -1 <<<"$out")"
echo "done $SECONDS s"
