// SPDX-License-Identifier: MIT
// What the register-queue kernels of labs 5b and 8 (queue4_128x16) share: the halo quads of a
// tile. A block's tile is H rows of 32 quads (128 x points, a float4 each) of a plane, kept in a
// shared plane of ROWS = H + 2R rows of QW = 32 + 2 XQ quads; the halo is the R rows above and
// below the tile and XQ quads left and right of each of its rows. async.cuh has the copies and
// barriers that move the planes round the ring.
#ifndef QUAD_CUH
#define QUAD_CUH

#include <stddef.h>

#include "async.cuh"

// Where the ring starts in the block's dynamic shared memory `dyn`: 0 or 1 quad in, so that the
// tile's quads (XQ quads into each row) sit 32-byte aligned, as their global copies do (rows and
// planes are whole 32-byte sectors apart, QW being even). A cp.async whose 16 bytes take another
// place in a 32-byte sector of shared memory than in global memory makes L1 ask L2 for each sector
// twice (ldgsts.cu in lab 5's experiments: 2x the L2 reads). Where dyn itself starts depends on
// the kernel's static shared memory (its barriers), so the pad is found at run time. The kernels'
// SMEM counts 2 quads more: this pad and the stage's (stage_base).
template <int XQ>
__device__ __forceinline__ float4 *ring_base(float4 *dyn)
{
    return dyn + ((((unsigned)__cvta_generic_to_shared(dyn) >> 4) + XQ) & 1);
}

// After the ring of `quads` quads (a multiple of 2) that ring_base placed: the first 32-byte
// aligned quad, for copies of the tile's own quads.
template <int XQ>
__device__ __forceinline__ float4 *stage_base(float4 *ring, int quads)
{
    return ring + quads + (XQ & 1);
}

// The halo quads thread t copies into every plane of the ring, C::HS of them (C: the kernel's
// Quad, with NT threads, H tile rows, HALO quads, HS = ceil(HALO / NT), XQ and QW): slot[k], the
// quad's place in a shared plane, or -1 where the quad is outside the grid (no point that uses the
// stencil reads it); from[k], where it is in plane z0 of `in` (rows pitch apart, planes `plane`,
// negative for a kernel that walks down z).
// Quad h: first the 2R rows of 32 above and below the tile, then XQ left and right of each row.
template <int R, class C>
__device__ __forceinline__ void quad_halo(int t, int x0, int yb, int nx, int ny, int pitch, ptrdiff_t plane, int z0,
                                          const float *in, int (&slot)[C::HS], const float *(&from)[C::HS])
{
    constexpr int XQ = C::XQ, QW = C::QW;
#pragma unroll
    for (int k = 0; k < C::HS; k++) {
        int h = t + k * C::NT, row, col;
        if (h < 2 * R * 32) {
            row = h / 32 < R ? h / 32 : C::H + h / 32;
            col = XQ + h % 32;
        } else {
            int g = h - 2 * R * 32, side = g % (2 * XQ);
            row = R + g / (2 * XQ);
            col = side < XQ ? side : 32 + side;
        }
        int gx = x0 + 4 * (col - XQ), gy = yb + row - R;
        bool ok = h < C::HALO && gx >= 0 && gy >= 0 && gx < nx && gy < ny;
        slot[k] = ok ? row * QW + col : -1;
        from[k] = in + (ok ? (ptrdiff_t)gy * pitch + gx + (ptrdiff_t)z0 * plane : 0);
    }
}

// Thread t's halo quads of one plane into the ring's buffer `plane` (cp.async, in flight until
// the thread's next async_landed), from `offset` elements past where quad_halo found them.
template <int HS>
__device__ __forceinline__ void quad_copy_halo(float4 *plane, const int (&slot)[HS], const float *const (&from)[HS],
                                               ptrdiff_t offset)
{
#pragma unroll
    for (int k = 0; k < HS; k++)
        if (slot[k] >= 0) async_copy16(plane + slot[k], from[k] + offset);
}

// The z chunk, in planes, of a grid of `tiles` tile columns over `planes` planes, for a kernel
// whose blocks re-read 2r planes a chunk to fill their queue and of which the GPU holds `slots`
// at once. Long chunks read less DRAM; but the grid runs in waves of `slots` blocks, and a last
// wave that is barely filled takes as long as a full one. So of the chunk lengths (at least 4r
// planes) this takes the one with the least modelled time, waves x (planes a block loads), the
// waves rounded up; it wants at least 3 waves where the grid has the tiles for them: a grid of 1
// or 2 waves ran no faster and sometimes far slower on an H200 (the SMs start and drain
// together). Lab 5b at 512^3 order 8 against about 16 blocks per SM (8.2 waves): DRAM reads fell
// from 4.57 to 4.28 bytes a point, and orders 2 to 8 ran 2.3-5.3% faster on an H200.
static inline size_t quad_zchunk(size_t tiles, size_t planes, size_t slots, int r)
{
    const size_t min_zc = 4 * (size_t)r;
    auto up = [](size_t a, size_t b) { return (a + b - 1) / b; };
    size_t best = planes, best_t = 0;
    bool best_full = false;
    for (size_t c = 1; c == 1 || up(planes, c) >= min_zc; c++) {  // c chunks (fewer where zc c - planes >= zc)
        const size_t zc = up(planes, c), blocks = tiles * up(planes, zc);
        const size_t t = up(blocks, slots) * (zc + 2 * r);  // waves x planes loaded a block
        const bool full = blocks >= 3 * slots;
        if (c == 1 || (full && !best_full) || (full == best_full && t < best_t)) best = zc, best_t = t, best_full = full;
    }
    return best;
}
#endif
