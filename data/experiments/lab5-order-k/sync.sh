#!/usr/bin/env bash
# synccheck with --num-cuda-barriers 16 on the cases marked synccheck-todo, and order 8's 68x45x31
set -u
out=${OUT:-/tmp}/sync.txt
one() { local b=$1; shift
  timeout 120 compute-sanitizer --tool synccheck --num-cuda-barriers 16 --error-exitcode 99 ./$b "$@" --reps 1 > /tmp/s.txt 2>&1
  echo "$b $*: exit $? $(grep -E 'ERROR SUMMARY|overflow|FAIL' /tmp/s.txt | tr '\n' ' ')" | tee -a $out
}
one sol5b --size 68x45x31 --order 8
one sol5b --order 12 --size 131x17x553
one sol5b --size 40x70x30 --order 12
one sol8 --size 133x36x20 --steps 3 --model 1
one sol8 --size 72x40x30 --steps 3
one sol8 --size 37x20x50 --steps 2 --model 1 --sponge 4 --variant queue4_128x16
one sol9 --size 40x30x26 --steps 3
