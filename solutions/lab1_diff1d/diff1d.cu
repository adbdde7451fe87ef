// SPDX-License-Identifier: MIT
// Lab 1 (diff1d): the derivative f'(x) ~ (f(x+h) - f(x-h)) / 2h, second order in h.
// One thread per point is the whole parallel algorithm; the lab is about how the threads are
// mapped to the points and about moving the fewest bytes in the widest loads.
// Build and run: make lab1 && ./lab1        (make sol1 && ./sol1 for the reference solution)
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

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
    // BEGIN SOLUTION
    if (i == 0 || i == n - 1) df[i] = f[i];
    else df[i] = (f[i + 1] - f[i - 1]) * inv_2h;
    // END SOLUTION
}

static void launch_naive(const struct problem *p, const struct grids *g)
{
    size_t n = p->n[0];
    size_t blocks = (n + BLOCK - 1) / BLOCK;
    diff_naive<<<(unsigned)blocks, BLOCK>>>(g->in, g->out, n, (float)(0.5 / spacing(n)));
}

// ---- 2. grid-stride: one wave of threads whatever n is, each looping over the points ----

__global__ void diff_grid_stride(const float *f, float *df, size_t n, float inv_2h)
{
    // TODO(student): loop i from this thread's global index to n in steps of the whole grid
    // (gridDim.x * blockDim.x threads) and write df[i] as in diff_naive.
    // BEGIN SOLUTION
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride) {
        if (i == 0 || i == n - 1) df[i] = f[i];
        else df[i] = (f[i + 1] - f[i - 1]) * inv_2h;
    }
    // END SOLUTION
}

// Enough blocks to fill every SM (2048 threads each on current GPUs) once.
static unsigned one_wave(const struct problem *p) { return (unsigned)p->sm_count * (2048 / BLOCK); }

static void launch_grid_stride(const struct problem *p, const struct grids *g)
{
    size_t n = p->n[0];
    diff_grid_stride<<<one_wave(p), BLOCK>>>(g->in, g->out, n, (float)(0.5 / spacing(n)));
}

// ---- 3. vec4: four consecutive points per thread, one 16-byte load and one 16-byte store ----
// The two outer neighbours are separate 4-byte loads; the lines they touch were just brought
// in by the neighbouring threads' float4 loads, so they come from cache, not from DRAM.
// One quad per thread over a grid that covers the array: measured on an H100, this keeps more
// loads in flight than a one-wave grid-stride loop over quads (100% vs 91% of copy bandwidth).

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
        // BEGIN SOLUTION
        float4 c = f4[q];
        float left = f[i > 0 ? i - 1 : 0];
        float right = f[i + 4 < n ? i + 4 : n - 1];
        float4 d;
        d.x = i > 0 ? (c.y - left) * inv_2h : c.x;
        d.y = (c.z - c.x) * inv_2h;
        d.z = (c.w - c.y) * inv_2h;
        d.w = i + 4 < n ? (right - c.z) * inv_2h : c.w;
        df4[q] = d;
        // END SOLUTION
    }
    // The last n % 4 points (all of them when n < 4), one per thread of the first block.
    size_t i = 4 * quads + q;
    if (i < n) df[i] = (i == 0 || i == n - 1) ? f[i] : (f[i + 1] - f[i - 1]) * inv_2h;
}

static void launch_vec4(const struct problem *p, const struct grids *g)
{
    size_t n = p->n[0];
    size_t blocks = (n / 4 + BLOCK - 1) / BLOCK;
    diff_vec4<<<(unsigned)(blocks ? blocks : 1), BLOCK>>>(g->in, g->out, n, (float)(0.5 / spacing(n)));
}

// ---- the model: elements read and written per output point ----

static void redundancy_scalar(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = 2;  // f[i-1] and f[i+1]
    *w = 1;
}

static void redundancy_vec4(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = 6.0 / 4;  // one float4 and two neighbours for four points
    *w = 1;
}

static void reference(const struct problem *p, int kind, const float *in, double *ref)
{
    (void)kind;
    ref_diff1d(in, ref, p->n[0], spacing(p->n[0]));
}

// ---- the analytic answer: f = sin(2 pi x), f' = 2 pi cos(2 pi x) ----
// --convergence runs it for n = 2^4 .. 2^22: the truncation error falls as h^2 until the
// rounding of the float inputs, about 2^-25 / h, takes over. The two end points copy the input,
// so their exact answer is the input itself.

static void smooth(const struct problem *p, int kind, float *f, double *exact)
{
    (void)kind;
    size_t n = p->n[0];
    double h = spacing(n), two_pi = 2 * M_PI;
#pragma omp parallel for
    for (size_t i = 0; i < n; i++) {
        f[i] = (float)sin(two_pi * (double)i * h);
        exact[i] = (i == 0 || i == n - 1) ? f[i] : two_pi * cos(two_pi * (double)i * h);
    }
}

static const size_t CONV_N[] = {1 << 4,  1 << 5,  1 << 6,  1 << 7,  1 << 8,  1 << 9,  1 << 10,
                                1 << 11, 1 << 12, 1 << 13, 1 << 14, 1 << 15, 1 << 16, 1 << 17,
                                1 << 18, 1 << 19, 1 << 20, 1 << 21, 1 << 22};

// ---- the lab ----

static const struct variant VARIANTS[] = {
    {"naive", "one thread per point", launch_naive, NULL, redundancy_scalar},
    {"grid_stride", "one wave of threads looping over the points", launch_grid_stride, NULL,
     redundancy_scalar},
    {"vec4", "four points per thread with float4 loads and stores", launch_vec4,
     NULL, redundancy_vec4},
};

static const struct lab LAB = {
    .number = 1,
    .name = "diff1d",
    .title = "naive 1D central difference, grid-stride and float4 versions",
    .dims = 1,
    .default_n = {(size_t)1 << 28, 1, 1},
    .min_n = {1, 1, 1},
    .bytes_per_point = 8,  // read f once, write f' once
    .l2_tol = 1e-5,
    .atol = 1e-5,
    .rtol = 1e-5,
    .reference = reference,
    .smooth = smooth,
    .conv_n = CONV_N,
    .n_conv = sizeof CONV_N / sizeof *CONV_N,
    .variants = VARIANTS,
    .n_variants = sizeof VARIANTS / sizeof *VARIANTS,
};

int main(int argc, char **argv) { return lab_main(&LAB, argc, argv); }
