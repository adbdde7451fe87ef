#!/usr/bin/env bash
# order 12 queue4: AHEAD 5 (native), 4 (163K emulated), 3 (130K emulated), 512^3 and 376^3, two rounds;
# then order 12 correctness and sanitizers under each emulation
set -u
make -j16 COMMIT=$COMMIT all build/tests/unit build/tests/sandbox 2>&1 | grep -E "error" 
for round in 1 2; do
  for emu in none smem=163K smem=130K; do
    for n in 512 376; do
      if [ $emu = none ]; then e=""; else e="STENCIL_EMULATE=$emu"; fi
      echo "round $round emu $emu n $n: $(env $e ./sol5b --order 12 --size $n --variant queue4_128x16 --reps 20 | grep -E '^queue4|emulat' | tr '\n' ' ')"
    done
  done
done
for emu in smem=163K smem=130K smem=99K smem=64K smem=48K; do
  for s in 131x67x45 13x13x13 132x7x29 136x20x30 131x17x553 513x20x40 512x32x64; do
    echo "$emu $s: $(STENCIL_EMULATE=$emu ./sol5b --order 12 --size $s --reps 2 | grep -E '^queue' | awk -F'|' '{print $1 $NF}' | tr '\n' ' ')"
  done
done
for emu in smem=163K smem=130K; do
  for tool in memcheck racecheck synccheck; do
    for s in 131x67x45 136x20x30; do
      STENCIL_EMULATE=$emu compute-sanitizer --tool $tool --error-exitcode 9 ./sol5b --order 12 --size $s --variant queue4_128x16 --reps 1 > /tmp/san.txt 2>&1
      echo "$emu $tool $s: exit $? $(grep -E 'ERROR SUMMARY|queue4' /tmp/san.txt | tr '\n' ' ')"
    done
  done
done
