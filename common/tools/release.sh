#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make release: write the student tree to DIR: every tracked file but the reference solutions
# (solutions/: kernels, planted bugs, answer keys), the grader's cheating files (tests/cheats/,
# made from the solutions), the experiment notes (data/experiments/) and the GPU test logs
# (data/*-test.log: what the maintainers' GPU sessions printed; the results are in data/*.csv);
# and the reference programs ./solN, prebuilt without their source for RELEASE_ARCH (default
# portable: machine code for each code path of the kernels, sm_75, sm_80 and sm_90, and PTX that
# the driver compiles for newer GPUs), so that `./solN` runs and `make check` times against them
# on a student's GPU. The skeletons in labs/ are what students fill in; the release's own make
# test passes without the solutions.
set -euo pipefail
dir=${1:?usage: release.sh DIR}
cd "$(dirname "$0")/../.."
[ -e "$dir" ] && [ -n "$(ls -A "$dir" 2>/dev/null)" ] && { echo "make release: $dir exists and is not empty" >&2; exit 2; }
mkdir -p "$dir"
git ls-files -z | grep -zv -E '^(solutions/|handouts/debriefs/|tests/cheats/|data/experiments/|data/[^/]*-test\.log$)' | xargs -0 cp --parents -t "$dir"
# The reference programs (make rebuilds them here if they were built for another ARCH).
sols=$(ls solutions/*/kernels.cu | sed -E 's|solutions/lab([0-9]+[a-z]?)_.*|sol\1|')
make -s ARCH="${RELEASE_ARCH:-portable}" $sols
for s in $sols; do [ -x "$s" ] && cp "$s" "$dir/"; done  # (lab 9's only where MPI and NCCL are)
# Nothing of a solution may remain.
if grep -rl -E 'BEGIN SOLUTION|END SOLUTION' "$dir" --include='*.cu' --include='*.c' --include='*.h' >/dev/null; then
    echo "make release: a solution region is left in the release" >&2
    exit 1
fi
echo "make release: the student tree is in $dir ($(find "$dir" -type f | wc -l) files)"
