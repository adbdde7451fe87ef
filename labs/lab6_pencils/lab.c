// SPDX-License-Identifier: MIT
// Lab 6 (pencils), the definition: 8th-order first derivatives d/dx, d/dy, d/dz (the variant's
// kind) on the periodic unit cube x_i = i/n; the CPU reference, the smooth input with its
// analytic derivative, the cases. The kernels are in kernels.cu.
#define _DEFAULT_SOURCE  // M_PI
#include <math.h>
#include <stdlib.h>

#include "definition.h"
#include "tap.h"

// df/dx_i = sum_k c_k (f_{i+k} - f_{i-k}) / h, indices mod n.
static const double DERIV8[4] = {4.0 / 5, -1.0 / 5, 4.0 / 105, -1.0 / 280};

static void ref_deriv8_periodic(const float *in, double *out, const size_t n[MAX_DIMS], int dim, double h)
{
    const size_t stride[3] = {1, n[0], n[0] * n[1]}, len = n[dim], st = stride[dim];
    const size_t count = n[0] * n[1] * n[2];
#pragma omp parallel for
    for (size_t i = 0; i < count; i++) {
        size_t c = (i / st) % len;  // coordinate along dim
        size_t base = i - c * st;
        double s = 0;
        for (size_t k = 1; k <= 4; k++) {
            size_t up = (c + k) % len, down = (c + len * 4 - k) % len;  // periodic images
            s += DERIV8[k - 1] * ((double)in[base + up * st] - in[base + down * st]);
        }
        out[i] = s / h;
    }
}

static void reference(const struct problem *p, int dir, const float *const *in, double *ref)
{
    ref_deriv8_periodic(in[0], ref, p->n, dir, 1.0 / (double)p->n[dir]);
}

// f = sin(8 pi (x + 0.1)) + 2 sin(8 pi (y + 0.3)) + 3 sin(8 pi (z + 0.7)): smooth, periodic
// (four waves across the cube, so the eighth-order slope shows over several grids before
// float rounding takes over), and symmetric about no face, so a wrong image cannot cancel out.
static void smooth(const struct problem *p, int dir, float *const *in, double *exact)
{
    float *f = in[0];
    const double w = 8 * M_PI, amp[3] = {1, 2, 3}, shift[3] = {0.1, 0.3, 0.7};
    const size_t nx = p->n[0], ny = p->n[1], nz = p->n[2];
#pragma omp parallel for collapse(2)
    for (size_t k = 0; k < nz; k++)
        for (size_t j = 0; j < ny; j++)
            for (size_t i = 0; i < nx; i++) {
                double x[3] = {(double)i / nx, (double)j / ny, (double)k / nz};
                double s = 0;
                for (int d = 0; d < 3; d++) s += amp[d] * sin(w * (x[d] + shift[d]));
                size_t idx = (k * ny + j) * nx + i;
                f[idx] = (float)s;
                exact[idx] = amp[dir] * w * cos(w * (x[dir] + shift[dir]));
            }
}

static const size_t CONV_N[] = {9, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256};

// The reference: exact on the lowest wave up to rounding, eighth order on a finer one, along
// each dimension, with the periodic images right at every face.
static int self_test(void)
{
    double err[2][3];
    const size_t sizes[2] = {16, 24};
    for (int s = 0; s < 2; s++) {
        size_t n[3] = {sizes[s], sizes[s], sizes[s]}, count = n[0] * n[1] * n[2];
        float *f = malloc(count * sizeof *f);
        double *df = malloc(count * sizeof *df);
        const double w = 4 * M_PI, shift[3] = {0.1, 0.3, 0.7};  // two waves, no symmetric face
        for (int dim = 0; dim < 3; dim++) {
            for (size_t i = 0; i < count; i++) {
                size_t c[3] = {i % n[0], (i / n[0]) % n[1], i / (n[0] * n[1])};
                f[i] = (float)sin(w * ((double)c[dim] / (double)n[dim] + shift[dim]));
            }
            ref_deriv8_periodic(f, df, n, dim, 1.0 / (double)n[dim]);
            err[s][dim] = 0;
            for (size_t i = 0; i < count; i++) {
                size_t c[3] = {i % n[0], (i / n[0]) % n[1], i / (n[0] * n[1])};
                double exact = w * cos(w * ((double)c[dim] / (double)n[dim] + shift[dim]));
                err[s][dim] = fmax(err[s][dim], fabs(df[i] - exact));
            }
        }
        free(f);
        free(df);
    }
    for (int dim = 0; dim < 3; dim++)
        is_near(log(err[0][dim] / err[1][dim]) / log(24.0 / 16.0), 8.0, 0.4,
                "d/d%c: error falls as h^8 from n = 16 to 24 (%.2e -> %.2e)", "xyz"[dim],
                err[0][dim], err[1][dim]);
    double sum = 0;
    for (int k = 0; k < 4; k++) sum += 2 * (k + 1) * DERIV8[k];
    is_near(sum, 1.0, 1e-15, "the weights differentiate x exactly: sum 2 k c_k = 1");
    return done_testing();
}

void setup_kernels(const struct problem *p);
DECLARE_VARIANT(x_spencils);
DECLARE_VARIANT(x_lpencils);
DECLARE_VARIANT(y_spencils);
DECLARE_VARIANT(y_lpencils);
DECLARE_VARIANT(z_spencils);
DECLARE_VARIANT(z_lpencils);

enum { D_DX, D_DY, D_DZ };  // the kinds of answer
static const struct variant VARIANTS[] = {
    VARIANT(x_spencils, "d/dx, 4 pencils of nx (64x4 threads)", D_DX),
    VARIANT(x_lpencils, "d/dx, 32 pencils of nx (64x8 threads; the 64x32 tile at 64^3)", D_DX),
    VARIANT(y_spencils, "d/dy, 4 pencils of ny (4x64 threads)", D_DY),
    VARIANT(y_lpencils, "d/dy, 32 pencils of ny (32x16 threads)", D_DY),
    VARIANT(z_spencils, "d/dz, 4 pencils of nz (4x64 threads)", D_DZ),
    VARIANT(z_lpencils, "d/dz, 32 pencils of nz (32x16 threads)", D_DZ),
};

// The seeds' 64^3, the smallest grid the stencil allows (9), sizes that are not multiples of a
// tile, and every dimension the odd one out.
static const struct lab_case CASES[] = {
    {"test grade", "--size 64"},         {"test grade", "--size 96x200x72"}, {"test grade", "--size 9x9x9"},
    {"test grade", "--size 9x10x11"},    {"test grade", "--size 13x17x19"},  {"test grade", "--size 100x9x33"},
    {"test grade", "--size 33x9x9"},     {"test", "--size 256"},
    {"small sanitize", "--size 33x20x17"},
    {"too-big", "--variant x_spencils --size 1024x1024x65535"},
    {"refused", "--size 8x64x64"},       {"refused", "--size 64x64x5"},
    {"refused", "--variant x_lpencils --size 4000x64x64"},
};

// sum over k = 1..4 of c_k * (f[+k] - f[-k]): four subtracts, four multiplies, three adds.
static double flops(const struct problem *p)
{
    (void)p;
    return 11;
}

const struct lab LAB = {
    .id = "6",
    .name = "pencils",
    .title = "8th-order x, y and z derivatives on a periodic grid with pencil tiles",
    CUBE_512,
    ONE_IN_ONE_OUT,
    .bytes_per_point = 8,  // read f once, write the derivative once
    .flops_per_point = flops,
    .l2_tol = 1e-5,
    .atol = 1e-5,
    .rtol = 1e-5,
    .reference = LAB_REFERENCE(reference),
    .smooth = smooth,
    .conv_n = CONV_N,
    .n_conv = COUNT(CONV_N),
    .report_launch = 1,
    .setup = setup_kernels,
    LAB_TABLES,  // VARIANTS and CASES above
    .self_test = LAB_REFERENCE(self_test),
};
