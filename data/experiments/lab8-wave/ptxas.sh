#!/usr/bin/env bash
# Registers and spills of lab 8's wave_queue4 (ptxas -v; no GPU needed): 90abd9d for sm_75, 80,
# 86, 89, 90, 100 and 120, then for sm_90 90abd9d with py1.diff reversed (two rows a thread,
# BY = 8), with up2.diff and with q2.diff. Run it in a worktree of 90abd9d (the diffs' base; later
# commits changed the header's comments) with this script and the three diffs copied into
# data/experiments/lab8-wave/ there.
set -eu
ptx() {  # $1: arch; prints one line per instantiation of wave_queue4
    nvcc -std=c++20 -O3 -Icommon/harness -Icommon/stencils -Icommon/device -arch="$1" -Xptxas -v \
        -c solutions/lab8_wave/kernels.cu -o /dev/null 2>&1 |
        awk -v a="$1" '/Compiling entry function .*wave_queue4/ { k = $0; sub(/.*_Z11/, "", k); sub(/v9wave_stepi.*/, "", k) }
                       k && /spill stores/ { sp = $5 } k && /Used [0-9]+ registers/ { print a, k, $5, "registers,", sp, "bytes spill stores"; k = "" }'
}
echo "# $(nvcc --version | tail -n 1)"
for a in sm_75 sm_80 sm_86 sm_89 sm_90 sm_100 sm_120; do ptx $a | sed "s/^/90abd9d /"; done
for d in py1 up2 q2; do
    if [ $d = py1 ]; then git apply -R data/experiments/lab8-wave/py1.diff; else git apply data/experiments/lab8-wave/$d.diff; fi
    ptx sm_90 | sed "s/^/$d /"
    git checkout -- common/device/wave_queue4.cuh
done
