// SPDX-License-Identifier: MIT
// A quad (four consecutive floats of a row) at any alignment, for the float4 kernels of labs 5
// and 8 at every nx. Rows start 16-byte aligned only when nx (and nx * ny, past the first plane)
// is a multiple of 4; otherwise a row's quads straddle the aligned float4s of memory.
// - load_quad: one 16-byte load when aligned, else the two aligned float4s around the quad and a
//   shift;
// - store_quad: one 16-byte store when aligned and whole, else one float at a time (a store must
//   not touch the points of another thread, or of the next row at the end of this one);
// - async_copy_quad: common/async.cuh's 16-byte copy when aligned, else four 4-byte ones.
// ALIGNED = true (nx a multiple of 4, known at launch): every quad is aligned and whole, and the
// helpers are the plain 16-byte accesses, without a test. Reading up to 3 floats past the end
// of an array is safe here: every field has a guard band.
#ifndef QUAD_CUH
#define QUAD_CUH

#include <stdint.h>

#include "async.cuh"

__device__ __forceinline__ int quad_offset(const float *p) { return (int)((uintptr_t)p >> 2) & 3; }

template <bool ALIGNED>
__device__ __forceinline__ float4 load_quad(const float *p)
{
    const int k = ALIGNED ? 0 : quad_offset(p);  // the same for a warp's quads of one row
    const float4 *a = (const float4 *)(p - k);
    if (k == 0) return a[0];
    const float4 u = a[0], v = a[1];
    return k == 1 ? make_float4(u.y, u.z, u.w, v.x) : k == 2 ? make_float4(u.z, u.w, v.x, v.y)
                                                      : make_float4(u.w, v.x, v.y, v.z);
}

// n: how many of the quad's points exist (fewer than 4 at the end of a row)
template <bool ALIGNED>
__device__ __forceinline__ void store_quad(float *p, float4 v, int n)
{
    if (ALIGNED || (n >= 4 && quad_offset(p) == 0)) {
        *(float4 *)p = v;
        return;
    }
    p[0] = v.x;
    if (n > 1) p[1] = v.y;
    if (n > 2) p[2] = v.z;
    if (n > 3) p[3] = v.w;
}

template <bool ALIGNED>
__device__ __forceinline__ void async_copy_quad(float4 *dst, const float *src)
{
    if (ALIGNED || quad_offset(src) == 0) {
        async_copy16(dst, src);
        return;
    }
    float *d = (float *)dst;
#pragma unroll
    for (int j = 0; j < 4; j++) async_copy4(d + j, src + j);
}

#endif
