// SPDX-License-Identifier: MIT
// Lab 8's rules that its definition (labs/lab8_wave/lab.c) and kernels share: the radius of
// the 8th-order star, the zero boundary layer and the absorbing sponge. Plain C, host and device.
#ifndef WAVE_H
#define WAVE_H

#include "reference.h"  // HOST_DEVICE

enum { WAVE_R = 4 };               // 8th order in space: 4 neighbours on each side
#define WAVE_SPONGE_MAX 0.25f      // damping sigma at the sponge's outer edge

// How deep (x, y, z) lies inside the updated domain: 0 for the first point that is updated,
// negative on the boundary layer (the WAVE_R points next to each face, which stay zero).
HOST_DEVICE static inline int wave_depth(int x, int y, int z, int nx, int ny, int nz)
{
    int d = x < nx - 1 - x ? x : nx - 1 - x;
    int e = y < ny - 1 - y ? y : ny - 1 - y;
    int f = z < nz - 1 - z ? z : nz - 1 - z;
    d = d < e ? d : e;
    d = d < f ? d : f;
    return d - WAVE_R;
}

// The sponge's damping at depth d for a sponge `width` points deep (0: no sponge). It grows
// quadratically towards the boundary, so that a wave entering it is not reflected by a jump.
HOST_DEVICE static inline float wave_sigma(int d, int width)
{
    if (d >= width) return 0.f;
    float q = (float)(width - d) / (float)width;
    return WAVE_SPONGE_MAX * q * q;
}

#endif
