// SPDX-License-Identifier: MIT
// Lab 1 (diff1d): the derivative f'(x) ~ (f(x+h) - f(x-h)) / 2h, second order in h.
// One thread per point is the whole parallel algorithm; the lab is about how the threads are
// mapped to the points and about moving the fewest bytes in the widest loads.
// Build and run: make lab1 && ./lab1        (make sol1 && ./sol1 for the reference solution)
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

// The grid is x_i = i*h on [0, 1], h = 1/(n-1). The two end points have no neighbour on one
// side; as everywhere in the course, they copy the input.
static double spacing(size_t n) { return n > 1 ? 1.0 / (double)(n - 1) : 1.0; }

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

static void reference(const struct problem *p, const float *in, double *ref)
{
    ref_diff1d(in, ref, p->n[0], spacing(p->n[0]));
}

// ---- convergence: the error against the analytic derivative as h shrinks ----
// f(x) = sin(2 pi x), f'(x) = 2 pi cos(2 pi x). The truncation error falls as h^2 until the
// rounding of the float inputs, about 6e-8 / h, takes over: the sweep shows both.

struct conv_row {
    const char *variant;
    size_t n;
    double h, max_err, rms_err;
};
struct conv_rows {
    const char *gpu;
    const struct conv_row *rows;
    int count;
};

static void write_conv(FILE *f, void *ctx)
{
    const struct conv_rows *c = (const struct conv_rows *)ctx;
    for (int i = 0; i < c->count; i++)
        fprintf(f, "%s,lab1_diff1d,%s,%zu,%.9e,%.6e,%.6e,%s\n", c->gpu, c->rows[i].variant,
                c->rows[i].n, c->rows[i].h, c->rows[i].max_err, c->rows[i].rms_err, BUILD_COMMIT);
}

static int run_convergence(const struct options *o)
{
    enum { FIRST = 4, LAST = 22, MAX_ROWS = (LAST - FIRST + 1) * MAX_SELECTED };
    struct device dev;
    double copy_gbps;
    int rc = lab_setup(o, &dev, 0, &copy_gbps);
    if (rc) return rc;
    size_t nmax = (size_t)1 << LAST, guard = 1024;
    float *h_f = (float *)malloc(nmax * sizeof(float)), *h_df = (float *)malloc(nmax * sizeof(float));
    struct conv_row *rows = (struct conv_row *)malloc(MAX_ROWS * sizeof *rows);
    if (!h_f || !h_df || !rows) return 2;
    float *d_f = grid_alloc(nmax, guard), *d_df = grid_alloc(nmax, guard);
    const double two_pi = 2 * M_PI;
    int count = 0, ok = 1;
    if (!o->quiet)
        printf("error of f' against 2 pi cos(2 pi x), f = sin(2 pi x) on [0, 1], interior points\n"
               "%-12s | %9s | %10s | %10s | %10s | %s\n",
               "variant", "n", "h", "max error", "RMS error", "order (from max error)");
    for (int s = 0; s < o->n_selected; s++) {
        const struct variant *v = &o->lab->variants[o->selected[s]];
        double prev = NAN;
        for (int e = FIRST; e <= LAST; e++) {
            struct problem p = o->prob;
            p.n[0] = (size_t)1 << e;
            double h = spacing(p.n[0]);
            for (size_t i = 0; i < p.n[0]; i++) h_f[i] = (float)sin(two_pi * (double)i * h);
            CUDA_CHECK(cudaMemcpy(d_f, h_f, p.n[0] * sizeof(float), cudaMemcpyHostToDevice));
            CUDA_CHECK(cudaMemset(d_df, POISON_BYTE, p.n[0] * sizeof(float)));
            struct grids g = {d_f, d_df};
            v->launch(&p, &g);
            CUDA_CHECK(cudaGetLastError());
            CUDA_CHECK(cudaMemcpy(h_df, d_df, p.n[0] * sizeof(float), cudaMemcpyDeviceToHost));
            double max_err = 0, sum2 = 0;
            for (size_t i = 1; i + 1 < p.n[0]; i++) {
                double err = fabs(h_df[i] - two_pi * cos(two_pi * (double)i * h));
                if (!(err <= max_err)) max_err = err;  // NaN sticks
                sum2 += err * err;
            }
            double rms = sqrt(sum2 / (double)(p.n[0] - 2));
            ok &= !isnan(max_err);
            struct conv_row *row = &rows[count++];
            row->variant = v->name;
            row->n = p.n[0];
            row->h = h;
            row->max_err = max_err;
            row->rms_err = rms;
            if (!o->quiet) {
                printf("%-12s | %9zu | %10.3e | %10.3e | %10.3e |", v->name, p.n[0], h, max_err, rms);
                if (!isnan(prev)) printf(" %.2f", log2(prev / max_err));
                printf("\n");
            }
            prev = max_err;
        }
    }
    if (o->csv) {
        struct conv_rows c = {dev.name, rows, count};
        if (csv_append(o->csv, write_conv, &c, "gpu,lab,variant,n,h,max_err,rms_err,commit")) ok = 0;
    }
    grid_free(d_f, guard);
    grid_free(d_df, guard);
    free(h_f);
    free(h_df);
    free(rows);
    return ok ? 0 : 1;
}

// ---- the lab ----

static const struct variant VARIANTS[] = {
    {"naive", "one thread per point", launch_naive, NULL, redundancy_scalar},
    {"grid_stride", "one wave of threads looping over the points", launch_grid_stride, NULL,
     redundancy_scalar},
    {"vec4", "four points per thread with float4 loads and stores", launch_vec4,
     NULL, redundancy_vec4},
};
static const int N_VARIANTS = sizeof VARIANTS / sizeof *VARIANTS;

static const struct lab_mode MODES[] = {
    {"--convergence", "sweep n = 2^4..2^22 on sin(2 pi x) and print the error against the "
                      "analytic derivative (--csv then writes that table)",
     run_convergence},
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
    .variants = VARIANTS,
    .n_variants = N_VARIANTS,
    .modes = MODES,
    .n_modes = 1,
};

int main(int argc, char **argv) { return lab_main(&LAB, argc, argv); }
