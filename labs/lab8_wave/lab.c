// SPDX-License-Identifier: MIT
// Lab 8 (wave), the definition: the acoustic wave equation u_tt = v^2 Laplacian(u) in 3D, second
// order in time (leapfrog) and eighth order in space (the 25-point star of lab 5b):
//   u(t+dt) = 2 u(t) - u(t-dt) + vsq * L8 u(t),   vsq = (v dt / h)^2 at every point,
// L8 the weights c[0..4] of laplacian_coefficients(8). Fields: u_prev = u(-dt) and u = u(0) (the
// two time levels), vsq (the velocity model); the kernels leave u(S dt) in u_out and may use
// `work`. The new level overwrites the oldest, so one step moves 16 bytes per point: read u,
// u_prev and vsq, write u_next. The WAVE_R points next to each face are the boundary: they are
// zero after every step (a reflecting, Dirichlet boundary). Options: --courant C = v_max dt / h
// (refused above the stability limit), --model 1 (two layers and a Ricker point source instead
// of random fields), --sponge W (an absorbing layer W points deep inside the boundary, its
// damping computed from the index, so no extra array). The rules the kernels share are in
// common/stencils/wave.h; the stability limit, inputs, source and CPU reference, shared with lab 9, in
// common/stencils/wave.c.
#define _DEFAULT_SOURCE  // M_PI
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "definition.h"
#include "reference.h"
#include "tap.h"
#include "wave.h"

enum { COURANT = WAVE_COURANT, MODEL = WAVE_MODEL, SPONGE = WAVE_SPONGE };  // p->param[...]

// ---- the analytic answer, which does not come from the reference ----
// In a homogeneous medium (vsq = C^2) the mode m = prod_d cos(theta_d i_d + phi_d) is an
// eigenfunction of L8: L8 m = -mu m with mu = sum_d f(theta_d). Leapfrog then multiplies its
// amplitude a_n by the recurrence a_{n+1} = (2 - C^2 mu) a_n - a_{n-1}, whose solution with
// a_{-1} = cos(w dt), a_0 = 1 is a_n = cos(n w dt), cos(w dt) = 1 - C^2 mu / 2: the scheme's exact
// discrete dispersion relation. The boundary layer (zero) and the sponge differ from the mode
// after the first step; their effect travels WAVE_R points per step (the stencil's reach), so
// after S steps the answer is exact (up to the rounding of the float inputs) at
// every point deeper than WAVE_R * (S - 1) plus the sponge: the other points are not compared (NaN).
static const int MODE[3] = {2, 3, 5};
static const double PHASE[3] = {0.3, 0.7, 1.1};

static void smooth(const struct problem *p, int kind, float *const *in, double *exact)
{
    (void)kind;
    const size_t nx = p->n[0], ny = p->n[1], nz = p->n[2], count = nx * ny * nz;
    const int width = (int)p->param[SPONGE];
    const float vsq = (float)(p->param[COURANT] * p->param[COURANT]);
    double theta[3], mu = 0;
    for (int d = 0; d < 3; d++) {
        theta[d] = 2 * M_PI * MODE[d] / (double)p->n[d];
        mu += wave_symbol(theta[d]);
    }
    const double wdt = acos(1 - (double)vsq * mu / 2), amp = cos(p->steps * wdt);
    const int layered = (int)p->param[MODEL] == 1;  // its source is not part of the mode
#pragma omp parallel for collapse(2)
    for (size_t k = 0; k < nz; k++)
        for (size_t j = 0; j < ny; j++)
            for (size_t i = 0; i < nx; i++) {
                const size_t idx = (k * ny + j) * nx + i;
                const double m = cos(theta[0] * i + PHASE[0]) * cos(theta[1] * j + PHASE[1]) * cos(theta[2] * k + PHASE[2]);
                in[0][idx] = (float)(cos(wdt) * m);
                in[1][idx] = (float)m;
                in[2][idx] = vsq;
                const int d = wave_depth((int)i, (int)j, (int)k, (int)nx, (int)ny, (int)nz);
                exact[idx] = !layered && d >= WAVE_R * (p->steps - 1) + width ? amp * m : NAN;
            }
    (void)count;
}

// ---- convergence: the error against the continuous solution as h shrinks ----
// On [0, 1]^3 (h = 1/(n-1)) with v = v_max everywhere (vsq = C^2, so dt = C h), the standing wave
// cos(2 pi (x + y + z) + phase) oscillates as cos(w t), w = 2 pi sqrt(3), in the continuous
// equation. The series keeps the time fixed (T_CONV): S = T / dt steps, more as h shrinks. The
// spatial error is O(h^8) but the leapfrog's is O(dt^2) = O(h^2) at a fixed C, so the error falls
// as h^2: the time step, not the stencil, sets the accuracy. Deeper than WAVE_R (S - 1) only.
static const double T_CONV = 0.025;
static const size_t CONV_N[] = {32, 48, 64, 96, 128, 192, 256};

static int conv_steps(const struct problem *p)
{
    double dt = p->param[COURANT] / (double)(p->n[0] - 1);
    int s = (int)lround(T_CONV / dt);
    return s > 0 ? s : 1;
}

static void converge(const struct problem *p, int kind, float *const *in, double *exact)
{
    (void)kind;
    const size_t nx = p->n[0], ny = p->n[1], nz = p->n[2];
    const int width = (int)p->param[SPONGE], layered = (int)p->param[MODEL] == 1;
    const double h[3] = {1.0 / (double)(nx - 1), 1.0 / (double)(ny - 1), 1.0 / (double)(nz - 1)};
    const double w = 2 * M_PI * sqrt(3.0), dt = p->param[COURANT] * h[0], amp = cos(w * p->steps * dt);
    const float vsq = (float)(p->param[COURANT] * p->param[COURANT]);
#pragma omp parallel for collapse(2)
    for (size_t k = 0; k < nz; k++)
        for (size_t j = 0; j < ny; j++)
            for (size_t i = 0; i < nx; i++) {
                const size_t idx = (k * ny + j) * nx + i;
                const double m = cos(2 * M_PI * (i * h[0] + j * h[1] + k * h[2]) + PHASE[0]);
                in[0][idx] = (float)(cos(w * dt) * m);
                in[1][idx] = (float)m;
                in[2][idx] = vsq;
                const int d = wave_depth((int)i, (int)j, (int)k, (int)nx, (int)ny, (int)nz);
                exact[idx] = !layered && d >= WAVE_R * (p->steps - 1) + width ? amp * m : NAN;
            }
}

// ---- the reference's own checks (./sol8 --self-test) ----

static double max_interior_error(const struct problem *p,
                                 void (*answer)(const struct problem *, int, float *const *, double *))
{
    const size_t count = p->n[0] * p->n[1] * p->n[2];
    float *in[3];
    for (int f = 0; f < 3; f++) in[f] = wave_xalloc(count * sizeof(float));
    double *exact = wave_xalloc(count * sizeof *exact), *ref = wave_xalloc(count * sizeof *ref), err = 0;
    answer(p, 0, in, exact);
    wave_steps(p, in[0], in[1], in[2], ref);
    size_t checked = 0;
    for (size_t i = 0; i < count; i++)
        if (!isnan(exact[i])) err = fmax(err, fabs(ref[i] - exact[i])), checked++;
    for (int f = 0; f < 3; f++) free(in[f]);
    free(exact);
    free(ref);
    return checked ? err : NAN;
}

static double energy(const struct problem *p, const float *const *in)
{
    const size_t count = p->n[0] * p->n[1] * p->n[2];
    double *u = wave_xalloc(count * sizeof *u), e = 0;
    wave_steps(p, in[0], in[1], in[2], u);
    for (size_t i = 0; i < count; i++) e += u[i] * u[i];
    free(u);
    return e;
}

static int self_test(void)
{
    struct problem p = {.dims = 3, .n = {56, 52, 60}};
    p.param[COURANT] = 0.4;
    for (int steps = 1; steps <= 5; steps += 4) {
        p.steps = steps;
        double err = max_interior_error(&p, smooth);
        ok(err <= 1e-6, "%d steps: the reference follows the exact discrete dispersion relation (max error %.1e, "
                        "the rounding of the float inputs)", steps, err);
    }
    p.steps = 5;
    p.param[SPONGE] = 3;
    double err = max_interior_error(&p, smooth);
    ok(err <= 1e-6, "with a sponge of 3: still exact deeper than the sponge plus 4 points per step after the first (%.1e)", err);
    p.param[SPONGE] = 0;

    // Convergence against the continuous solution at a fixed time: second order (the time step).
    double e[2];
    for (int k = 0; k < 2; k++) {
        struct problem c = {.dims = 3, .n = {CONV_N[2 * k], CONV_N[2 * k], CONV_N[2 * k]}};
        c.param[COURANT] = 0.4;
        c.steps = conv_steps(&c);
        e[k] = max_interior_error(&c, converge);
    }
    double order = log(e[0] / e[1]) / log((CONV_N[2] - 1.0) / (CONV_N[0] - 1.0));
    ok(order > 1.9 && order < 2.5, "against the continuous wave at t = %g: error %.2e at n = %zu, %.2e at n = %zu: order %.2f (the time step's 2, reached from above)",
       T_CONV, e[0], CONV_N[0], e[1], CONV_N[2], order);

    double limit = wave_courant_limit();
    ok(fabs(limit - sqrt(4.0 / (3 * wave_symbol(M_PI)))) < 1e-12 && limit > 0.45 && limit < 0.46,
       "the stability limit is the checkerboard mode's: C <= %.4f", limit);
    p.param[COURANT] = limit;
    ok(wave_validate(&p) == NULL, "C at the limit is accepted");
    p.param[COURANT] = limit * 1.001;
    ok(wave_validate(&p) != NULL, "C above it is refused: %s", wave_validate(&p));

    // One step by hand: a unit spike in u, u_prev = 0, vsq = 0.1: 2 + 0.1 c0 at the spike, 0.1 c_k
    // at distance k <= 4 along each axis, 0 at distance 5 and off the axes.
    struct problem q = {.dims = 3, .n = {19, 19, 19}, .steps = 1};
    q.param[COURANT] = 0.3;
    const size_t count = 19 * 19 * 19, centre = (9 * 19 + 9) * 19 + 9;
    float *f[3];
    for (int k = 0; k < 3; k++) f[k] = calloc(count, sizeof(float));
    for (size_t i = 0; i < count; i++) f[2][i] = 0.1f;
    f[1][centre] = 1;
    double *out = wave_xalloc(count * sizeof *out), c[WAVE_R + 1];
    laplacian_coefficients(2 * WAVE_R, c);
    wave_steps(&q, f[0], f[1], f[2], out);
    const double v = (double)0.1f;
    ok(fabs(out[centre] - (2 + v * c[0])) < 1e-12 && fabs(out[centre + 1] - v * c[1]) < 1e-12 &&
           fabs(out[centre - 4 * 19] - v * c[4]) < 1e-12 && fabs(out[centre + 4 * 361] - v * c[4]) < 1e-12 &&
           out[centre + 5] == 0 && out[centre + 1 + 19] == 0,
       "one step of a spike: 2 + vsq c0 at the spike, vsq c_k at distance k along each axis, 0 elsewhere");

    // The boundary layer is zero after a step, whatever it held.
    q.steps = 1;
    for (size_t i = 0; i < count; i++) f[0][i] = f[1][i] = 1;
    wave_steps(&q, f[0], f[1], f[2], out);
    ok(out[0] == 0 && out[3 * 361 + 9 * 19 + 9] == 0 && out[4 * 361 + 9 * 19 + 9] != 0,
       "the 4 points next to each face are zero after a step; the fifth is updated");

    // The sponge takes energy out: a random field after 30 steps keeps less of it with a sponge.
    struct problem r = {.dims = 3, .n = {32, 32, 32}, .steps = 30};
    r.param[COURANT] = 0.4;
    const size_t rc = 32 * 32 * 32;
    float *g[3];
    for (int k = 0; k < 3; k++) g[k] = wave_xalloc(rc * sizeof(float));
    for (int k = 0; k < 3; k++) wave_input(&r, k, 11, g[k]);
    double e0 = energy(&r, (const float *const *)g);
    r.param[SPONGE] = 6;
    double e1 = energy(&r, (const float *const *)g);
    ok(e1 < 0.8 * e0, "a sponge of 6 points absorbs: energy after 30 steps %.3g without, %.3g with", e0, e1);

    // The source: with zero fields the first step puts amplitude[0] at the source point and
    // nothing elsewhere; after s steps nothing lies farther than 4 (s - 1) points from it.
    struct problem w = {.dims = 3, .n = {40, 40, 40}, .steps = 3};
    w.param[COURANT] = 0.4;
    w.param[MODEL] = 1;
    float amp[3];
    size_t at;
    ok(wave_source(&w, &at, amp) == 1 && at == (10 * 40 + 20) * 40 + 20, "--model 1 has a source, a quarter of the depth down");
    w.source = amp, w.source_at = at;
    const size_t wc = 40 * 40 * 40;
    for (int k = 0; k < 3; k++) {
        free(g[k]);
        g[k] = wave_xalloc(wc * sizeof(float));
        wave_input(&w, k, 5, g[k]);
    }
    double *u = wave_xalloc(wc * sizeof *u), far = 0;
    wave_steps(&w, g[0], g[1], g[2], u);
    for (size_t i = 0; i < wc; i++) {
        long dx = (long)(i % 40) - 20, dy = (long)(i / 40 % 40) - 20, dz = (long)(i / 1600) - 10;
        if (labs(dx) + labs(dy) + labs(dz) > 0 && (labs(dx) > 8 || labs(dy) > 8 || labs(dz) > 8)) far = fmax(far, fabs(u[i]));
    }
    ok(far == 0 && u[at] != 0, "after 3 steps the wave is within 8 points of the source (max %.1e beyond)", far);
    ok(g[2][at] == (float)wave_model_vsq(&w, 10) && g[2][(30 * 40 + 20) * 40 + 20] == (float)(0.4 * 0.4),
       "--model 1: the slow layer above, the fast one below");

    for (int k = 0; k < 3; k++) free(f[k]), free(g[k]);
    free(out);
    free(u);
    return done_testing();
}

DECLARE_VARIANT(naive);
DECLARE_VARIANT(queue_16x16);
DECLARE_VARIANT(queue_32x32);
DECLARE_VARIANT(queue4_128x16);
setup_fn setup_kernels;  // the weights in constant memory, the ring's shared-memory opt-in

static const struct variant VARIANTS[] = {
    VARIANT(naive, "one point per thread, every neighbour from global memory", 0),
    VARIANT(queue_16x16, "003's 16x16 tile in shared memory, the z neighbours in a register queue", 0),
    VARIANT(queue_32x32, "003's 32x32 tile (32x16 threads, two rows each)", 0),
    VARIANT_GIVEN(queue4_128x16, "lab 5b's fastest (given): float4 quads, a ring of shared planes with split barriers", 0),
};

// Sizes that are no multiple of any tile, thinner than the boundary layer, nx not a multiple of
// 32 (padded rows) nor of 4 (a partial quad at the end of each row); S = 1, S odd and even; C at
// the limit; the source and the sponge.
static const struct lab_case CASES[] = {
    {"test grade", "--size 67x45x39 --steps 5"},
    {"test grade", "--size 9x9x9 --steps 1"},
    {"test grade", "--size 132x33x20 --steps 2"},
    {"test grade", "--size 3x5x200 --steps 4"},
    {"test grade", "--size 257x17x31 --steps 7 --courant 0.452"},
    {"test grade", "--size 64x48x80 --steps 12 --sponge 10"},
    {"test grade", "--size 48x44x40 --steps 9 --model 1"},
    {"test grade", "--size 36x40x52 --steps 16 --model 1 --sponge 6"},
    {"test", "--size 512x512x512 --steps 4"},
    // queue4's thin remainders (5 columns, 4 rows; 32 columns) go to the naive kernel; nz = 20
    // puts the source (z = nz / 4) inside the domain, so that the answer is not all zero
    {"test sanitize synccheck-todo", "--size 133x36x20 --steps 3 --model 1"},
    {"test", "--size 160x20x30 --steps 5 --sponge 3"},
    // synccheck overflows its table of tracked barriers on queue4_128x16 (6 mbarriers a block, as
    // in lab 5b; --num-cuda-barriers 8 did not help) and the kernel dies under it; without the tool
    // every case PASSes and memcheck and racecheck are clean. The next case runs the other
    // variants under synccheck; the last one queue4 with padded rows (nx = 37).
    {"small sanitize synccheck-todo", "--size 72x40x30 --steps 3"},
    {"sanitize", "--size 37x20x50 --steps 2 --model 1 --sponge 4 --variant naive --variant queue_16x16 --variant queue_32x32"},
    {"sanitize synccheck-todo", "--size 37x20x50 --steps 2 --model 1 --sponge 4 --variant queue4_128x16"},
    {"too-big", "--size 3000x3000x3000"},
};

const struct lab LAB = {
    .id = "8",
    .name = "wave",
    .title = "the acoustic wave equation, 8th order in space, 2nd in time: 16 bytes per point-step",
    WAVE_DEFINITION,  // a step reads u, u_prev and vsq and writes the new level once: 16 bytes
    .row_align = 32,  // every row 128-byte aligned: queue4 needs no test for it
    .setup = setup_kernels,
    .smooth = smooth,
    .analytic_check = 1,
    .conv_n = CONV_N,
    .n_conv = COUNT(CONV_N),
    .converge = converge,
    .conv_steps = conv_steps,
    LAB_TABLES,  // VARIANTS and CASES above
    .self_test = LAB_REFERENCE(self_test),
};
