#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The research codes the course's targets are measured against, built and run beside our kernels
# on the same GPU; their figures go to data/<GPU>-peers.csv (a row per peer run: the peer, its
# commit, the problem, the figure, its unit, the date, the GPU, and where it was measured:
# COMMIT= names the course's commit beside which it ran). Third-party code is never
# committed: it lives in peers/ (ignored: add "/peers/" to .git/info/exclude), as a copy of the
# peer's own repository at the commit named below.
#   bash common/tools/peers.sh build     build what peers/ holds (a GPU is not needed)
#   bash common/tools/peers.sh run [2d|3d]  run it (or its 2D or 3D problems) on this GPU, append
#                                        the rows (GPU_CSV= overrides)
# EBISU (ICS'23, deep temporal blocking; the lab 7 target): get it with
#   git clone https://github.com/neozhang307/EBISU-ICS23 peers/ebisu && git -C peers/ebisu checkout dd3d844
# Its source refuses __CUDA_ARCH__ 900 and uses an old CUB call: build edits the copy (the CUB
# DeviceInit member left out) and builds compute_80 PTX into sm_90 code, as its authors' own
# H100 runs would have to.
set -euo pipefail
cd "$(dirname "$0")/../.."
ebisu=peers/ebisu
out=peers/build
EBISU_COMMIT=dd3d844
NVFLAGS=(-O3 -std=c++17 -rdc=true -D_TIMER_ -DEBISU -gencode "arch=compute_80,code=sm_90")

build_ebisu() {
    [ -d "$ebisu/2dstencil" ] || { echo "peers.sh: no $ebisu (see the comment at the top of $0)" >&2; return 1; }
    mkdir -p "$out/obj"
    for d in 2dstencil 3dstencil; do  # the old CUB API: leave DeviceInit out, once
        f=$ebisu/$d/common/cub_utils.cuh
        grep -q 'stencil-labs: old CUB API' "$f" ||
            perl -0pi -e 's/(    cudaError_t DeviceInit\(int dev = -1\)\n    \{.*?\n    \}\n)/#if 0 \/\/ stencil-labs: old CUB API\n$1#endif\n/s' "$f"
    done
    local o=$out/obj
    (cd "$ebisu/2dstencil" &&
        nvcc "${NVFLAGS[@]}" -DTRATEMPORAL -I2d5pt -c jacobi-temporal-traditional.cu -o "$OLDPWD/$o/e2d-t.o" &&
        nvcc "${NVFLAGS[@]}" -I2d5pt -c jacobi-2d.cu -o "$OLDPWD/$o/e2d.o" &&
        g++ -O3 -fopenmp -I2d5pt -I"$CUDA_INC" -c jacobi.driver.cpp -o "$OLDPWD/$o/e2d-driver.o" &&
        g++ -O3 -fopenmp -I2d5pt -c 2d5pt/jacobi_gold.cpp -o "$OLDPWD/$o/e2d-gold.o" &&
        g++ -O3 -fopenmp -I2d5pt -c 2d5pt/jacobi_gold_gen.cpp -o "$OLDPWD/$o/e2d-gen.o")
    nvcc -rdc=true -gencode arch=compute_80,code=sm_90 -Xcompiler -fopenmp "$o"/e2d*.o -o "$out/e2d5pt"
    (cd "$ebisu/3dstencil" &&
        nvcc "${NVFLAGS[@]}" -I3d7pt -c j3d-temporal.cu -o "$OLDPWD/$o/e3d-t.o" &&
        nvcc "${NVFLAGS[@]}" -D__PRINT__ -I3d7pt -c j3d.cu -o "$OLDPWD/$o/e3d.o" &&
        g++ -O3 -fopenmp -I3d7pt -I"$CUDA_INC" -c j3d.driver.cpp -o "$OLDPWD/$o/e3d-driver.o" &&
        g++ -O3 -fopenmp -I3d7pt -c 3d7pt/3d7pt_gold.cpp -o "$OLDPWD/$o/e3d-gold.o" &&
        g++ -O3 -fopenmp -I3d7pt -c 3d7pt/3d7pt_gold_gen.cpp -o "$OLDPWD/$o/e3d-gen.o")
    nvcc -rdc=true -gencode arch=compute_80,code=sm_90 -Xcompiler -fopenmp "$o"/e3d*.o -o "$out/e3d7pt"
    echo "peers.sh: built $out/e2d5pt and $out/e3d7pt (EBISU $EBISU_COMMIT)"
}

# One EBISU run: its non-verbose output is one line of tab-separated fields (PTX version, data
# size, the problem and the launch, ...) ending "ms<TAB>GCells/s<TAB>" (cells off the halo, per
# step: Gpoint-steps/s), appended as a row. Line-buffered (stdbuf), so that a crash after the
# timing still shows the line: the row then says how the program ended. A run that prints no
# figure is shown whole.
run_ebisu() {
    local problem=$1; shift
    local output gcells status=0 note=
    output=$(stdbuf -oL "$@" 2>&1) || status=$?
    gcells=$(printf '%s\n' "$output" | grep -P '\t[0-9]+\.[0-9]+\t$' | tail -n 1 |
             awk -F'\t' '{for (i = NF; i > 0; i--) if ($i != "") { print $i; exit }}')
    if ! [[ $gcells =~ ^[0-9]+\.[0-9]+$ ]]; then
        printf 'peers.sh: %s exited %d and printed no figure:\n%s\n' "$*" "$status" "$output" >&2
        return 1
    fi
    [ "$status" -eq 0 ] || note="; it exited with status $status after printing it"
    echo "EBISU,$EBISU_COMMIT,$problem,$gcells,Gpoint-steps/s,$(date -u +%F),$gpu,peers.sh run at ${COMMIT:-?}$note" >> "$csv"
    echo "EBISU $problem: $gcells Gpoint-steps/s$note"
    printf '%s\n' "$output" | tail -n 3 | tr '\t' ' '
}
CUDA_INC=$(dirname "$(dirname "$(command -v nvcc)")")/include
case ${1:-} in
    build) build_ebisu ;;
    run)
        only=${2:-}
        case $only in '' | 2d | 3d) ;; *) echo "peers.sh: run takes 2d or 3d, not '$only'" >&2; exit 2 ;; esac
        gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
        csv=${GPU_CSV:-data/${gpu// /_}-peers.csv}
        [ -f "$csv" ] || echo "peer,peer_commit,problem,figure,unit,date,gpu,source" > "$csv"
        # the problems of lab 7's targets: whole waves of tiles on 132 SMs (EBISU drops to about
        # half where its tile count does not match the SM count)
        rc=0
        if [ "$only" != 3d ]; then
            run_ebisu "2d5pt fp32 7854x7854" "$out/e2d5pt" 7854 7854 --fp32 --warmup --iter=900 --bdim=256 || rc=1
            run_ebisu "2d5pt fp32 15708x15708" "$out/e2d5pt" 15708 15708 --fp32 --warmup --iter=900 --bdim=256 || rc=1
        fi
        if [ "$only" != 2d ]; then
            run_ebisu "3d7pt fp32 512x512x512" "$out/e3d7pt" 512 512 512 --fp32 --warmup --iter=80 || rc=1
            run_ebisu "3d7pt fp32 768x352x2560" "$out/e3d7pt" 768 352 2560 --fp32 --warmup --iter=80 || rc=1
        fi
        exit $rc ;;
    *) echo "usage: peers.sh build | run [2d|3d]" >&2; exit 2 ;;
esac
