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
# the loop's first pass starts at the label before the moves; print its loads and the moves of their registers
awk '/LDG\.E\.128/ && seen { print } /^\.L_x_[0-9]+:/ { lbl = $0 } /MOV.*R(12|13|16|17|20|21) ;/ { seen = 1; print lbl; print }' "$tmp/k.sass" |
    awk '!s[$0]++' | sed 's/^ *//' | tee "$tmp/out"
# and the branch back to that label: the end of a pass
label=$(sed -n 's/^\(\.L_x_[0-9]*\):$/\1/p' "$tmp/out" | head -n 1)
grep -F "BRA \`($label)" "$tmp/k.sass" | sed 's/^ *//'
rm -rf "$tmp"
