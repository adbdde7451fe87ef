#!/bin/bash
# Order 12 on the sm_80 code path (compute_80 PTX, JIT) has beaten the native sm_90 build on the
# H100 in every session that ran both: 327.9 / 323.1 (be59f1a), 329.3 / 320.1 (b13caa9), 330.1 /
# 316.9 (23072f2), 328.6 / 319.4 Gpoints/s (f6794ae). The one thing async.cuh compiles differently
# for sm_90 is the ring's wait: mbarrier.try_wait (the thread may be suspended) instead of polling
# with test_wait. Branch lab5-wait (88fa75e) makes it selectable: base (try_wait), poll (test_wait
# on sm_90 too), h32 and h256 (try_wait with a suspend time hint of 32 or 256 ns).
#   bash wait.sh build    here, without a GPU: scratch/sol5b_{base,poll,h32,h256}, scratch/sol8_{base,poll}
#   bash wait.sh run      on the GPU (carry scratch): both labs, two rounds, then memcheck/racecheck of poll
cd "$(dirname "$0")/../../.."
if [ "$1" = build ]; then
  git worktree remove --force /tmp/wait-tree 2>/dev/null; git worktree prune; rm -rf /tmp/wait-tree
  git worktree add -q --detach /tmp/wait-tree 88fa75e || exit 1
  mkdir -p scratch
  for v in base: poll:-DMBAR_WAIT_POLL h32:-DMBAR_WAIT_HINT=32 h256:-DMBAR_WAIT_HINT=256; do
    n=${v%%:*} f=${v#*:}
    make -s -C /tmp/wait-tree ARCH=sm_90 COMMIT=88fa75e program LAB=lab5b_register_queue \
      KERNELS=solutions/lab5b_register_queue/kernels.cu OUT=$PWD/scratch/sol5b_$n "NVFLAGS_lab5b_register_queue=$f" || exit 1
    case $n in base|poll) make -s -C /tmp/wait-tree ARCH=sm_90 COMMIT=88fa75e program LAB=lab8_wave \
      KERNELS=solutions/lab8_wave/kernels.cu OUT=$PWD/scratch/sol8_$n "NVFLAGS_lab8_wave=$f" || exit 1 ;; esac
  done
  rm -f scratch/*.d; git worktree remove --force /tmp/wait-tree; ls -la scratch; exit 0
fi
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for round in 1 2; do
  for cfg in "12 512" "12 376" "8 512" "8 376" "2 512"; do set -- $cfg; for b in base poll h32 h256; do
    timeout 60 scratch/sol5b_$b --size $2 --order $1 --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | sed "s/^/$b o$1 /"
  done; done
  for sz in 512 768; do for b in base poll; do
    timeout 90 scratch/sol8_$b --size $sz --variant queue4_128x16 --reps 10 2>&1 | grep '^queue4' | sed "s/^/$b wave /"
  done; done
  echo "round $round $SECONDS s"
done
for tool in memcheck racecheck; do
  out=$(timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 scratch/sol5b_poll --order 12 --variant queue4_128x16 --size 131x67x60 --reps 1 2>&1)
  echo "$tool poll order 12 rc=$? $(tail -1 <<<"$out")"
done
echo "done $SECONDS s"
