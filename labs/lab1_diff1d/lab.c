// SPDX-License-Identifier: MIT
// Lab 1 (diff1d), the definition: f'(x) ~ (f(x+h) - f(x-h)) / 2h on x_i = i h, h = 1/n, the two
// end points copying the input (the course's boundary rule); the CPU reference in double, the
// analytic answer of sin(2 pi x), the cases every kernels file is tested and graded on.
// The kernels are in kernels.cu: ctx->in[0] is f, ctx->out[0] is f'.
#define _DEFAULT_SOURCE  // M_PI
#include <math.h>
#include <stdlib.h>

#include "definition.h"
#include "tap.h"

static double spacing(size_t n) { return 1.0 / (double)n; }

static void ref_diff1d(const float *f, double *df, size_t n, double h)
{
#pragma omp parallel for
    for (size_t i = 0; i < n; i++)
        df[i] = (i == 0 || i == n - 1) ? f[i] : ((double)f[i + 1] - f[i - 1]) / (2 * h);
}

static void reference(const struct problem *p, int kind, const float *const *in, double *ref)
{
    (void)kind;
    ref_diff1d(in[0], ref, p->n[0], spacing(p->n[0]));
}

// ---- the analytic answer: f = sin(2 pi x), f' = 2 pi cos(2 pi x) ----
// --convergence runs it for n = 2^4 .. 2^22: the truncation error falls as h^2 until the
// rounding of the float inputs, about 2^-25 / h, takes over. The two end points copy the input,
// so their exact answer is the input itself.

static void smooth(const struct problem *p, int kind, float *const *in, double *exact)
{
    float *f = in[0];
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

// The reference converges as h^2 on a smooth function (n small enough that the float rounding
// of the input stays far below the truncation error), and copies the end points.
static int self_test(void)
{
    double err[2];
    for (int k = 0; k < 2; k++) {
        size_t n = k ? 129 : 65;
        double h = 1.0 / (double)(n - 1);
        float *f = malloc(n * sizeof *f);
        double *df = malloc(n * sizeof *df);
        for (size_t i = 0; i < n; i++) f[i] = (float)sin(2 * M_PI * i * h);
        ref_diff1d(f, df, n, h);
        err[k] = 0;
        for (size_t i = 1; i + 1 < n; i++) {
            double e = fabs(df[i] - 2 * M_PI * cos(2 * M_PI * i * h));
            err[k] = e > err[k] ? e : err[k];
        }
        if (k == 0) ok(df[0] == f[0] && df[n - 1] == f[n - 1], "the end points copy the input");
        free(f);
        free(df);
    }
    is_near(log2(err[0] / err[1]), 2.0, 0.05, "halving h divides the error by 4 (second order)");
    return done_testing();
}

DECLARE_VARIANT(naive);
DECLARE_VARIANT(grid_stride);
DECLARE_VARIANT(vec4);

static const struct variant VARIANTS[] = {
    VARIANT(naive, "one thread per point", 0),
    VARIANT(grid_stride, "one wave of threads looping over the points", 0),
    VARIANT(vec4, "four points per thread with float4 loads and stores", 0),
};

// Sizes around every edge case of the kernels: one point, fewer points than a quad, not a
// multiple of 4, one more than a block.
static const struct lab_case CASES[] = {
    {"test grade", "--size 1000003"}, {"test grade", "--size 1"},    {"test grade", "--size 2"},
    {"test grade", "--size 3"},       {"test grade", "--size 4"},    {"test grade", "--size 5"},
    {"test grade", "--size 7"},       {"test grade", "--size 33"},   {"test grade", "--size 1025"},
    {"small sanitize", "--size 100003"}, {"too-big", "--size 100000000000"},
};

// (f[i+1] - f[i-1]) * inv_2h: a subtract and a multiply per point.
static double flops(const struct problem *p)
{
    (void)p;
    return 2;
}

const struct lab LAB = {
    .id = "1",
    .name = "diff1d",
    .title = "naive 1D central difference, grid-stride and float4 versions",
    .dims = 1,
    .default_n = {(size_t)1 << 28, 1, 1},
    .min_n = {1, 1, 1},
    ONE_IN_ONE_OUT,
    .bytes_per_point = 8,  // read f once, write f' once
    .flops_per_point = flops,
    .l2_tol = 1e-5,
    .atol = 1e-5,
    .rtol = 1e-5,
    .face_atol = 1e-5,  // the end points copy the input (|f| < 1); the interior's scale is rms(f') ~ 0.4 n
    .reference = LAB_REFERENCE(reference),
    .smooth = smooth,
    .conv_n = CONV_N,
    .n_conv = COUNT(CONV_N),
    LAB_TABLES,  // VARIANTS and CASES above
    .self_test = LAB_REFERENCE(self_test),
};
