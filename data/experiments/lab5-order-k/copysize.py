# Device-to-device copy bandwidth (read + write) by size, as a fraction of the 1 GiB copy the
# harness divides by: how much of a small grid's "% copy" is the size alone. One GPU.
import torch
torch.cuda.init()
print(torch.cuda.get_device_name())
flush = torch.empty(256 * 2**20 // 4, device="cuda")
def gbps(n, reps=30):
    a = torch.rand(n, device="cuda"); b = torch.empty_like(a)
    ms = []
    for r in range(reps + 3):
        flush.fill_(r)  # L2 holds none of a
        t0, t1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        t0.record(); b.copy_(a); t1.record(); t1.synchronize()
        if r >= 3: ms.append(t0.elapsed_time(t1))
    ms.sort(); m = ms[len(ms) // 2]
    return 2 * 4 * n / (m * 1e-3) / 1e9, m
ref, _ = gbps(2**28)
import math, sys  # sizes NXxNYxNZ on the command line, else the list below
sizes = [(a, math.prod(map(int, a.split("x")))) for a in sys.argv[1:]] or \
    [("1 GiB", 2**28), ("512^3", 512**3), ("513^3", 513**3), ("480x480x400", 480*480*400), ("376^3", 376**3), ("256^3", 256**3)]
for name, n in sizes:
    g, m = gbps(n)
    print(f"{name:12s} {n:>10d} floats  {m*1e3:8.1f} us  {g:7.1f} GB/s  {g/ref*100:5.1f}% of 1 GiB")
