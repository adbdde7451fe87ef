#!/bin/bash
# The stage at order 8 with two rows a thread (s2: lab5-h8's h32.diff built with -DQUEUE4_O8_PICK
# -DQUEUE4_O8_STAGED=true -DQUEUE4_O8_AHEAD=3) read 10.72 L2 bytes a point against main's 6.74
# (s2.txt). Which requests: LDG against LDGSTS sectors and requests, local memory, hits. One GPU.
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
M=dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum
M=$M,l1tex__m_xbar2l1tex_read_sectors.sum,smsp__inst_executed_op_ldgsts.sum,gpu__time_duration.sum
prof() {  # label, binary, args...
  local label=$1 bin=$2; shift 2
  timeout 120 ncu --clock-control none --kernel-name regex:star_queue4 --launch-skip 1 --launch-count 1 --metrics $M --csv \
    scratch/sol5b_$bin --variant queue4_128x16 --reps 2 "$@" 2>&1 | grep '^"0"' |
    awk -F'","' -v l="$label" '{v=$NF; gsub(/[",]/,"",v); printf "%s %s=%s\n", l, $(NF-2), v}'
}
prof "o8 main" cl --size 512 --order 8
prof "o8 s2" s2 --size 512 --order 8
prof "o12 main" cl --size 512 --order 12
echo "done $SECONDS s"
