#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a maintainer runs on a GPU machine to verify a change (CI has no GPU), in phases that each
# fit one device call of 10 minutes. Every phase appends to data/<GPU>-test.log, naming the
# commit; with OUT set (the device tool) the data files the session wrote are copied there.
# Commit them, then run make tables and make plots where gnuplot is.
#   COMMIT=$(git describe --always --dirty) bash common/tools/gpu-session.sh PHASE...   (default: bench test)
# Pass COMMIT from the checkout you edit: a copied tree (the device tool) may carry a stale .git.
#   bench        make bench (every lab)           profile   make profile (every lab)
#   bench-LABS   make bench of some labs: bench-58 for labs 5 and 8 (a character class of lab numbers)
#   profile5     lab 5b's profile at orders 8 and 12 (make profile runs its default order 2)
#   test         make tables, then make test (the whole suite: longer than one device call)
#   lab7, lab8   one lab: its --profile (lab 8: bench and --convergence too), 50-gpu, 70-sanitizer
#   test-LABS    50-gpu and 70-sanitizer of some labs: test-6 for lab 6 (a character class of lab numbers)
#   lab9         lab 9 with 1 and 2 processes, 50-gpu, 70-sanitizer (on 1 GPU: processes share it)
#   lab9-nccl    lab 9's NCCL variants at 512^3 and 768^3 (LAB9_NCCL_SIZES) with NCCL_MAX_CTAS unset, 1
#                and 2, with NCCL_CTA_POLICY=1 (efficiency) and with NCCL_P2P_USE_CUDA_MEMCPY=1 (the
#                copy engines): the log only (2 GPUs)
#   lab9-bench   lab 8's queue4 at 512^3 and 768^3 (to data/<GPU>-baseline.csv: make tables divides
#                lab 9 by them), then lab 9's make bench rows (a scaling result needs 2 GPUs:
#                nvidia-h100-x2); BENCH_RUNS=A-B for part of them (bench.pl)
#   gpu-1-3, gpu-4-6             tests/50-gpu.t for labs 1-3, 4-6
#   check        make check on the skeletons and the solutions (tests/60-check.t)
#   check-sol, check-skel        one of those two parts; CHECK_TRACE (OUT/check-trace.txt with OUT
#                set) lists every program run the grader makes, with its time
#   cheats-LABS  the GPU cheats of some labs (tests/60-check.t): cheats-1-4 for labs 1 to 4,
#                cheats-79 for labs 7 and 9 (the suffix is a character class of lab numbers)
#   timing       lab 6 at 64^3, timed per launch and back to back
#   any-nx       the float4 kernels of labs 5a, 5b and 8 at every nx: 50-gpu, 70-sanitizer, 512^3 and 513^3
#                (the times go to data/<GPU>-alignment.csv, beside make bench's file)
#   path-NN      the kernels' code path for sm_NN (75, 80, 90), built as compute_NN PTX that the
#                driver compiles: labs 5b and 8 (the labs with paths) 50-gpu and 70-sanitizer, every
#                solution on the emulated smaller GPUs that take the path (75-small-gpus.t: T4 for
#                sm_75, A100 and RTX 4060 for sm_80), and their queue4 rows in data/<GPU>-paths.csv;
#                path-native: the rows of this GPU's own build, which path-NN builds again and measures at the end.
#                PATH_LABS=lab8,lab9: the tests of those labs only, where only their kernels changed.
#   small        tests/75-small-gpus.t: every solution on emulated smaller GPUs (STENCIL_EMULATE)
#   peers        the research codes (common/tools/peers.sh: EBISU) built and run, their rows in
#                data/<GPU>-peers.csv; with bench-7 in the same call, lab 7 beside them (the
#                device tool: carry peers/, which git ignores)
#   check-small  make check of the solutions on a GPU of 48 KB a block (tests/60-check.t, small)
set -uo pipefail
export NCCL_NVLS_ENABLE=0  # never NVLink multicast (it can take a shared host's GPUs out of service)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # lab 9's mpirun in a container
# (every mpirun here: --bind-to none, so that rank 0's CPU reference runs on every core)
if [ -n "${OUT:-}" ]; then export CHECK_TRACE=${CHECK_TRACE:-$OUT/check-trace.txt}; fi
phases=${*:-bench test}
commit=${COMMIT:-$(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
base=data/${gpu// /_}
log=$base-test.log
mkdir -p data
stamp=$(mktemp) || exit 1  # older than anything this session writes
cheats() { local f out=(); for f in tests/cheats/gpu-*.patch; do grep -qE "^# lab: lab[$1][a-z]?_" "$f" && out+=("$f"); done; local IFS=,; echo "${out[*]}"; }
# The labs whose number is in the character class $1, one name a line (lab6_pencils), or a failure.
# queue4 of labs 5b and 8 at 512^3, the build as it is (its code path is the CSV's code_path).
path_rows() {
    for k in 2 8 12; do ./sol5b --order "$k" --variant queue4_128x16 --reps 20 --csv "$base-paths.csv"; done
    ./sol8 --variant queue4_128x16 --reps 10 --csv "$base-paths.csv"
}
labs_in() { make -s list-labs 2>/dev/null | sed -n 's/^labs: //p' | tr ' ' '\n' | grep -E "^lab[$1][a-z]?_" ||
            { echo "gpu-session: no lab matches [$1]" >&2; false; }; }
{
    echo "stencil-labs GPU verification ($phases): commit $commit, $(date -u '+%Y-%m-%d %H:%M UTC')"
    nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.mem --format=csv,noheader
    nvcc --version | tail -n 1
    echo "MPI: $(mpirun --version 2>/dev/null | head -n 1 || echo none); $(make -s list-labs 2>&1 | tr '\n' ' ')"
    make -j"$(nproc)" COMMIT="$commit" all build/tests/unit build/tests/sandbox 2>&1 | grep -E 'error|warning: [^#]' || true
    for phase in $phases; do
        echo "== $phase"; start=$SECONDS
        case $phase in
        bench) make COMMIT="$commit" bench 2>&1 ;;
        bench-[1-9]*) labs=$(labs_in "${phase#bench-}") && make COMMIT="$commit" LABS="$(echo $labs)" bench 2>&1 ;;
        profile) make COMMIT="$commit" profile 2>&1 ;;
        profile5) for k in 8 12; do ./sol5b --profile --order "$k" --csv "$base-profile.csv"; done ;;
        test) make -s tables; make COMMIT="$commit" test 2>&1 ;;
        lab7)
            ./sol7 --profile --variant gm --variant shm --variant fused_s4 --variant tb --steps 8 --csv "$base-profile.csv"
            ./sol7 --profile --variant gm --variant tb --size 512x512x512 --steps 6 --csv "$base-profile.csv"
            TEST_LABS=lab7 perl tests/50-gpu.t && TEST_LABS=lab7 perl tests/70-sanitizer.t ;;
        lab8)
            perl common/tools/bench.pl lab8_wave
            ./sol8 --profile --size 256 --steps 2 --csv "$base-profile.csv"
            ./sol8 --convergence --csv "$base-convergence.csv"
            TEST_LABS=lab8 perl tests/50-gpu.t && TEST_LABS=lab8 perl tests/70-sanitizer.t ;;
        test-[1-9]*)
            labs=$(labs_in "${phase#test-}" | sed 's/_.*//' | paste -sd,) &&
                TEST_LABS=$labs perl tests/50-gpu.t && TEST_LABS=$labs perl tests/70-sanitizer.t ;;
        lab9)
            nvidia-smi -L; mpirun --version | head -n 1
            ./sol9 --reps 3 && mpirun --oversubscribe --bind-to none -np 2 ./sol9 --reps 3
            TEST_LABS=lab9 perl tests/50-gpu.t && TEST_LABS=lab9 perl tests/70-sanitizer.t ;;
        lab9-bench)  # lab 8's best at lab 9's two sizes first: the speed-up over it from one call
            for n in 512 768; do ./sol8 --variant queue4_128x16 --size ${n}x${n}x$n --reps 10 --csv "$base-baseline.csv"; done
            perl common/tools/bench.pl lab9_multigpu ;;
        lab9-nccl)  # how many SMs NCCL's kernel may take, against the overlap (the log only)
            for env in '' NCCL_MAX_CTAS=1 NCCL_MAX_CTAS=2 NCCL_CTA_POLICY=1 NCCL_P2P_USE_CUDA_MEMCPY=1; do
                for n in ${LAB9_NCCL_SIZES:-512 768}; do
                    echo "-- ${env:-NCCL defaults} at ${n}^3"
                    # shellcheck disable=SC2086  # no variable at all where $env is empty
                    env $env mpirun --oversubscribe --bind-to none -np 2 ./sol9 --size ${n}x${n}x$n --reps 5 \
                        --variant nccl --variant nccl_overlap --variant nccl_graph
                done
            done ;;
        gpu-1-3) TEST_LABS=lab1,lab2,lab3 perl tests/50-gpu.t ;;
        gpu-4-6) TEST_LABS=lab4,lab5,lab6 perl tests/50-gpu.t ;;
        check) CHECK_PARTS=skeletons,solutions perl tests/60-check.t ;;
        check-sol) CHECK_PARTS=solutions perl tests/60-check.t ;;
        check-skel) CHECK_PARTS=skeletons perl tests/60-check.t ;;
        cheats-[1-9]*) CHECK_PARTS=cheats CHECK_CHEATS=$(cheats "${phase#cheats-}") perl tests/60-check.t ;;
        any-nx)
            TEST_LABS=lab5,lab8 perl tests/50-gpu.t && TEST_LABS=lab5,lab8 perl tests/70-sanitizer.t
            for n in 512 513; do
                for k in 2 8 12; do ./sol5b --size $n --order $k --variant queue4_128x16 --reps 20 --csv "$base-alignment.csv"; done
                ./sol5a --size $n --variant regcol_z8 --variant regcol4_z4 --reps 20 --csv "$base-alignment.csv"
                ./sol8 --size $n --variant queue_32x32 --variant queue4_128x16 --reps 10 --csv "$base-alignment.csv"
            done ;;
        timing) for t in launch b2b; do ./sol6 --size 64 --reps 200 --timing $t --csv "$base-timing.csv"; done ;;
        path-native) path_rows ;;
        path-[0-9]*)
            cc=${phase#path-}
            make -j"$(nproc)" ARCH=compute_$cc COMMIT="$commit" all 2>&1 | grep -E 'error'
            # ARCH in the environment: the planted bugs the tests build take the same path
            ARCH=compute_$cc TEST_CODE_PATH=sm_$cc TEST_LABS=${PATH_LABS:-lab5b,lab8} perl tests/50-gpu.t; rc=$?
            ARCH=compute_$cc TEST_LABS=${PATH_LABS:-lab5b,lab8} perl tests/70-sanitizer.t || rc=1
            # the emulated smaller GPUs that take this path (sm_86 and sm_89 run sm_80's code)
            case $cc in 75) gpus=T4 ;; 80) gpus='A100,RTX 4060' ;; *) gpus= ;; esac
            if [ -n "$gpus" ]; then TEST_PROFILES=$gpus TEST_LABS=${PATH_LABS:-} perl tests/75-small-gpus.t || rc=1; fi
            path_rows
            make -j"$(nproc)" COMMIT="$commit" all 2>&1 | grep -E 'error'  # this GPU's own build again
            path_rows  # and its rows, so that make tables has a ratio of the same commit
            (exit $rc) ;;
        small) perl tests/75-small-gpus.t ;;
        peers) COMMIT="$commit" bash common/tools/peers.sh build && COMMIT="$commit" bash common/tools/peers.sh run ;;
        check-small) CHECK_PARTS=small perl tests/60-check.t ;;
        *) echo "gpu-session: unknown phase $phase"; false ;;
        esac
        echo "$phase exit status: $? after $((SECONDS - start))s"
    done
} 2>&1 | tee -a "$log"
# The files this session wrote (the device tool brings back only a few files a call).
if [ -n "${OUT:-}" ]; then find data -maxdepth 1 -type f -newer "$stamp" -exec cp {} "$OUT"/ \; ; fi
rm -f "$stamp"
