// SPDX-License-Identifier: MIT
// Lab 2 (naive7pt): the 3D 7-point stencil, one thread per output point, every neighbour read
// straight from global memory. The model says 7 reads per point; the lab measures how much of
// that the caches of a modern GPU absorb, and what a mapping that breaks coalescing costs.
// Build and run: make lab2 && ./lab2        (make sol2 && ./sol2 for the reference solution)
#include "harness.h"

// The stencil: out = c0*centre + c1*(sum of the 6 face neighbours), the second-order
// Laplacian (c0 = -6, c1 = 1). Points on the faces of the grid copy the input.
__constant__ float c_coef[2];

static void set_coefficients(const struct problem *p)
{
    (void)p;
    double c[2];
    laplacian_coefficients(2, c);
    float f[2] = {(float)c[0], (float)c[1]};
    CUDA_CHECK(cudaMemcpyToSymbol(c_coef, f, sizeof f));
}

// One point, read straight from global memory. x, y, z is the point, s its linear index.
__device__ __forceinline__ float star7(const float *in, size_t s, size_t sy, size_t sz)
{
    return c_coef[0] * in[s] +
           c_coef[1] * (in[s - 1] + in[s + 1] + in[s - sy] + in[s + sy] + in[s - sz] + in[s + sz]);
}

__device__ __forceinline__ bool on_face(int x, int y, int z, int nx, int ny, int nz)
{
    return x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1;
}

// ---- 1. naive: threadIdx.x runs along x, so a warp reads 32 consecutive floats ----
// One block row of 32x8 points per (blockIdx.y, blockIdx.z); blockIdx.z is the plane.

enum { BX = 32, BY = 8, MAX_GRID_YZ = 65535 };

__global__ void star7_naive(const float *in, float *out, int nx, int ny, int nz)
{
    const size_t sy = nx, sz = (size_t)nx * ny;
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z;
    if (x >= nx || y >= ny) return;
    size_t s = z * sz + y * sy + x;
    // TODO(student): write out[s]: the input unchanged on the faces of the grid, the
    // stencil (star7) everywhere else.
    // BEGIN SOLUTION
    out[s] = on_face(x, y, z, nx, ny, nz) ? in[s] : star7(in, s, sy, sz);
    // END SOLUTION
}

static unsigned blocks(size_t n, unsigned per_block) { return (unsigned)((n + per_block - 1) / per_block); }

static void launch_naive(const struct problem *p, const struct grids *g)
{
    dim3 block(BX, BY, 1);
    dim3 grid(blocks(p->n[0], BX), blocks(p->n[1], BY), (unsigned)p->n[2]);
    star7_naive<<<grid, block>>>(g->in, g->out, (int)p->n[0], (int)p->n[1], (int)p->n[2]);
}

// The grid's y and z dimensions hold at most 65535 blocks. (A loop over z and y would lift
// the limit; on an H100 it also cost a fifth of the bandwidth, so the lab keeps the plain
// mapping and refuses what does not fit.)
static const char *refuse_naive(const struct problem *p)
{
    if (p->n[0] > 0x7fffffff) return "nx must be below 2^31 (int coordinates)";
    if (blocks(p->n[1], BY) > MAX_GRID_YZ) return "ny must be at most 524280 (65535 blocks of 8 rows)";
    if (p->n[2] > MAX_GRID_YZ) return "nz must be at most 65535 (one block plane per z)";
    return NULL;
}

// ---- 2. bad mapping: threadIdx.x runs along z, so the 32 loads of a warp are a whole plane
// apart and each one needs its own memory transaction ----

__global__ void star7_bad_mapping(const float *in, float *out, int nx, int ny, int nz)
{
    const size_t sy = nx, sz = (size_t)nx * ny;
    int z = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int x = blockIdx.z;
    if (z >= nz || y >= ny) return;
    size_t s = z * sz + y * sy + x;
    // TODO(student): the same point update as in star7_naive.
    // BEGIN SOLUTION
    out[s] = on_face(x, y, z, nx, ny, nz) ? in[s] : star7(in, s, sy, sz);
    // END SOLUTION
}

static void launch_bad_mapping(const struct problem *p, const struct grids *g)
{
    dim3 block(BX, BY, 1);
    dim3 grid(blocks(p->n[2], BX), blocks(p->n[1], BY), (unsigned)p->n[0]);
    star7_bad_mapping<<<grid, block>>>(g->in, g->out, (int)p->n[0], (int)p->n[1], (int)p->n[2]);
}

static const char *refuse_bad_mapping(const struct problem *p)
{
    if (p->n[2] > 0x7fffffff) return "nz must be below 2^31 (int coordinates)";
    if (blocks(p->n[1], BY) > MAX_GRID_YZ) return "ny must be at most 524280 (65535 blocks of 8 rows)";
    if (p->n[0] > MAX_GRID_YZ) return "nx must be at most 65535 (one block plane per x)";
    return NULL;
}

// ---- the model, the reference, the lab ----

static void redundancy_naive(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = 7;  // every neighbour is a separate global load, whatever the caches do
    *w = 1;
}

static void reference(const struct problem *p, int kind, const float *in, double *ref)
{
    (void)kind;
    double c[2];
    laplacian_coefficients(2, c);
    ref_star3d(in, ref, p->n, 1, c);
}

// The stencil reaches one plane beyond the point; a bug reaching one more still hits NaN.
static size_t guard(const struct problem *p) { return 2 * (p->n[0] * p->n[1] + p->n[0] + 1); }

static const struct variant VARIANTS[] = {
    {"naive", "one thread per point, threadIdx.x along x (coalesced), 32x8 blocks", launch_naive,
     refuse_naive, redundancy_naive},
    {"bad_mapping", "the same kernel with threadIdx.x along z (uncoalesced)", launch_bad_mapping,
     refuse_bad_mapping, redundancy_naive},
};

static const struct lab LAB = {
    .number = 2,
    .name = "naive7pt",
    .title = "naive 3D 7-point stencil, well and badly mapped",
    .dims = 3,
    .default_n = {512, 512, 512},
    .min_n = {1, 1, 1},
    .bytes_per_point = 8,  // read the input once, write the output once
    .l2_tol = 1e-5,
    .atol = 1e-5,
    .rtol = 1e-5,
    .reference = reference,
    .guard = guard,
    .setup = set_coefficients,
    .variants = VARIANTS,
    .n_variants = sizeof VARIANTS / sizeof *VARIANTS,
};

int main(int argc, char **argv) { return lab_main(&LAB, argc, argv); }
