// SPDX-License-Identifier: MIT
// Lab 7 (heat_multistep), the definition: the explicit (FTCS) heat equation
//   u'(x) = u(x) + D * (sum of the 2d nearest neighbours of x - 2d u(x)),  D = alpha dt / h^2,
// in 2D (5-point) or 3D (7-point, when --size has three numbers), S = --steps time steps, the
// faces fixed (they keep the input: the course's rule). Stable for D <= 1/4 in 2D and 1/6 in
// 3D; a larger --diffusion is refused. The kernels (kernels.cu) get the initial field in
// ctx->in[0], must leave the field after S steps in ctx->out[0], and may use ctx->scratch[0].
#define _DEFAULT_SOURCE  // M_PI
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "definition.h"
#include "reference.h"
#include "tap.h"

enum { DIFFUSION, DISCS };  // p->param[...]

static const char *validate(const struct problem *p)
{
    static char why[160];
    double limit = 1.0 / (2 * p->dims);
    if (p->dims == 1) return "lab 7 is 2D or 3D: give --size NXxNY or NXxNYxNZ";
    if (p->param[DIFFUSION] > limit) {
        snprintf(why, sizeof why, "--diffusion %g is unstable in %dD: FTCS needs D <= 1/%d = %.4g",
                 p->param[DIFFUSION], p->dims, 2 * p->dims, limit);
        return why;
    }
    return NULL;
}

// Every step rounds each point to float a few times. The scheme is a convex combination of the
// old values when D <= 1/(2d), so it never amplifies an error, and the roundings of S steps add
// up like a random walk. Measured on an H100 (every variant against this reference, relative to
// rms + |ref|): L2 errors of 6e-8 at S = 64; at S = 4000 on 512^2, 7.3e-7 (random input) and up
// to 4.6e-6 (--discs 6, a field that fades), no point beyond 1e-5. One step missing at S = 4000
// (random input) leaves an L2 error of 3.1e-5 and points off by up to 1e-4: a tolerance growing
// like sqrt(S) sees it, where one growing like S (8e-4 at S = 4000) did not.
static void tolerance(const struct problem *p, double *l2, double *atol, double *rtol)
{
    const double s = sqrt((double)p->steps);
    *l2 = 2e-6 + 1.5e-7 * s;            // 1.15e-5 at S = 4000
    *atol = *rtol = 3e-6 + 1.5e-7 * s;  // 1.25e-5 at S = 4000
}

// S steps in double, two buffers; faces copy the old value (which is the input).
static void heat_steps(const struct problem *p, const float *in, double *out)
{
    const size_t nx = p->n[0], ny = p->n[1], nz = p->n[2], sy = nx, sz = nx * ny;
    const size_t count = nx * ny * nz;
    const int three = p->dims == 3;
    const double D = p->param[DIFFUSION], centre = 2.0 * p->dims;
    double *a = out, *b = malloc(count * sizeof *b);
    if (!b) {
        fprintf(stderr, "lab 7: not enough host memory for the reference\n");
        exit(2);
    }
    // The steps ping-pong between out and b; start so that the last one lands in out.
    double *cur = p->steps % 2 ? b : a, *nxt = p->steps % 2 ? a : b;
#pragma omp parallel for
    for (size_t i = 0; i < count; i++) cur[i] = in[i];
    for (int s = 0; s < p->steps; s++) {
#pragma omp parallel for collapse(2)
        for (size_t z = 0; z < nz; z++)
            for (size_t y = 0; y < ny; y++)
                for (size_t x = 0; x < nx; x++) {
                    size_t i = z * sz + y * sy + x;
                    int face = x == 0 || y == 0 || x == nx - 1 || y == ny - 1 || (three && (z == 0 || z == nz - 1));
                    if (face) {
                        nxt[i] = cur[i];
                        continue;
                    }
                    double sum = cur[i - 1] + cur[i + 1] + cur[i - sy] + cur[i + sy];
                    if (three) sum += cur[i - sz] + cur[i + sz];
                    nxt[i] = cur[i] + D * (sum - centre * cur[i]);
                }
        double *t = cur;
        cur = nxt;
        nxt = t;
    }
    free(b);
}

// The initial field: uniform random in [-1, 1), or with --discs N, N hot discs (spheres in 3D)
// at 1 on a cold plate at 0, placed by the seed: the picture of the handout.
static void input(const struct problem *p, int field, unsigned long long seed, float *a)
{
    const size_t nx = p->n[0], ny = p->n[1], nz = p->n[2], count = nx * ny * nz;
    const int discs = (int)p->param[DISCS];
    if (discs == 0) {
        fill_random(a, count, field_seed(seed, field));
        return;
    }
    double c[64][3], r2[64];
    size_t small = nx < ny ? nx : ny;
    if (p->dims == 3 && nz < small) small = nz;
    for (int k = 0; k < discs; k++) {
        for (int d = 0; d < 3; d++) c[k][d] = (0.15 + 0.7 * (random_value(seed, 4 * k + d) + 1) / 2) * p->n[d];
        double r = (0.04 + 0.06 * (random_value(seed, 4 * k + 3) + 1) / 2) * small;
        r2[k] = r * r;
    }
#pragma omp parallel for collapse(2)
    for (size_t z = 0; z < nz; z++)
        for (size_t y = 0; y < ny; y++)
            for (size_t x = 0; x < nx; x++) {
                float v = 0;
                for (int k = 0; k < discs; k++) {
                    double dx = x - c[k][0], dy = y - c[k][1], dz = p->dims == 3 ? z - c[k][2] : 0;
                    if (dx * dx + dy * dy + dz * dz <= r2[k]) v = 1;
                }
                a[(z * ny + y) * nx + x] = v;
            }
}

// Without discs the field is random_value itself: a rule the harness also makes on the GPU.
static int input_rule(const struct problem *p, int field, double *scale, double *offset, double *slope)
{
    (void)field;
    if (p->param[DISCS] != 0) return 0;
    for (size_t z = 0; z < p->n[2]; z++) scale[z] = 1;
    *offset = 0;
    *slope = 1;
    return 1;
}

static void reference(const struct problem *p, int kind, const float *const *in, double *ref)
{
    (void)kind;
    heat_steps(p, in[0], ref);
}

// ---- the analytic answer, which does not come from the reference ----
// On x_i = i / (n - 1) the mode sin(pi k x) vanishes on both faces, and the discrete Laplacian
// multiplies it by -4 sin^2(pi k h / 2) exactly. So under FTCS with fixed (zero) faces the mode
// sin(pi kx x) sin(pi ky y) [sin(pi kz z)] decays by exactly
//   lambda = 1 - 4D (sin^2(pi kx hx/2) + sin^2(pi ky hy/2) [+ sin^2(pi kz hz/2)])
// per step: after S steps the answer is lambda^S times the mode.
static const int MODE[3] = {1, 2, 3};

static double mode_at(const struct problem *p, size_t i, size_t j, size_t k)
{
    size_t c[3] = {i, j, k};
    double v = 1;
    for (int d = 0; d < p->dims; d++)
        v *= p->n[d] > 1 ? sin(M_PI * MODE[d] * (double)c[d] / (double)(p->n[d] - 1)) : 0;
    return v;
}

static double decay_per_step(const struct problem *p)
{
    double s = 0;
    for (int d = 0; d < p->dims; d++) {
        double h = p->n[d] > 1 ? 1.0 / (double)(p->n[d] - 1) : 1;
        double q = sin(M_PI * MODE[d] * h / 2);
        s += q * q;
    }
    return 1 - 4 * p->param[DIFFUSION] * s;
}

static void smooth(const struct problem *p, int kind, float *const *fields, double *exact)
{
    float *in = fields[0];
    (void)kind;
    const size_t nx = p->n[0], ny = p->n[1], nz = p->n[2];
    double decay = pow(decay_per_step(p), p->steps);
#pragma omp parallel for collapse(2)
    for (size_t k = 0; k < nz; k++)
        for (size_t j = 0; j < ny; j++)
            for (size_t i = 0; i < nx; i++) {
                size_t idx = (k * ny + j) * nx + i;
                double m = mode_at(p, i, j, k);
                in[idx] = (float)m;
                // The faces keep the input (zero, up to the rounding of sin(pi k) in float).
                int face = i == 0 || j == 0 || i == nx - 1 || j == ny - 1 || (p->dims == 3 && (k == 0 || k == nz - 1));
                exact[idx] = face ? in[idx] : decay * m;
            }
}

// The reference against the analytic answer (2D and 3D, S odd and even, a D near the limit),
// the stability limit, and the steps landing in the output whatever their parity.
static int self_test(void)
{
    struct problem p = {0};
    for (int dims = 2; dims <= 3; dims++)
        for (int steps = 1; steps <= 8; steps += 7) {
            p.dims = dims;
            p.n[0] = 33, p.n[1] = 21, p.n[2] = dims == 3 ? 17 : 1;
            p.steps = steps;
            p.param[DIFFUSION] = dims == 2 ? 0.24 : 0.16;
            size_t count = p.n[0] * p.n[1] * p.n[2];
            float *in = malloc(count * sizeof *in);
            double *exact = malloc(count * sizeof *exact), *ref = malloc(count * sizeof *ref);
            smooth(&p, 0, &in, exact);
            heat_steps(&p, in, ref);
            double err = 0, top = 0;
            for (size_t i = 0; i < count; i++) {
                err = fmax(err, fabs(ref[i] - exact[i]));
                top = fmax(top, fabs(exact[i]));
            }
            ok(err <= 1e-6 * top, "%dD, %d steps: the reference decays the mode by lambda^S (max error %.1e of %.2f)",
               dims, steps, err, top);
            free(in);
            free(exact);
            free(ref);
        }
    p.dims = 2;
    p.param[DIFFUSION] = 0.25;
    ok(validate(&p) == NULL, "D = 1/4 is stable in 2D");
    p.param[DIFFUSION] = 0.2501;
    ok(validate(&p) != NULL, "D > 1/4 is refused in 2D");
    p.dims = 3;
    p.param[DIFFUSION] = 0.17;
    ok(validate(&p) != NULL, "D > 1/6 is refused in 3D: %s", validate(&p));
    // One step by hand: a single hot point spreads D to each neighbour.
    p.dims = 2, p.n[0] = 5, p.n[1] = 5, p.n[2] = 1, p.steps = 1, p.param[DIFFUSION] = 0.2;
    float hot[25] = {0};
    hot[12] = 1;
    double out[25];
    heat_steps(&p, hot, out);
    ok(fabs(out[12] - 0.2) < 1e-15 && fabs(out[7] - 0.2) < 1e-15 && fabs(out[11] - 0.2) < 1e-15 && out[0] == 0,
       "one step of a hot point: 1 - 4D at the centre, D at the four neighbours");
    return done_testing();
}

DECLARE_VARIANT(gm);
DECLARE_VARIANT(shm);
DECLARE_VARIANT(fused_s1);
DECLARE_VARIANT(fused_s2);
DECLARE_VARIANT(fused_s3);
DECLARE_VARIANT(fused_s4);
DECLARE_VARIANT(fused_s5);
DECLARE_VARIANT(fused_s6);
DECLARE_VARIANT(fused_s7);
DECLARE_VARIANT(fused_s8);
DECLARE_VARIANT(tb);
setup_fn setup_kernels;  // the 3D tb kernel's shared-memory opt-in

static const struct variant VARIANTS[] = {
    VARIANT(gm, "one step per launch from global memory, four x points per thread (2D and 3D)", 0),
    VARIANT(shm, "one step per launch from a 32x32 shared tile (002's fdstep_shm; 2D)", 0),
    VARIANT(fused_s1, "1 step per launch in a 32x32 shared tile (002's NSTEPS kernel; 2D)", 0),
    VARIANT(fused_s2, "2 steps per launch in a 32x32 shared tile, halo 2 (2D)", 0),
    VARIANT(fused_s3, "3 steps per launch, halo 3 (2D)", 0),
    VARIANT(fused_s4, "4 steps per launch, halo 4 (2D)", 0),
    VARIANT(fused_s5, "5 steps per launch, halo 5 (2D)", 0),
    VARIANT(fused_s6, "6 steps per launch, halo 6 (2D)", 0),
    VARIANT(fused_s7, "7 steps per launch, halo 7 (2D)", 0),
    VARIANT(fused_s8, "8 steps per launch, halo 8 (2D)", 0),
    VARIANT(tb, "temporal blocking: streaming with several steps pipelined in registers (2D and 3D)", 0),
};

// Sizes that are no multiple of any tile, thinner than a halo, smaller than a tile; S = 1, S not
// a multiple of any fusion depth, S large; 2D and 3D; D at the stability limit.
static const struct lab_case CASES[] = {
    {"test grade", "--size 301x257 --steps 13"},
    {"test grade", "--size 130x128 --steps 8"},
    {"test grade", "--size 5x7 --steps 3"},
    {"test grade", "--size 1000x3 --steps 17"},
    {"test grade", "--size 1x1 --steps 2"},
    {"test grade", "--size 2x300 --steps 1"},
    {"test grade", "--size 257x255 --steps 1"},
    {"test grade", "--size 200x150 --steps 301 --diffusion 0.25"},
    {"test grade", "--size 70x45x37 --steps 7"},
    {"test grade", "--size 33x9x100 --steps 5"},
    {"test grade", "--size 3x4x5 --steps 2"},
    {"test grade", "--size 130x67x41 --steps 10 --diffusion 0.1666"},
    {"test grade", "--size 300x200 --steps 40 --discs 5"},
    {"test", "--size 512x512x512 --steps 32"},
    {"small sanitize", "--size 160x90 --steps 9"},
    {"sanitize", "--size 70x45x37 --steps 4"},
    {"too-big", "--size 150000x150000"},
    {"refused", "--variant shm --size 64x64x64"},
    {"refused", "--variant fused_s8 --size 64x64x64"},
};

// u + D * (sum of the 2d neighbours - 2d u): 2d - 1 adds, a multiply, a subtract, a multiply
// and an add per point-step: 7 in 2D (002's a), 9 in 3D. tb's fmaf(D, fmaf(-4, b, sum), b) is
// the same 7.
static double flops(const struct problem *p) { return p->n[2] > 1 ? 9 : 7; }

const struct lab LAB = {
    .id = "7",
    .name = "heat_multistep",
    .title = "FTCS heat in 2D and 3D: one step per launch, N steps fused in shared memory, temporal blocking",
    .dims = 2,
    .max_dims = 3,
    .default_n = {8192, 8192, 1},
    .min_n = {1, 1, 1},
    .default_steps = 64,
    .params = (const struct lab_param[]){{"diffusion", "D = alpha dt / h^2: at most 1/4 in 2D, 1/6 in 3D", 0.15, 0, 1},
                                         {"discs", "0: a random initial field; N: N hot discs on a cold plate", 0, 0, 64}},
    .n_params = 2,
    .validate = validate,
    .setup = setup_kernels,
    .fields = (const struct field[]){{"u0", FIELD_IN}, {"u", FIELD_OUT}, {"tmp", FIELD_SCRATCH}},
    .n_fields = 3,
    .bytes_per_point = 8,  // one step reads u and writes u' once
    .flops_per_point = flops,
    .tolerance = tolerance,
    .input = input,
    .input_rule = input_rule,
    .reference = LAB_REFERENCE(reference),
    .reference_bytes_per_point = 8,  // heat_steps' second array
    .smooth = smooth,
    .analytic_check = 1,
    LAB_TABLES,  // VARIANTS and CASES above
    .self_test = LAB_REFERENCE(self_test),
};
