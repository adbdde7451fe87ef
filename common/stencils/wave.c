// SPDX-License-Identifier: MIT
// The acoustic wave of labs 8 and 9 on the host: the stability limit, the tolerance, the inputs
// (random fields, or two layers and a Ricker source), and the double-precision CPU reference of S
// leapfrog steps. The definitions (labs/lab8_wave/lab.c, labs/lab9_multigpu/lab.c) use these.
#define _DEFAULT_SOURCE  // M_PI
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "reference.h"
#include "wave.h"

// f(theta) = -(c0 + 2 sum_i c_i cos(i theta)) with the 1D weights: the order-8 second difference
// multiplies cos(theta x + phase) by -f(theta) / h^2 exactly (f(theta) ~ theta^2 for small theta).
double wave_symbol(double theta)
{
    double c[WAVE_R + 1];
    laplacian_coefficients(2 * WAVE_R, c);
    double s = -c[0] / 3;  // c[0] is the 3D centre weight, three times the 1D one
    for (int i = 1; i <= WAVE_R; i++) s -= 2 * c[i] * cos(i * theta);
    return s;
}

// Leapfrog is stable when vsq * (the largest eigenvalue of -L8 in 3D) <= 4: for the checkerboard
// mode (theta = pi in every dimension) that is C^2 * 3 f(pi) <= 4, so C <= sqrt(4 / (3 f(pi))).
double wave_courant_limit(void)
{
    double top = 0;
    for (int k = 0; k <= 4096; k++) top = fmax(top, wave_symbol(M_PI * k / 4096));
    return sqrt(4 / (3 * top));
}

const char *wave_validate(const struct problem *p)
{
    static char why[200];
    double limit = wave_courant_limit();
    if (p->dims != 3) return "the wave is 3D: give --size N or NXxNYxNZ";
    if (p->param[WAVE_COURANT] > limit) {
        snprintf(why, sizeof why,
                 "--courant %g is unstable: leapfrog with the 8th-order star needs v dt / h <= %.4f in 3D",
                 p->param[WAVE_COURANT], limit);
        return why;
    }
    return NULL;
}

// Leapfrog neither damps nor amplifies: a rounding error made in one step stays, so the error
// after S steps grows at most about linearly with S (each step adds a few float ulp of the
// field, whose size stays of order 1).
// lap = c0*u + sum over k = 1..4 of c_k * (the six neighbours at k): 1 + 7*4 = 29; then
// 2u - u_prev + vsq*lap: a multiply, a subtract, a multiply and an add (outside the sponge): 33.
double wave_flops(const struct problem *p)
{
    (void)p;
    return 1 + 7 * WAVE_R + 4;
}

void wave_tolerance(const struct problem *p, double *l2, double *atol, double *rtol)
{
    double tol = 2e-5 + 2e-6 * p->steps;
    *l2 = *atol = *rtol = tol;
}

// ---- the velocity model and the source ----
// --model 1: a slow layer (v = v_max / 2) over a fast one (v_max) with the interface at 55% of
// the depth, zero initial fields, and a Ricker wavelet at a point in the slow layer, a quarter of
// the depth down. Its peak frequency makes the wavelength about 12 points in the slow layer.

static const double SLOW = 0.5, INTERFACE = 0.55, WAVELENGTH = 12;

double wave_model_vsq(const struct problem *p, size_t z)
{
    double c = p->param[WAVE_COURANT], v = (double)z < INTERFACE * (double)p->n[2] ? SLOW : 1;
    return c * c * v * v;
}

int wave_source(const struct problem *p, size_t *at, float *amplitude)
{
    if ((int)p->param[WAVE_MODEL] != 1) return 0;
    const size_t nx = p->n[0], ny = p->n[1], nz = p->n[2], x = nx / 2, y = ny / 2, z = nz / 4;
    if (wave_depth((int)x, (int)y, (int)z, (int)nx, (int)ny, (int)nz) < 0) return 0;  // no room
    *at = (z * ny + y) * nx + x;
    // f dt from the wavelength in the slow layer: lambda / h = v_slow dt / h / (f dt).
    const double f = SLOW * p->param[WAVE_COURANT] / WAVELENGTH, t0 = 1.5 / f;
    const float vsq = (float)wave_model_vsq(p, z);
    for (int s = 0; s < p->steps; s++) {
        double a = M_PI * f * (s - t0);  // the source term of the step from time s dt
        amplitude[s] = (float)(vsq * (1 - 2 * a * a) * exp(-a * a));
    }
    return 1;
}

// u_prev and u: uniform random in [-1, 1) (zero with --model 1); vsq: random between a quarter
// of the limit C^2 and C^2 (the layers with --model 1). Every field is a rule (common/harness/reference.h)
// that the harness also evaluates on the GPU.
int wave_input_rule(const struct problem *p, int field, double *scale, double *offset, double *slope)
{
    const int layered = (int)p->param[WAVE_MODEL] == 1;
    const double c2 = p->param[WAVE_COURANT] * p->param[WAVE_COURANT];
    for (size_t z = 0; z < p->n[2]; z++)
        scale[z] = field < 2 ? (layered ? 0 : 1) : layered ? (double)(float)wave_model_vsq(p, z) : c2;
    *offset = field < 2 ? 0 : layered ? 1 : 0.625;
    *slope = field < 2 ? (layered ? 0 : 1) : layered ? 0 : 0.375;
    return 1;
}

void wave_input(const struct problem *p, int field, unsigned long long seed, float *a)
{
    double offset, slope, *scale = wave_xalloc(p->n[2] * sizeof *scale);
    wave_input_rule(p, field, scale, &offset, &slope);
    fill_seeded(a, p->n[0] * p->n[1], 0, p->n[2], scale, offset, slope, field_seed(seed, field));
    free(scale);
}

// ---- the CPU reference ----

void *wave_xalloc(size_t bytes)
{
    void *m = malloc(bytes);
    if (!m) {
        fprintf(stderr, "not enough host memory for the wave reference\n");
        exit(2);
    }
    return m;
}

// S steps in double. Like the kernels, the new level overwrites the oldest in place (each point
// reads its own old value before writing it), so two arrays hold the three levels.
void wave_steps(const struct problem *p, const float *u_prev, const float *u, const float *vsq, double *out)
{
    const size_t nx = p->n[0], ny = p->n[1], nz = p->n[2], sy = nx, sz = nx * ny, count = nx * ny * nz;
    const int width = (int)p->param[WAVE_SPONGE];
    double c[WAVE_R + 1];
    laplacian_coefficients(2 * WAVE_R, c);
    double *old = wave_xalloc(count * sizeof *old), *cur = wave_xalloc(count * sizeof *cur);
#pragma omp parallel for
    for (size_t i = 0; i < count; i++) old[i] = u_prev[i], cur[i] = u[i];
    for (int s = 0; s < p->steps; s++) {
#pragma omp parallel for collapse(2)
        for (size_t z = 0; z < nz; z++)
            for (size_t y = 0; y < ny; y++)
                for (size_t x = 0; x < nx; x++) {
                    const size_t i = z * sz + y * sy + x;
                    const int d = wave_depth((int)x, (int)y, (int)z, (int)nx, (int)ny, (int)nz);
                    if (d < 0) {
                        old[i] = 0;
                        continue;
                    }
                    double lap = c[0] * cur[i];
                    for (int k = 1; k <= WAVE_R; k++)
                        lap += c[k] * (cur[i - k] + cur[i + k] + cur[i - k * sy] + cur[i + k * sy] + cur[i - k * sz] +
                                       cur[i + k * sz]);
                    const double sigma = width > 0 ? wave_sigma(d, width) : 0;
                    double next = sigma > 0 ? (2 * cur[i] - (1 - sigma) * old[i] + vsq[i] * lap) / (1 + sigma)
                                            : 2 * cur[i] - old[i] + vsq[i] * lap;
                    if (p->source && i == p->source_at) next += p->source[s];
                    old[i] = next;
                }
        double *t = old;
        old = cur;
        cur = t;
    }
#pragma omp parallel for
    for (size_t i = 0; i < count; i++) out[i] = cur[i];
    free(old);
    free(cur);
}

void wave_reference(const struct problem *p, int kind, const float *const *in, double *ref)
{
    (void)kind;
    wave_steps(p, in[0], in[1], in[2], ref);
}

