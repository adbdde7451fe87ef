#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What a maintainer runs on a GPU machine to verify a change (CI has no GPU): build, make bench,
# make tables (so that the tables the tests compare include the new rows), make test, with the
# log naming the commit. Writes data/<GPU>-test.log beside the bench CSV; with OUT set (the
# device tool), copies the log and the CSV files there too. Commit them, then run make tables
# and make plots where gnuplot is.
#   COMMIT=$(git describe --always --dirty) bash tests/gpu-session.sh [bench] [profile] [test]
# The phases run in the order given (default: both); the first starts the log, a later call
# with only "test" appends to it (each device call has a time limit).
set -uo pipefail
phases=${*:-bench test}
commit=${COMMIT:-$(git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)}
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
log=data/${gpu// /_}-test.log
mkdir -p data
{
    echo "stencil-labs GPU verification ($phases): commit $commit, $(date -u '+%Y-%m-%d %H:%M UTC')"
    nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.mem --format=csv,noheader
    nvcc --version | tail -n 1
    make -j"$(nproc)" COMMIT="$commit" all 2>&1 | grep -E 'error|warning: [^#]' || true
    for phase in $phases; do
        if [ "$phase" = bench ]; then
            echo "== make bench"
            make COMMIT="$commit" bench 2>&1
            echo "make bench exit status: $?"
        elif [ "$phase" = profile ]; then
            echo "== make profile"
            make COMMIT="$commit" profile 2>&1
            echo "make profile exit status: $?"
        else
            make -s tables
            echo "== make test"
            make COMMIT="$commit" test 2>&1
            echo "make test exit status: $?"
        fi
    done
} | tee -a "$log"
if [ -n "${OUT:-}" ]; then cp "$log" data/*.csv "$OUT"/; fi
