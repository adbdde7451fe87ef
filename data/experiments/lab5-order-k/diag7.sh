#!/bin/bash
# s2a2's surplus L2 sectors (diag6.txt), instruction by instruction: ncu's source page (SASS) with
# the theoretical L2 sectors of each global access, 512^3 order 8; main beside it. One GPU.
cd "$(dirname "$0")/../../.."
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
for b in s2a2 cl; do
  timeout 200 ncu --clock-control none --kernel-name regex:star_queue4 --launch-skip 1 --launch-count 1 \
    --section SourceCounters --section MemoryWorkloadAnalysis_Tables --page source --print-source sass --csv \
    scratch/sol5b_$b --size 512 --order 8 --variant queue4_128x16 --reps 1 > /tmp/src-$b.csv 2> /tmp/src-$b.err
  echo "$b rc=$? $(wc -l < /tmp/src-$b.csv) lines"
  gzip -c /tmp/src-$b.csv > $OUT/src7-$b.csv.gz
  python3 - /tmp/src-$b.csv <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], errors="replace")))
h = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
H = rows[h]; col = {n: i for i, n in enumerate(H)}
tot = {}
for r in rows[h + 1:]:
    if len(r) < len(H): continue
    src = r[col["Source"]]
    if any(k in src for k in ("LDG", "STG", "LDGSTS")):
        vals = [r[col[k]] for k in ("Instructions Executed", "L1 Tag Requests Global", "L2 Theoretical Sectors Global",
                                    "L2 Theoretical Sectors Global Ideal", "L2 Theoretical Sectors Global Excessive")]
        print(r[col["Address"]], src.strip()[:70], "| exec, L1 tag req, L2 sectors, ideal, excessive:", *vals)
PY
done
echo "done $SECONDS s"
