#!/bin/bash
# lab 5b at b2f1103 on an H100: build, timings against main's kernel (sol5b_a3), emulated smaller
# GPUs at orders 8 and 12, then 50-gpu and 70-sanitizer of lab 5b
cd "$(dirname "$0")/.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
make -s -j16 COMMIT=b2f1103 sol5b lab5b 2>&1 | grep -E ' error' ; echo "built $SECONDS s"
for sz in 512 513 376; do for k in 8 12; do for b in old new; do
  bin=./sol5b; [ $b = old ] && bin=scratch/sol5b_a3
  $bin --size $sz --order $k --variant queue4_128x16 --reps 20 --csv $OUT/ahead-verify-$b.csv | grep "^queue4" | sed "s/^/$b $k /"
done; done; done; echo "timed $SECONDS s"
for e in 163K 99K 64K 48K; do for k in 8 12; do for s in 260x45x31 130x67x41; do
  o=$(STENCIL_EMULATE=smem=$e ./sol5b --order $k --variant queue4_128x16 --size $s --reps 1 2>&1)
  echo "smem=$e order $k $s: $(grep -c '| PASS' <<<"$o") PASS $(grep -c FAIL <<<"$o") FAIL $(grep -o 'code path[^|]*' <<<"$o" | head -1) $(grep -o '([0-9.]* KB of shared memory a block)' <<<"$o")"
done; done; done; echo "emulated $SECONDS s"
(TEST_LABS=lab5b perl tests/50-gpu.t; TEST_LABS=lab5b perl tests/70-sanitizer.t) > $OUT/ahead-verify-tests.txt 2>&1
echo "tests: $(grep -c '^ok' $OUT/ahead-verify-tests.txt) ok, $(grep -c '^not ok' $OUT/ahead-verify-tests.txt) not ok; $SECONDS s"
grep '^not ok' $OUT/ahead-verify-tests.txt | head
