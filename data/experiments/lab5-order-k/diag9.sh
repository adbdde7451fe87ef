#!/bin/bash
# ldgsts.cu (built as scratch/ldgsts: nvcc -arch=sm_90 -O3): a block copies 16 rows of 512 bytes a
# plane into shared memory by cp.async, seven ways (see MODE there; 5 and 6 new); L1's sectors asked against
# L2's sent. 512^3 floats: 16,777,216 sectors if each is read once. One GPU.
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum
timeout 120 ncu --clock-control none --launch-skip 7 --launch-count 7 --metrics $M --csv scratch/ldgsts 2>&1 | grep '^"[0-9]' |
  awk -F'","' '{v=$NF; gsub(/[",]/,"",v); split($5,a,"("); printf "%s %s=%s\n", a[1], $(NF-2), v}'
echo "done $SECONDS s"
