#!/bin/bash
# Is s2's surplus of L2-to-L1 sectors (diag5.txt) L1's lack of room? main's kernel made to take
# 105000 bytes of shared memory a block (QUEUE4_SMEM: the 228 KB carve-out, as s2), and s2 with
# the halo 2 planes ahead (s2a2: ring of 5, stage of 2, 82 KB a block: the 196 KB carve-out).
# Then the times. One GPU.
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
M=dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__m_xbar2l1tex_read_sectors.sum,smsp__inst_executed_op_ldgsts.sum,gpu__time_duration.sum
prof() {  # label, env, binary, args...
  local label=$1 env=$2 bin=$3; shift 3
  env $env timeout 120 ncu --clock-control none --kernel-name regex:star_queue4 --launch-skip 1 --launch-count 1 --metrics $M --csv \
    scratch/sol5b_$bin --variant queue4_128x16 --reps 2 "$@" 2>&1 | grep '^"0"' |
    awk -F'","' -v l="$label" '{v=$NF; gsub(/[",]/,"",v); printf "%s %s=%s\n", l, $(NF-2), v}'
}
prof "main" X=1 cl --size 512 --order 8
prof "main 105000" QUEUE4_SMEM=105000 cl --size 512 --order 8
prof "s2a2" X=1 s2a2 --size 512 --order 8
for sz in 70x45x37 131x67x60 376x376x50; do
  out=$(timeout 60 scratch/sol5b_s2a2 --order 8 --variant queue4_128x16 --size $sz --reps 1 2>&1); rc=$?
  echo "s2a2 order 8 $sz: $(grep -c PASS <<<"$out") PASS $(grep -c FAIL <<<"$out") FAIL rc=$rc"
done
for round in 1 2; do for sz in 512 376; do
  for c in "cl X=1" "cl QUEUE4_SMEM=105000" "s2 X=1" "s2a2 X=1"; do set -- $c
    env $2 timeout 60 scratch/sol5b_$1 --size $sz --order 8 --variant queue4_128x16 --reps 30 2>&1 | grep '^queue4' | cut -c1-120 | sed "s/^/$1 $2 /"
  done; done; done
echo "done $SECONDS s"
