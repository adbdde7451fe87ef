# Reads the block traces of trace.sh (tar xzf traces.tar.gz; trace-o<order>-<size>.csv) and prints,
# per file: a block's life, its start to the end of its first plane, the time a plane after that,
# each SM's span from its first block's start to its last block's end, and the gap between a
# block's end and the next start on its SM. clock64 is converted to time by each block's own
# globaltimer span (the median ratio). Then, by a block's rank among its SM's starts (#0, #1 the
# first wave where two blocks fit an SM), the median start-to-first-plane and time a plane.
import csv, sys, collections, statistics as st
for f in sys.argv[1:]:
    rows=[{k:int(v) for k,v in r.items()} for r in csv.DictReader(open(f))]
    by=collections.defaultdict(list)
    for r in rows: by[r['sm']].append(r)
    ratios=[ (r['c_end']-r['c_start'])/r['gt_span'] for r in rows if r['gt_span']>0]
    ghz=st.median(ratios)
    pro=[(r['c_first']-r['c_start'])/ghz/1e3 for r in rows]  # us: start -> end of first plane
    body=[(r['c_end']-r['c_first'])/ghz/1e3/(max(r['planes']-1,1)) for r in rows]  # us per plane after the first
    life=[(r['c_end']-r['c_start'])/ghz/1e3 for r in rows]
    # per SM: span from first start to last end, busy = union of block lifetimes
    idle=[]; spans=[]; gaps=[]
    for sm,rs in by.items():
        rs.sort(key=lambda r:r['c_start'])
        ev=sorted([(r['c_start'],1) for r in rs]+[(r['c_end'],-1) for r in rs])
        n=0; last=None; busy=0; t0=ev[0][0]; t1=ev[-1][0]
        for t,d in ev:
            if n>0: busy+=t-last
            n+=d; last=t
        spans.append((t1-t0)/ghz/1e3); idle.append(1-busy/(t1-t0))
        # gap: a block's start minus the latest end before it on this SM (slot refill latency)
        ends=sorted(r['c_end'] for r in rs)
        for r in rs:
            prev=[e for e in ends if e<=r['c_start']]
            if prev: gaps.append((r['c_start']-prev[-1])/ghz/1e3)
    print(f"{f}: blocks {len(rows)} SMs {len(by)} clk {ghz:.2f} GHz | life med {st.median(life):.1f} us (min {min(life):.1f} max {max(life):.1f}) | start->first plane done med {st.median(pro):.2f} us | per plane after {st.median(body):.3f} us | prologue in planes {st.median(pro)/st.median(body)-1:.1f} | SM span med {st.median(spans):.1f} max {max(spans):.1f} | SM idle med {100*st.median(idle):.1f}% | refill gap med {st.median(gaps) if gaps else 0:.2f} us")

def by_rank(f):
    rows=[{k:int(v) for k,v in r.items()} for r in csv.DictReader(open(f))]
    ghz=st.median((r['c_end']-r['c_start'])/r['gt_span'] for r in rows if r['gt_span']>0)
    by=collections.defaultdict(list)
    for r in rows: by[r['sm']].append(r)
    waves=collections.defaultdict(list); lifes=collections.defaultdict(list)
    for sm,rs in by.items():
        rs.sort(key=lambda r:r['c_start'])
        t0=rs[0]['c_start']
        for i,r in enumerate(rs):
            # the block's rank among its SM's starts
            waves[i].append((r['c_first']-r['c_start'])/ghz/1e3)
            lifes[i].append(((r['c_end']-r['c_first'])/ghz/1e3/max(r['planes']-1,1), r['planes'], (r['c_start']-t0)/ghz/1e3))
    out=[]
    for i in sorted(waves):
        per=[x[0] for x in lifes[i]]; st0=[x[2] for x in lifes[i]]
        out.append(f"#{i}: pro {st.median(waves[i]):.2f} per-plane {st.median(per):.3f} start@{st.median(st0):.1f}")
    print(f.split('/')[-1], '|', ' | '.join(out))

for f in sys.argv[1:]:
    by_rank(f)
