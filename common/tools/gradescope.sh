#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make gradescope: the autograder zip for Gradescope (a GPU-equipped autograder image with the
# CUDA Toolkit). Gradescope unpacks it in /autograder, runs setup.sh once and run_autograder for
# each submission: the student's kernels files are in /autograder/submission (as labN_name.cu,
# labN_name/kernels.cu or a whole labs/ folder), the grade goes to /autograder/results/results.json.
# AUTOGRADER_ROOT replaces /autograder (the tests run it in a folder of their own).
# The zip holds what grading needs: the course, the reference solutions' kernels; not their
# answer keys, planted bugs, the cheat tests, the GPU logs or the experiment notes (students may
# see an autograder's files). run_autograder grades as the unprivileged user `nobody` where it
# starts as root (as on Gradescope), after handing it the source and results folders.
set -euo pipefail
zip=${1:?usage: gradescope.sh OUT.zip}
cd "$(dirname "$0")/../.."
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/source"
git ls-files -z | grep -zv -E '^(solutions/[^/]*/(answers[^/]*|bugs\.txt)|handouts/debriefs/.*|tests/cheats/.*|data/experiments/.*|data/[^/]*-test\.log)$' \
    | xargs -0 cp --parents -t "$stage/source"
cat > "$stage/setup.sh" <<'SETUP'
#!/usr/bin/env bash
# Once per autograder image: what the grader needs besides the CUDA Toolkit.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends make gcc g++ perl binutils >/dev/null
command -v nvcc >/dev/null || { echo "setup.sh: nvcc not found: the autograder image needs the CUDA Toolkit 12 or newer" >&2; exit 1; }
# Lab 9 needs MPI and NCCL. Where they cannot be had, the build leaves lab 9 out and the grader
# writes "not graded here" for a submitted lab 9 (results.json), instead of dropping it.
apt-get install -y -qq --no-install-recommends libopenmpi-dev openmpi-bin >/dev/null ||
    echo "setup.sh: no Open MPI on this image: lab 9 will not be graded here" >&2
cuda=$(dirname "$(dirname "$(command -v nvcc)")")
[ -e /usr/include/nccl.h ] || [ -e "$cuda/include/nccl.h" ] || apt-get install -y -qq libnccl-dev >/dev/null 2>&1 ||
    python3 -m pip install -q nvidia-nccl-cu12 >/dev/null 2>&1 ||
    echo "setup.sh: no NCCL on this image (libnccl-dev, or the nvidia-nccl-cu12 wheel): lab 9 will not be graded here" >&2
make -C "$(dirname "$0")/source" -s all
SETUP
cat > "$stage/run_autograder" <<'RUN'
#!/usr/bin/env bash
# One submission: grade it against this tree; results.json is written whatever happens.
root=${AUTOGRADER_ROOT:-/autograder}
mkdir -p "$root/results"
cd "$root/source" || exit 2
# As root: grade as nobody, who owns only the source (its builds) and the results folder.
as=()
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && id nobody >/dev/null 2>&1; then
    chown -R nobody "$root/source" "$root/results"
    as=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups env HOME="$root/source")
fi
"${as[@]}" make -s all >/dev/null 2>&1
# shellcheck disable=SC2086  # CHECK_ARGS is a list of options
"${as[@]}" perl common/grader/check.pl --submission "$root/submission" --results "$root/results/results.json" ${CHECK_ARGS:-}
exit 0
RUN
chmod +x "$stage/setup.sh" "$stage/run_autograder"
mkdir -p "$(dirname "$zip")"
rm -f "$zip"
(cd "$stage" && zip -qr - setup.sh run_autograder source) > "$zip"
echo "make gradescope: $zip"
