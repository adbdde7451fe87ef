#!/usr/bin/env bash
# Where the register path (wave_queue4<3, false>, sm_90) consumes each stream it loads one plane
# ahead: the plane loop's global loads (LDG.E.128) and the register moves that read their
# destinations in the next pass. Needs nvdisasm (CUDA's, or pip's nvidia-cuda-nvdisasm: give its
# path as $1). Run from the repository's root; no GPU needed.
set -eu
nvdisasm=${1:-nvdisasm}
tmp=$(mktemp -d)
nvcc -std=c++20 -O3 -Icommon/harness -Icommon/stencils -Icommon/device -arch=sm_90 -cubin \
    solutions/lab8_wave/kernels.cu -o "$tmp/k.cubin"
"$nvdisasm" -c "$tmp/k.cubin" |
    awk '/^\.text\._Z11wave_queue4ILi3ELb0EEv9wave_stepi:/ { f = 1 } f && /^\/\/-+ \.text\./ { f = 0 } f' > "$tmp/k.sass"
echo "# $(nvcc --version | tail -n 1); git $(git rev-parse --short=12 HEAD)"
# the loop's first pass starts at the label before the moves (printed with the address after it);
# print every move that reads R12-R23 (the three streams' float4s) and the loads into them
awk '/LDG\.E\.128 R(12|16|20),/ && seen { print } /^\.L_x_[0-9]+:/ { lbl = $0; want = 1; next }
     want { first = $0; want = 0 } /MOV.*R(1[2-9]|2[0-3]) ;/ { seen = 1; print lbl; print first; print }' "$tmp/k.sass" |
    awk '!s[$0]++' | sed 's/^ *//' | tee "$tmp/out"
# and the branch back to that label: the end of a pass
label=$(sed -n 's/^\(\.L_x_[0-9]*\):$/\1/p' "$tmp/out" | head -n 1)
grep -F "BRA \`($label)" "$tmp/k.sass" | sed 's/^ *//'
rm -rf "$tmp"
