#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make doctor: one screen on what this machine has for the course, and what will work here: the
# toolkit and driver, the GPUs, what make builds for them, Nsight Compute's counters, the
# sanitizer, MPI, NCCL, gnuplot, and each lab at its default size on this GPU (the programs' own
# --list: memory needed, variants refused). Read-only: it builds nothing and changes nothing.
cd "$(dirname "$0")/../.." || exit 2
say() { printf '%-18s %s\n' "$1" "$2"; }
have() { command -v "$1" >/dev/null 2>&1; }

say "toolkit" "$(have nvcc && nvcc --version | sed -n 's/.*release \([0-9.]*\).*/CUDA \1 (nvcc)/p' || echo 'no nvcc: install the CUDA Toolkit 12 or newer')"
gpus=$(nvidia-smi --query-gpu=index,name,compute_cap,memory.total,driver_version --format=csv,noheader 2>/dev/null)
if [ -z "$gpus" ]; then
    say "GPU" "none visible (nvidia-smi lists none): the labs build here, they run where a GPU is"
else
    while IFS=, read -r i name cc mem drv; do
        say "GPU $i" "$name, compute capability$cc (sm_${cc//[ .]/}), ${mem# }, driver${drv}"
    done <<< "$gpus"
fi
archs=$(make -s --no-print-directory print-archs 2>/dev/null | sed -n 's/^archs //p')
say "make builds" "ARCH=\"$archs\"$([ -z "$gpus" ] && echo ' (no GPU here: the portable set)')"
if [ -n "$gpus" ]; then
    cc=$(head -n 1 <<< "$gpus" | cut -d, -f3 | tr -d ' .')
    if grep -qw "sm_$cc" <<< "$archs"; then say "" "machine code for this GPU (sm_$cc)"
    else say "" "no machine code for sm_$cc: the driver compiles the PTX at start-up (the header's 'code path' line)"; fi
fi
smem=$(case ${cc:-} in 75) echo 64;; 80|87) echo 163;; 86|89|120|121) echo 99;; 90|100|103|110) echo 227;; *) echo "?";; esac)
[ -n "$gpus" ] && say "shared memory" "$smem KB a block at most (labs 5b, 6 and 8 choose their tiles from it)"

if have ncu; then
    perm="not checked (no GPU, or make sol1 first)"
    if [ -n "$gpus" ] && [ -x ./sol1 ]; then
        out=$(ncu --metrics dram__bytes_read.sum --clock-control none ./sol1 --size 4096 --reps 1 --variant naive --quiet 2>&1)
        if grep -q ERR_NVGPUCTRPERM <<< "$out"; then
            perm="NOT permitted (ERR_NVGPUCTRPERM): --profile needs root, or the driver option NVreg_RestrictProfilingToAdminUsers=0 (the guide, 'Profiling')"
        elif grep -q dram__bytes_read <<< "$out"; then perm="permitted"
        else perm="ncu did not run: $(tail -n 1 <<< "$out")"; fi
    fi
    say "Nsight Compute" "$(ncu --version | tail -n 1); counters: $perm"
else
    say "Nsight Compute" "no ncu: --profile and make profile need it (it comes with the CUDA Toolkit)"
fi
say "sanitizer" "$(have compute-sanitizer && compute-sanitizer --version | sed -n 's/.*Version \(.*\)/compute-sanitizer \1/p' | head -n 1 || echo 'no compute-sanitizer: make check needs it (or --no-sanitize; it comes with the CUDA Toolkit)')"
if have mpirun; then
    aware=$(ompi_info --parsable --all 2>/dev/null | sed -n 's/^mca:opal:base:param:opal_built_with_cuda_support:value://p')
    say "MPI" "$(mpirun --version 2>/dev/null | head -n 1)$([ "$aware" = true ] && echo ', CUDA-aware' || echo ', not CUDA-aware (lab 9 stages through the host)')"
else
    say "MPI" "none: lab 9 is skipped (Debian: libopenmpi-dev openmpi-bin)"
fi
labs=$(make -s --no-print-directory list-labs 2>&1)
say "NCCL" "$(grep -q 'no NCCL' <<< "$labs" && echo 'none: lab 9 is skipped (NCCL_HOME=dir, or Debian: libnccl-dev)' || echo found)"
say "gnuplot" "$(have gnuplot && gnuplot --version || echo 'none: make plots needs it (Debian: gnuplot-nox)')"
mem=$(awk '/^MemTotal/ { printf "%.1f GB", $2 * 1024 / 1e9 }' /proc/meminfo 2>/dev/null)
say "host memory" "${mem:-unknown}"

# Each lab at its default size, as its program sees this machine (a built solution, else the
# student's program: make all first).
echo
printf '%-22s %-14s %9s %9s  %s\n' lab "default size" "GPU GB" "host GB" "on this GPU"
for lab in $(sed -n 's/^labs: //p' <<< "$labs"); do
    n=${lab%%_*}; n=${n#lab}
    prog=./sol$n; [ -x "$prog" ] || prog=./lab$n
    if [ ! -x "$prog" ]; then printf '%-22s not built (make lab%s)\n' "$lab" "$n"; continue; fi
    list=$("$prog" --list 2>&1)
    size=$(sed -n 's/^size \([0-9]*\) \([0-9]*\) \([0-9]*\)$/\1x\2x\3/p' <<< "$list" | sed 's/x1x1$//; s/x1$//')
    read -r gpu host _ < <(sed -n 's/^memory //p' <<< "$list")
    refused=$(sed -n 's/^refuses \([^ ]*\) .*/\1/p' <<< "$list" | paste -sd, -)
    verdict="every variant runs"
    [ -z "$gpus" ] && verdict="(no GPU: not checked)"
    [ -n "$refused" ] && verdict="refused here: $refused"
    printf '%-22s %-14s %9.1f %9.1f  %s\n' "$lab" "$size" "$(awk "BEGIN { print ${gpu:-0} / 1e9 }")" \
        "$(awk "BEGIN { print ${host:-0} / 1e9 }")" "$verdict"
done
