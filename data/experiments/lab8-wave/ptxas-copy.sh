#!/usr/bin/env bash
# Registers and spills of lab 8's wave_queue4 with the copies (ptxas -v; no GPU needed): the three
# instantiations (<2, true>: the copies; <3, false> and <1, false>: the register path) as
# committed, for sm_75 to sm_120, then for sm_80 and sm_90 with two rows a thread (BY = 8,
# question 5). Run it from the repository's root on a clean checkout of the header.
set -eu
ptx() {  # $1: arch; prints one line per instantiation of wave_queue4
    nvcc -std=c++20 -O3 -Icommon/harness -Icommon/stencils -Icommon/device -arch="$1" -Xptxas -v \
        -c solutions/lab8_wave/kernels.cu -o /dev/null 2>&1 |
        awk -v a="$1" '/Compiling entry function .*wave_queue4/ { k = $0; sub(/.*_Z11/, "", k); sub(/v9wave_stepi.*/, "", k) }
                       k && /spill stores/ { sp = $5 } k && /Used [0-9]+ registers/ { print a, k, $5, "registers,", sp, "bytes spill stores"; k = "" }'
}
rev=$(git rev-parse --short=12 HEAD)
echo "# $(nvcc --version | tail -n 1)"
for a in sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120; do ptx $a | sed "s/^/$rev /"; done
sed -i 's/BY = 16, PY/BY = 8, PY/' common/device/wave_queue4.cuh
for a in sm_80 sm_90; do ptx $a | sed "s/^/BY=8 /"; done
git checkout -- common/device/wave_queue4.cuh
