#!/usr/bin/env bash
# The one-row wave_queue4 on the code paths of smaller GPUs, as gpu-session.sh path-80 and path-75
# do but for labs 8 and 9 only (lab 5b's kernel did not change): each built as compute_NN PTX that
# the driver compiles, 50-gpu (and on sm_80's path, whose waits differ, 70-sanitizer), the emulated
# GPUs that take the path, and lab 8's queue4 row in data/<GPU>-paths.csv; then the native build.
# (Since then `PATH_LABS=lab8,lab9 gpu-session.sh path-80 path-75` runs the same tests.)
set -u
export NCCL_NVLS_ENABLE=0 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
commit=${COMMIT:?}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1); base=data/${gpu// /_}
rc=0
for cc in 80 75; do
    echo "== path-$cc (labs 8 and 9)"; start=$SECONDS
    make -j"$(nproc)" ARCH=compute_$cc COMMIT="$commit" all 2>&1 | grep -E 'error'
    ARCH=compute_$cc TEST_CODE_PATH=sm_$cc TEST_LABS=lab8,lab9 perl tests/50-gpu.t > t.log 2>&1 || rc=1
    if [ "$cc" = 80 ]; then ARCH=compute_$cc TEST_LABS=lab8 perl tests/70-sanitizer.t >> t.log 2>&1 || rc=1; fi
    case $cc in 75) gpus=T4 ;; 80) gpus='A100,RTX 4060' ;; esac
    TEST_PROFILES=$gpus TEST_LABS=lab8,lab9 perl tests/75-small-gpus.t >> t.log 2>&1 || rc=1
    echo "$(grep -c '^ok' t.log) ok, $(grep -c '^not ok' t.log) not ok ($(grep -c '^not ok.*# TODO' t.log) TODO)"
    grep -E '^not ok|^# Looks' t.log
    ./sol8 --variant queue4_128x16 --reps 10 --csv "$base-paths.csv" | grep -E '^code path|^queue4'
    echo "path-$cc after $((SECONDS - start))s"
done
make -j"$(nproc)" COMMIT="$commit" all 2>&1 | grep -E 'error'
./sol8 --variant queue4_128x16 --reps 10 --csv "$base-paths.csv" | grep -E '^code path|^queue4'
rm -f t.log
exit $rc
