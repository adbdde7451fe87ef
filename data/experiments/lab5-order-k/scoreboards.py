#!/usr/bin/env python3
# The scoreboards of the plane loop of main's order 8 kernel (star_queue4<4, false, false, 3>,
# sm_90): for each instruction that sets or waits on one, its write and read scoreboard and its
# wait mask, decoded from the second 64-bit word of its encoding (bits 46-48 write scoreboard,
# 49-51 read scoreboard, 52-57 wait mask; 7 = none). Needs nvdisasm (not in this machine's CUDA;
# PyPI's nvidia-cuda-nvdisasm wheel has it) and the cubin:
#   nvcc -std=c++20 -O3 -lineinfo -Icommon/harness -Icommon/stencils -Icommon/device \
#        -Ilabs/lab5b_register_queue -arch=sm_90 -cubin -o k90.cubin solutions/lab5b_register_queue/kernels.cu
#   python3 scoreboards.py NVDISASM k90.cubin
import re, subprocess, sys

nvdisasm, cubin = sys.argv[1], sys.argv[2]
text = subprocess.run([nvdisasm, "-hex", "-c", cubin], capture_output=True, text=True, check=True).stdout
name = "_Z11star_queue4ILi4ELb0ELb0ELi3EEvPKfPfiiiiiib"
text = text[text.index(f".text.{name}:"):]
text = text[: text.index("//----", 1)] if "//----" in text[1:] else text
lines, ins = text.splitlines(), []
for i, line in enumerate(lines):
    m = re.match(r"\s*/\*([0-9a-f]{4})\*/\s+(.*?)\s*;\s*/\* 0x[0-9a-f]{16} \*/", line)
    if m:
        hi = int(re.search(r"/\* (0x[0-9a-f]{16}) \*/", lines[i + 1]).group(1), 16)
        ins.append((int(m.group(1), 16), m.group(2), (hi >> 46) & 7, (hi >> 49) & 7, (hi >> 52) & 0x3F))
# the plane loop: from the target of the last backward branch before the last EXIT to that branch
exits = [k for k, x in enumerate(ins) if x[1].strip().endswith("EXIT")]
back = max(k for k, x in enumerate(ins[: exits[-1]]) if "BRA" in x[1])
labels = {m.group(1): int(m.group(2), 16) for m in re.finditer(r"\.(L_x_\d+):\s*\n\s*/\*([0-9a-f]{4})\*/", text)}
target = labels[re.search(r"(L_x_\d+)", ins[back][1]).group(1)]
print(f"{name}: loop {target:04x}-{ins[back][0]:04x}")
for a, t, wb, rb, wm in ins:
    if target <= a <= ins[back][0] and (wb != 7 or rb != 7 or wm):
        w = ",".join(str(b) for b in range(6) if wm >> b & 1)
        print(f"  {a:04x}  {t[:58]:58s} write {wb if wb != 7 else '-'}  read {rb if rb != 7 else '-'}  waits {w or '-'}")
