#!/usr/bin/env bash
# order 8 queue4: main (4 rows) against the branch (2 rows where no strips), interleaved, two rounds
set -u
out=${OUT:-/tmp}/rows.txt
for round in 1 2; do for n in 512 513 376 480x480x400; do for b in main rows; do
  echo "round $round $b $n: $(./scratch/sol5b_$b --size $n --order 8 --variant queue4_128x16 --reps 20 | grep -E '^queue4' | tr -s ' ')" | tee -a $out
done; done; done
compute-sanitizer --help 2>&1 | grep -i -B1 -A3 "barrier" | tee -a $out
for s in 68x45x31 200x90x70; do
  compute-sanitizer --tool synccheck --error-exitcode 9 ./sol5b --order 8 --size $s --variant queue4_128x16 --reps 1 > /tmp/s.txt 2>&1
  echo "synccheck order 8 $s: exit $? $(grep -E 'ERROR SUMMARY|overflow|queue4' /tmp/s.txt | tr '\n' ' ')" | tee -a $out
done
