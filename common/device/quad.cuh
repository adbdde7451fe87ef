// SPDX-License-Identifier: MIT
// What the register-queue kernels of labs 5 and 8 (queue4_128x16) share: the halo quads of a
// tile. A block's tile is H rows of 32 quads (128 x points, a float4 each) of a plane, kept in a
// shared plane of ROWS = H + 2R rows of QW = 32 + 2 XQ quads; the halo is the R rows above and
// below the tile and XQ quads left and right of each of its rows. async.cuh has the copies and
// barriers that move the planes round the ring.
#ifndef QUAD_CUH
#define QUAD_CUH

#include <stddef.h>

#include "async.cuh"

// The halo quads thread t copies into every plane of the ring, C::HS of them (C: the kernel's
// Quad, with NT threads, H tile rows, HALO quads, HS = ceil(HALO / NT), XQ and QW): slot[k], the
// quad's place in a shared plane, or -1 where the quad is outside the grid (no point that uses the
// stencil reads it); from[k], where it is in plane z0 of `in` (rows pitch apart, planes `plane`).
// Quad h: first the 2R rows of 32 above and below the tile, then XQ left and right of each row.
template <int R, class C>
__device__ __forceinline__ void quad_halo(int t, int x0, int yb, int nx, int ny, int pitch, size_t plane, int z0,
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
        from[k] = in + (ok ? (size_t)gy * pitch + gx + (size_t)z0 * plane : 0);
    }
}

// Thread t's halo quads of one plane into the ring's buffer `plane` (cp.async, in flight until
// the thread's next async_landed), from `offset` elements past where quad_halo found them.
template <int HS>
__device__ __forceinline__ void quad_copy_halo(float4 *plane, const int (&slot)[HS], const float *const (&from)[HS],
                                               size_t offset)
{
#pragma unroll
    for (int k = 0; k < HS; k++)
        if (slot[k] >= 0) async_copy16(plane + slot[k], from[k] + offset);
}
#endif
