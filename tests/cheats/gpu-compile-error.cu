// SPDX-License-Identifier: MIT
// Cheat: a kernels file that does not compile: its lab gets no points, the others are graded
// lab: lab4_coarsening
// expect: coarse_z8=fail coarse_z32=fail coarse_z128=fail
// Lab 4 (coarsening), the kernels: the 7-point stencil with thread coarsening along z (004). A 2D block of
// T x T threads marches through a chunk of Z planes, keeping three planes (prev, curr, next) in
// shared memory: each step loads one new plane instead of a whole 3D tile. Blocks are larger
// (T = 32 where lab 3 stops at T = 10), the halo share is smaller, and shared memory holds
// 3T^2 values instead of T^3.
// Build and run: make lab4 && ./lab4        (make sol4 && ./sol4 for the reference solution)
// The problem (lab.c): ctx->in[0] is the input, ctx->out[0] the output; launch on ctx->stream.
#include "star.cuh"

extern "C" void setup_kernels(const struct problem *p) { star_setup(p) }  // a missing semicolon

constexpr int T = 32, OUT = T - 2;  // input plane tile T x T, output tile (T-2) x (T-2)

template <int Z>
__global__ void __launch_bounds__(T * T) star7_coarse(const float *in, float *out, int nx, int ny, int nz)
{
    __shared__ float prev[T][T], curr[T][T], next[T][T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * OUT + tx - 1, y = blockIdx.y * OUT + ty - 1, z0 = blockIdx.z * Z;
    const bool in_plane = x >= 0 && y >= 0 && x < nx && y < ny;
    const bool output = in_plane && tx >= 1 && ty >= 1 && tx <= OUT && ty <= OUT;
    const size_t sz = (size_t)nx * ny, s0 = (size_t)y * nx + x;  // s0: offset within a plane
    if (in_plane && z0 >= 1) prev[ty][tx] = in[(z0 - 1) * sz + s0];
    if (in_plane) curr[ty][tx] = in[z0 * sz + s0];
    for (int z = z0; z < z0 + Z && z < nz; z++) {
        // TODO(student): load plane z+1 into next (if it exists), wait for the whole block,
        // write out at plane z from the three planes (the input on the faces of the grid),
        // wait again, then shift: curr becomes prev, next becomes curr.
        // BEGIN SOLUTION
        if (in_plane && z + 1 < nz) next[ty][tx] = in[(z + 1) * sz + s0];
        __syncthreads();
        if (output) {
            size_t s = z * sz + s0;
            if (near_face(x, y, z, nx, ny, nz, 1))
                out[s] = curr[ty][tx];
            else
                out[s] = c_star[0] * curr[ty][tx] +
                         c_star[1] * (curr[ty][tx - 1] + curr[ty][tx + 1] + curr[ty - 1][tx] +
                                      curr[ty + 1][tx] + prev[ty][tx] + next[ty][tx]);
        }
        // Sync again so that no thread overwrites prev or curr while others still read them.
        __syncthreads();
        prev[ty][tx] = curr[ty][tx];
        curr[ty][tx] = next[ty][tx];
        // END SOLUTION
    }
}

template <int Z>
static void launch(const struct problem *p, const struct context *ctx)
{
    dim3 block(T, T), grid(ceil_div(p->n[0], OUT), ceil_div(p->n[1], OUT), ceil_div(p->n[2], Z));
    star7_coarse<Z><<<grid, block, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], (int)p->n[0], (int)p->n[1], (int)p->n[2]);
}

template <int Z>
static const char *refuse(const struct problem *p)
{
    return refuse_grid(p, ceil_div(p->n[1], OUT), ceil_div(p->n[2], Z));
}

// Model: a block reads (Z + 2) planes of T x T to write Z planes of (T-2) x (T-2).
template <int Z>
static void redundancy(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = (double)(T * T) * (Z + 2) / ((double)OUT * OUT * Z);
    *w = 1;
}

// The variants are the chunk lengths Z = 8, 32, 128.
#define CHUNK_VARIANT(Z)                                                                                        \
    extern "C" void launch_coarse_z##Z(const struct problem *p, const struct context *ctx) { launch<Z>(p, ctx); } \
    extern "C" const char *refuse_coarse_z##Z(const struct problem *p) { return refuse<Z>(p); }                  \
    extern "C" void model_coarse_z##Z(const struct problem *p, double *r, double *w) { redundancy<Z>(p, r, w); }
CHUNK_VARIANT(8)
CHUNK_VARIANT(32)
CHUNK_VARIANT(128)
