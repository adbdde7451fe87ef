# The same-rate-per-SM model of z-chunk schedules (NOTES.md, 2026-11-27 later): greedy list
# scheduling of the blocks in launch order; prints the wave rule against the best schedules.
import heapq
def up(a,b): return -(-a//b)
def makespan(sizes, tiles, slots, r):
    h=[0]*slots
    for s in sizes:
        for t in range(tiles):
            f=heapq.heappop(h); heapq.heappush(h, f+s+2*r)
    return max(h)
def current(tiles, planes, slots, r):
    min_zc=4*r; best=planes; best_t=0; best_full=False; c=1
    while c==1 or up(planes,c)>=min_zc:
        zc=up(planes,c); blocks=tiles*up(planes,zc); t=up(blocks,slots)*(zc+2*r); full=blocks>=3*slots
        if c==1 or (full and not best_full) or (full==best_full and t<best_t): best,best_t,best_full=zc,t,full
        c+=1
    n=up(planes,best); return [best]*(n-1)+[planes-best*(n-1)]
def guided(tiles, planes, slots, r, minfull=3):
    min_zc=4*r; cands=[]
    c=1
    while c==1 or up(planes,c)>=min_zc:
        A=up(planes,c); n=up(planes,A)
        for nA in range(1,n+1):
            rest=planes-A*nA
            if rest<0: break
            if rest==0: cands.append([A]*nA); continue
            for nb in range(1,9):
                B=up(rest,nb)
                if B<2*r and nb>1: break
                if B>A: continue
                m=up(rest,B); cands.append([A]*nA+[B]*(m-1)+[rest-B*(m-1)])
        c+=1
    best=None
    for s in cands:
        blocks=tiles*len(s); full=blocks>=minfull*slots
        key=(not full, makespan(s,tiles,slots,r), sum(x+2*r for x in s))
        if best is None or key<best[0]: best=(key,s)
    return best[1]
import sys
sizes=[(512,512,512),(513,513,513),(376,376,376),(480,480,400),(544,544,400),(640,640,400),(800,800,400),(800,800,800)]
for (nx,ny,nz) in sizes:
  for r,per in [(1,8),(4,2),(6,1)]:
    slots=132*per; tiles=up(nx,128)*up(ny,16)
    cu=current(tiles,nz,slots,r); g=guided(tiles,nz,slots,r)
    mc=makespan(cu,tiles,slots,r); mg=makespan(g,tiles,slots,r)
    print(f"{nx}x{ny}x{nz} r{r} tiles {tiles}: cur {cu[0]}x{len(cu)} ms {mc}  guided {g[:1]}..{sorted(set(g))} n{len(g)} ms {mg}  gain {mc/mg:.3f}")
print("----")
def comp(s):
    out=[];prev=None
    for x in s:
        if out and out[-1][0]==x: out[-1][1]+=1
        else: out.append([x,1])
    return ' '.join(f"{a}x{n}" for a,n in out)
for (nx,ny,nz),r,per in [((376,376,376),6,1),((376,376,376),4,2),((513,513,513),4,2),((513,513,513),6,1),((480,480,400),4,2),((512,512,512),4,2),((512,512,512),6,1)]:
    slots=132*per; tiles=up(nx,128)*up(ny,16)
    for mf in (3,0):
        g=guided(tiles,nz,slots,r,mf); print(nx,ny,nz,r,'minfull',mf,comp(g),'ms',makespan(g,tiles,slots,r),'blocks',tiles*len(g))
