// SPDX-License-Identifier: MIT
// What labs 3-5 share: the order-k star stencil (003's Equation 1) with the central
// second-derivative weights, its coefficients in constant memory, the boundary rule (points
// within the radius of a face copy the input) and its CPU reference. Include once per lab.
#ifndef STAR_CUH
#define STAR_CUH
#include "harness.h"

enum { MAX_RADIUS = 6 };
__constant__ float c_star[MAX_RADIUS + 1];  // c[0] centre, c[i] the six neighbours at distance i

static inline int star_radius(const struct problem *p) { return p->order > 0 ? p->order / 2 : 1; }

static inline void star_setup(const struct problem *p)
{
    double c[MAX_RADIUS + 1];
    int r = laplacian_coefficients(p->order > 0 ? p->order : 2, c);
    float f[MAX_RADIUS + 1] = {0};
    for (int i = 0; i <= r; i++) f[i] = (float)c[i];
    CUDA_CHECK(cudaMemcpyToSymbol(c_star, f, sizeof f));
}

static inline void star_reference(const struct problem *p, int kind, const float *in, double *ref)
{
    (void)kind;
    double c[MAX_RADIUS + 1];
    int r = laplacian_coefficients(p->order > 0 ? p->order : 2, c);
    ref_star3d(in, ref, p->n, r, c);
}

// The stencil reaches r planes beyond the point; a bug reaching one more still reads NaN.
static inline size_t star_guard(const struct problem *p)
{
    return (size_t)(star_radius(p) + 1) * (p->n[0] * p->n[1] + p->n[0] + 1);
}

static inline int star_order_ok(int order) { return order >= 2 && order <= 2 * MAX_RADIUS && order % 2 == 0; }

__device__ __forceinline__ bool near_face(int x, int y, int z, int nx, int ny, int nz, int r)
{
    return x < r || y < r || z < r || x >= nx - r || y >= ny - r || z >= nz - r;
}

// The struct lab fields every star-stencil lab shares, in the struct's order: minimal traffic
// of 8 bytes per point (read once, write once), the tolerances, reference, guard and set-up.
#define STAR_LAB_FIELDS                                                                       \
    .bytes_per_point = 8, .l2_tol = 1e-5, .atol = 1e-5, .rtol = 1e-5,                         \
    .reference = star_reference, .guard = star_guard, .setup = star_setup

static inline unsigned ceil_div(size_t a, unsigned b) { return (unsigned)((a + b - 1) / b); }

// Grid dimensions y and z hold at most 65535 blocks.
static inline const char *refuse_grid(const struct problem *p, size_t blocks_y, size_t blocks_z)
{
    if (p->n[0] > 0x7fffffff || p->n[1] > 0x7fffffff || p->n[2] > 0x7fffffff)
        return "every dimension must be below 2^31 (int coordinates)";
    if (blocks_y > 65535) return "too many blocks along y for the grid (65535 at most)";
    if (blocks_z > 65535) return "too many blocks along z for the grid (65535 at most)";
    return NULL;
}
#endif
