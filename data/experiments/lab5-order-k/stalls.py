#!/usr/bin/env python3
# The instructions where queue4's warps waited most (ncu source page, SASS; src.sh made the
# CSV files): per file, the share of all stall samples by reason, then the top instructions with
# their share and top reason, then the memory instructions of the loop.
# Usage: python3 stalls.py src-o8-512.csv.gz ...
import csv, gzip, io, sys

for name in sys.argv[1:]:
    text = gzip.open(name, "rt").read() if name.endswith(".gz") else open(name).read()
    rows = list(csv.reader(io.StringIO(text)))
    k = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
    hdr, data = rows[k], [r for r in rows[k + 1:] if len(rows[k]) == len(r)]
    col = {h: i for i, h in enumerate(hdr)}
    reasons = [h for h in hdr if h.startswith("stall_") and "Not Issued" not in h]
    num = lambda r, h: float(r[col[h]] or 0)
    total = sum(num(r, "Warp Stall Sampling (All Samples)") for r in data)
    print(f"== {name}: {len(data)} instructions, {total:.0f} samples")
    by = {h: sum(num(r, h) for r in data) / total * 100 for h in reasons}
    print("   by reason: " + ", ".join(f"{h[6:]} {v:.1f}%" for h, v in sorted(by.items(), key=lambda x: -x[1]) if v >= 1))
    for r in sorted(data, key=lambda r: -num(r, "Warp Stall Sampling (All Samples)"))[:12]:
        s = num(r, "Warp Stall Sampling (All Samples)")
        top = max(reasons, key=lambda h: num(r, h))
        print(f"   {r[0][-5:]} {s / total * 100:5.1f}%  {top[6:]:<14} {r[1].strip()[:70]}")
