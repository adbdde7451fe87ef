#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench: run each reference solution at its benchmark sizes and append the CSV rows to
# data/<GPU>.csv. The runs of a lab are the lines of solutions/<lab>/bench.args (options of
# ./solN, one run per line); {data} stands for data/<GPU>, for runs that write their own file.
set -uo pipefail
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
[ -n "$gpu" ] || { echo "make bench: no NVIDIA GPU found (nvidia-smi lists none)" >&2; exit 2; }
base=data/${gpu// /_}
status=0
for lab in "$@"; do
    num=${lab%%_*}
    sol=./sol${num#lab}
    args=solutions/$lab/bench.args
    [ -f "$args" ] || continue
    while read -r line; do
        [[ -z $line || $line == \#* ]] && continue
        line=${line//\{data\}/$base}
        [[ $line == *--csv* ]] || line="$line --csv $base.csv"
        echo "+ $sol $line"
        # shellcheck disable=SC2086  # the line is a list of options
        $sol $line < /dev/null || status=1
    done < "$args"
done
exit $status
