// SPDX-License-Identifier: MIT
// Lab 1 (diff1d), the kernels: the derivative f'(x) ~ (f(x+h) - f(x-h)) / 2h, second order in h.
// One thread per point is the whole parallel algorithm; the lab is about how the threads are
// mapped to the points and about moving the fewest bytes in the widest loads.
// Build and run: make lab1 && ./lab1        (make sol1 && ./sol1 for the reference solution)
// The problem (lab.c): ctx->in[0] holds f, ctx->out[0] receives f'; launch on ctx->stream.
#include "lab.h"

// The grid is x_i = i*h on [0, 1), h = 1/n. The two end points have no neighbour on one
// side; as everywhere in the course, they copy the input.
static double spacing(size_t n) { return 1.0 / (double)n; }

enum { BLOCK = 256 };

// ---- 1. naive: one thread per point, as many threads as points ----

__global__ void diff_naive(const float *f, float *df, size_t n, float inv_2h)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i >= n) return;
    // TODO(student): write df[i]: the central difference inside, f[i] at the two end points.
}

extern "C" void launch_naive(const struct problem *p, const struct context *ctx)
{
    size_t n = p->n[0];
    diff_naive<<<ceil_div(n, BLOCK), BLOCK, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], n, (float)(0.5 / spacing(n)));
}

// ---- 2. grid-stride: one wave of threads whatever n is, each looping over the points ----

__global__ void diff_grid_stride(const float *f, float *df, size_t n, float inv_2h)
{
    // TODO(student): loop i from this thread's global index to n in steps of the whole grid
    // (gridDim.x * blockDim.x threads) and write df[i] as in diff_naive.
}

// Enough blocks to fill every SM (2048 threads each on current GPUs) once.
static unsigned one_wave(const struct problem *p) { return (unsigned)p->sm_count * (2048 / BLOCK); }

extern "C" void launch_grid_stride(const struct problem *p, const struct context *ctx)
{
    size_t n = p->n[0];
    diff_grid_stride<<<one_wave(p), BLOCK, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], n, (float)(0.5 / spacing(n)));
}

// ---- 3. vec4: four consecutive points per thread, one 16-byte load and one 16-byte store ----
// The two outer neighbours are separate 4-byte loads. One quad per thread, over a grid that
// covers the array.

__global__ void diff_vec4(const float *f, float *df, size_t n, float inv_2h)
{
    const float4 *f4 = (const float4 *)f;  // the harness aligns every grid to 256 bytes
    float4 *df4 = (float4 *)df;
    size_t quads = n / 4;
    size_t q = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (q < quads) {
        size_t i = 4 * q;
        // TODO(student): load f4[q] and the neighbours f[i-1] and f[i+4] (mind the two ends
        // of the array), compute the four derivatives and store them with one float4 store.
    }
    // The last n % 4 points (all of them when n < 4), one per thread of the first block.
    size_t i = 4 * quads + q;
    if (i < n) df[i] = (i == 0 || i == n - 1) ? f[i] : (f[i + 1] - f[i - 1]) * inv_2h;
}

extern "C" void launch_vec4(const struct problem *p, const struct context *ctx)
{
    size_t n = p->n[0];
    unsigned blocks = ceil_div(n / 4, BLOCK);
    diff_vec4<<<blocks ? blocks : 1, BLOCK, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], n, (float)(0.5 / spacing(n)));
}

// ---- what each variant can run, and its model: elements read and written per output point ----

// Any n runs (a grid of 2^31 blocks would be 2^39 points: more than any GPU's memory holds).
extern "C" const char *refuse_naive(const struct problem *p) { (void)p; return NULL; }
extern "C" const char *refuse_grid_stride(const struct problem *p) { (void)p; return NULL; }
extern "C" const char *refuse_vec4(const struct problem *p) { (void)p; return NULL; }

extern "C" void model_naive(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = 2;  // f[i-1] and f[i+1]
    *w = 1;
}

extern "C" void model_grid_stride(const struct problem *p, double *r, double *w) { model_naive(p, r, w); }

extern "C" void model_vec4(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = 6.0 / 4;  // one float4 and two neighbours for four points
    *w = 1;
}
