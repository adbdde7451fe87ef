#!/bin/bash
# lab 5b queue4: the same kernel launched in thread-block clusters (QUEUE4_CLUSTER=cx,cy,cz,
# branch lab5-cluster: cudaLaunchKernelEx with a cluster dimension; the kernel unchanged). A
# cluster's blocks start together in one GPC, so neighbouring tiles read their shared halo rows
# at about the same time. Does order 8's DRAM read (4.32 B/pt at 512^3) fall? One GPU.
cd "$(dirname "$0")/../../.."
B=scratch/sol5b_cl
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for cl in 2,1,1 1,2,1 2,2,1 4,2,1; do for o in 8 12; do for args in "--size 256x256x100" "--size 384x48x70" "--size 512x64x40"; do
  out=$(QUEUE4_CLUSTER=$cl timeout 60 $B --order $o --variant queue4_128x16 $args --reps 1 2>&1); rc=$?
  echo "$cl order $o $args: $(grep -c PASS <<<"$out") PASS $(grep -c FAIL <<<"$out") FAIL rc=$rc $(grep cluster <<<"$out")"
done; done; done
echo "correctness $SECONDS s"
for round in 1 2; do for sz in 512 376; do for o in 8 12; do
  for cl in none 2,1,1 4,1,1 3,1,1 1,2,1 1,4,1 2,2,1 4,2,1 1,8,1; do
    out=$(QUEUE4_CLUSTER=$cl timeout 60 $B --size $sz --order $o --variant queue4_128x16 --reps 30 2>&1)
    echo "$cl $o $sz $(grep '^queue4' <<<"$out" | cut -c1-110) | $(grep -o '[0-9]* clusters at once\|plain launch' <<<"$out")"
  done; done; done; echo "round $round $SECONDS s"; done
for o in 8 12; do for cl in none 2,1,1 4,1,1 1,2,1 1,4,1 2,2,1 4,2,1; do
  QUEUE4_CLUSTER=$cl timeout 120 $B --profile --size 512 --order $o --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/$cl $o 512 /"
done; done
echo "done $SECONDS s"
