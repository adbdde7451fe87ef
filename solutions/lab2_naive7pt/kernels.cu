// SPDX-License-Identifier: MIT
// Lab 2 (naive7pt), the kernels: the 3D 7-point stencil, one thread per output point, every
// neighbour read straight from global memory. The model says 7 reads per point; the lab measures
// how much of that the caches of a modern GPU absorb, and what a mapping that breaks coalescing
// costs.
// Build and run: make lab2 && ./lab2        (make sol2 && ./sol2 for the reference solution)
// The problem (lab.c): ctx->in[0] is the input, ctx->out[0] the output; launch on ctx->stream.
#include "star.cuh"

// The stencil: out = c0*centre + c1*(sum of the 6 face neighbours), the second-order Laplacian
// (c_star[0] = -6, c_star[1] = 1, put in constant memory by setup_kernels). Points on the faces
// of the grid copy the input.
extern "C" void setup_kernels(const struct problem *p) { star_setup(p); }

// One point, read straight from global memory. s is its linear index.
__device__ __forceinline__ float star7(const float *in, size_t s, size_t sy, size_t sz)
{
    return c_star[0] * in[s] +
           c_star[1] * (in[s - 1] + in[s + 1] + in[s - sy] + in[s + sy] + in[s - sz] + in[s + sz]);
}

// ---- 1. naive: threadIdx.x runs along x, so a warp reads 32 consecutive floats ----
// One block row of 32x8 points per (blockIdx.y, blockIdx.z); blockIdx.z is the plane.

enum { BX = 32, BY = 8, MAX_GRID_YZ = 65535 };

__global__ void star7_naive(const float *in, float *out, int nx, int ny, int nz)
{
    const size_t sy = nx, sz = (size_t)nx * ny;
    // TODO(student): find this thread's point (x, y, z) from the launch in launch_naive:
    // threadIdx.x runs along x, threadIdx.y along y, and each block plane is one z
    // (blockIdx.z). Return if the point is outside the grid. Then write out[s], s its linear
    // index (x fastest; sy and sz above are the y and z strides): the input unchanged on the
    // faces of the grid (near_face), the stencil (star7) everywhere else.
    // BEGIN SOLUTION
    // One block plane per z, no loop: on an H100 a loop over z and y (which would lift the
    // 65535-block limit of refuse_naive) cost a fifth of the bandwidth.
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z;
    if (x >= nx || y >= ny) return;
    size_t s = z * sz + y * sy + x;
    out[s] = near_face(x, y, z, nx, ny, nz, 1) ? in[s] : star7(in, s, sy, sz);
    // END SOLUTION
}

extern "C" void launch_naive(const struct problem *p, const struct context *ctx)
{
    dim3 block(BX, BY, 1);
    dim3 grid(ceil_div(p->n[0], BX), ceil_div(p->n[1], BY), (unsigned)p->n[2]);
    star7_naive<<<grid, block, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], (int)p->n[0], (int)p->n[1], (int)p->n[2]);
}

// The grid's y and z dimensions hold at most 65535 blocks. (A loop over z and y would lift
// the limit; the lab keeps the plain mapping and refuses what does not fit.)
extern "C" const char *refuse_naive(const struct problem *p)
{
    if (p->n[0] > 0x7fffffff) return "nx must be below 2^31 (int coordinates)";
    if (ceil_div(p->n[1], BY) > MAX_GRID_YZ) return "ny must be at most 524280 (65535 blocks of 8 rows)";
    if (p->n[2] > MAX_GRID_YZ) return "nz must be at most 65535 (one block plane per z)";
    return NULL;
}

// ---- 2. bad mapping: threadIdx.x runs along z, so the 32 loads of a warp are a whole plane
// apart and each one needs its own memory transaction ----

__global__ void star7_bad_mapping(const float *in, float *out, int nx, int ny, int nz)
{
    const size_t sy = nx, sz = (size_t)nx * ny;
    // TODO(student): find this thread's point from the launch in launch_bad_mapping:
    // threadIdx.x runs along z, threadIdx.y along y, and each block plane is one x
    // (blockIdx.z). Return if the point is outside the grid, then write out[s] as in
    // star7_naive.
    // BEGIN SOLUTION
    int z = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int x = blockIdx.z;
    if (z >= nz || y >= ny) return;
    size_t s = z * sz + y * sy + x;
    out[s] = near_face(x, y, z, nx, ny, nz, 1) ? in[s] : star7(in, s, sy, sz);
    // END SOLUTION
}

extern "C" void launch_bad_mapping(const struct problem *p, const struct context *ctx)
{
    dim3 block(BX, BY, 1);
    dim3 grid(ceil_div(p->n[2], BX), ceil_div(p->n[1], BY), (unsigned)p->n[0]);
    star7_bad_mapping<<<grid, block, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], (int)p->n[0], (int)p->n[1], (int)p->n[2]);
}

extern "C" const char *refuse_bad_mapping(const struct problem *p)
{
    if (p->n[2] > 0x7fffffff) return "nz must be below 2^31 (int coordinates)";
    if (ceil_div(p->n[1], BY) > MAX_GRID_YZ) return "ny must be at most 524280 (65535 blocks of 8 rows)";
    if (p->n[0] > MAX_GRID_YZ) return "nx must be at most 65535 (one block plane per x)";
    return NULL;
}

// ---- the model ----

extern "C" void model_naive(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = 7;  // every neighbour is a separate global load, whatever the caches do
    *w = 1;
}

extern "C" void model_bad_mapping(const struct problem *p, double *r, double *w) { model_naive(p, r, w); }
