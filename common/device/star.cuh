// SPDX-License-Identifier: MIT
// The kernels' side of the star-stencil labs (2-5): the weights in constant memory, the boundary
// rule and the grid limits. Include once per kernels file.
#ifndef STAR_CUH
#define STAR_CUH

#include "star.h"

__constant__ float c_star[MAX_RADIUS + 1];  // c[0] centre, c[i] the six neighbours at distance i

// The weights of the problem's order, once before any timing (the kernels file's setup_kernels).
static inline void star_setup(const struct problem *p)
{
    double c[MAX_RADIUS + 1];
    int r = laplacian_coefficients(p->order > 0 ? p->order : 2, c);
    float f[MAX_RADIUS + 1] = {0};
    for (int i = 0; i <= r; i++) f[i] = (float)c[i];
    CUDA_CHECK(cudaMemcpyToSymbol(c_star, f, sizeof f));
}

__device__ __forceinline__ bool near_face(int x, int y, int z, int nx, int ny, int nz, int r)
{
    return x < r || y < r || z < r || x >= nx - r || y >= ny - r || z >= nz - r;
}

// Grid dimensions y and z hold at most 65535 blocks.
static inline const char *refuse_grid(const struct problem *p, size_t blocks_y, size_t blocks_z)
{
    if (p->pitch > 0x7fffffff || p->n[1] > 0x7fffffff || p->n[2] > 0x7fffffff)
        return "every dimension (and the padded row) must be below 2^31 (int coordinates)";
    if (blocks_y > 65535) return "too many blocks along y for the grid (65535 at most)";
    if (blocks_z > 65535) return "too many blocks along z for the grid (65535 at most)";
    return NULL;
}
#endif
