#!/bin/bash
# Where order 8's DRAM reads above 4 bytes a point come from (512^3, --profile): a plain float4
# copy of 512^3 floats (scratch/copyk.cu: grid-stride 132x8 blocks, then one quad a thread), and
# the kernel without its halo rows above and below (NOY) or without its quads left and right
# (NOX): wrong results, bytes only. Then the L2 read misses beside the DRAM reads. One GPU.
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_write.sum
timeout 120 ncu --clock-control none --metrics $M --csv scratch/copyk 2>&1 | grep -v "^==PROF==" | cut -c1-220
for o in 2 8; do for b in cl NOY NOX; do
  timeout 120 scratch/sol5b_$b --profile --size 512 --order $o --variant queue4_128x16 2>&1 | grep "^queue4" | sed "s/^/$b $o 512 /"
done; done
for o in 2 8 12; do
  timeout 120 ncu --clock-control none --kernel-name regex:star_queue4 --launch-skip 1 --launch-count 1 --metrics $M --csv scratch/sol5b_cl --size 512 --order $o --variant queue4_128x16 --reps 2 2>&1 | grep -v "^==PROF==" | grep -v "^queue4\|^variant\|^lab" | cut -c1-260 | sed "s/^/order $o: /"
done
echo "done $SECONDS s"
