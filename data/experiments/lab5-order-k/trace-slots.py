# Two slots of an SM at order 8 from the block traces (tar xzf traces.tar.gz into /tmp/tr):
# each slot's time a block and mean planes, per-block + per-plane fits, and each slot's time a plane.
import csv, collections, statistics as st
res={}
for s in ['376','384x384x376','512','384x384x768']:
    rows=[{k:int(v) for k,v in r.items()} for r in csv.DictReader(open(f'/tmp/tr/trace-o8-{s}.csv'))]
    ghz=st.median((r['c_end']-r['c_start'])/r['gt_span'] for r in rows)
    by=collections.defaultdict(list)
    for r in rows: by[r['sm']].append(r)
    F=[];S=[];FP=[];SP=[];gap=[]
    for sm,rs in by.items():
        rs.sort(key=lambda r:r['c_start']); t0=rs[0]['c_start']; sl=[[rs[0]],[rs[1]]]
        for r in rs[2:]:
            i=min(range(2),key=lambda i:abs(r['c_start']-sl[i][-1]['c_end'])); sl[i].append(r)
        t=[((s_[-1]['c_end']-t0)/ghz/1e3/len(s_), st.mean(b['planes'] for b in s_)) for s_ in sl]
        t.sort(); F.append(t[0][0]);FP.append(t[0][1]);S.append(t[1][0]);SP.append(t[1][1])
        if len(sl[0])>1 and len(sl[1])>1: gap.append(abs(sl[0][1]['c_start']-sl[1][1]['c_start'])/ghz/1e3)
    print(s,'fast %.2f planes mean %.2f | slow %.2f planes %.2f | 2nd-start gap med %.1f min %.1f'%(st.median(F),st.mean(FP),st.median(S),st.mean(SP),st.median(gap),min(gap)))
    res[s]=(st.median(F),st.mean(FP),st.median(S),st.mean(SP))
def fit(a,b,k):
    (ta,pa),(tb,pb)=[(res[x][k],res[x][k+1]) for x in (a,b)]
    sl=(tb-ta)/(pb-pa); print(a,b,'k',k,'slope %.3f int %.2f'%(sl,ta-sl*pa))
for k in (0,2):
    fit('376','512',k); fit('384x384x376','384x384x768',k)
print('direct per-plane by slot')
for s in ['376','384x384x376','512','384x384x768']:
    rows=[{k:int(v) for k,v in r.items()} for r in csv.DictReader(open(f'/tmp/tr/trace-o8-{s}.csv'))]
    ghz=st.median((r['c_end']-r['c_start'])/r['gt_span'] for r in rows)
    by=collections.defaultdict(list)
    for r in rows: by[r['sm']].append(r)
    PF=[];PS=[]
    for sm,rs in by.items():
        rs.sort(key=lambda r:r['c_start']); t0=rs[0]['c_start']; sl=[[rs[0]],[rs[1]]]
        for r in rs[2:]:
            i=min(range(2),key=lambda i:abs(r['c_start']-sl[i][-1]['c_end'])); sl[i].append(r)
        t=sorted(sl,key=lambda s_:(s_[-1]['c_end']-t0)/len(s_))
        pp=lambda b:(b['c_end']-b['c_first'])/ghz/1e3/(b['planes']-1)
        PF+= [pp(b) for b in t[0]]; PS+=[pp(b) for b in t[1]]
    print(s,'fast slot per-plane %.3f slow %.3f'%(st.median(PF),st.median(PS)))
