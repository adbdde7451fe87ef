#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The GPU suite in parts that each fit in one device call of 10 minutes (CI has no GPU). Each
# part appends to data/<GPU>-test.log, naming the commit; with OUT set (the device tool) the log
# and the CSV files are copied there. Build first (make all build/tests/unit), then e.g.
#   bash tests/gpu-verify.sh lab8            make bench, 50-gpu, 70-sanitizer, --profile for lab 8
#   bash tests/gpu-verify.sh lab7            lab 7's --profile (2D, 3D), 50-gpu, 70-sanitizer
#   bash tests/gpu-verify.sh gpu-1-3 gpu-4-6 tests/50-gpu.t for labs 1-3, 4-6
#   bash tests/gpu-verify.sh check           make check on the skeletons and the solutions (60-check)
#   bash tests/gpu-verify.sh cheats-1-4 cheats-5-7   the GPU cheats of labs 1-4, 5-7 (60-check)
#   bash tests/gpu-verify.sh timing          lab 6 at 64^3 per launch and back to back
set -uo pipefail
export NCCL_NVLS_ENABLE=0
commit=${COMMIT:-$(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
base=data/${gpu// /_}
log=$base-test.log
cheats() { local f out=(); for f in tests/cheats/gpu-*.patch; do grep -qE "^# lab: lab[$1]_" "$f" && out+=("$f"); done; local IFS=,; echo "${out[*]}"; }
for part in "$@"; do
    {
        echo "stencil-labs GPU verification ($part): commit $commit, $(date -u '+%Y-%m-%d %H:%M UTC')"
        nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.mem --format=csv,noheader
        case $part in
        lab8)
            perl common/bench.pl lab8_wave; echo "bench exit status: $?"
            ./sol8 --profile --size 256 --steps 2; echo "profile exit status: $?"
            ./sol8 --convergence --csv "$base-convergence.csv"; echo "convergence exit status: $?"
            TEST_LABS=lab8 perl tests/50-gpu.t; echo "50-gpu exit status: $?"
            TEST_LABS=lab8 perl tests/70-sanitizer.t; echo "70-sanitizer exit status: $?" ;;
        lab7)
            ./sol7 --profile --variant gm --variant shm --variant fused_s4 --variant tb --steps 8; echo "profile exit status: $?"
            ./sol7 --profile --variant gm --variant tb --size 512x512x512 --steps 6; echo "profile exit status: $?"
            TEST_LABS=lab7 perl tests/50-gpu.t; echo "50-gpu exit status: $?"
            TEST_LABS=lab7 perl tests/70-sanitizer.t; echo "70-sanitizer exit status: $?" ;;
        gpu-1-3|gpu-4-6)
            TEST_LABS=$(if [ "$part" = gpu-1-3 ]; then echo lab1,lab2,lab3; else echo lab4,lab5,lab6; fi) \
                perl tests/50-gpu.t; echo "50-gpu exit status: $?" ;;
        check)
            CHECK_PARTS=skeletons,solutions perl tests/60-check.t; echo "60-check exit status: $?" ;;
        cheats-1-4|cheats-5-7)
            CHECK_PARTS=cheats CHECK_CHEATS=$(cheats "$(if [ "$part" = cheats-1-4 ]; then echo 1-4; else echo 5-7; fi)") \
                perl tests/60-check.t; echo "60-check exit status: $?" ;;
        timing)
            for t in launch b2b; do ./sol6 --size 64 --reps 200 --timing $t --csv "$base.csv"; echo "sol6 --timing $t exit status: $?"; done ;;
        *) echo "gpu-verify: unknown part $part" ;;
        esac
    } 2>&1 | tee -a "$log"
done
if [ -n "${OUT:-}" ]; then cp "$log" "$base".csv "$base"-convergence.csv "$OUT"/; fi
