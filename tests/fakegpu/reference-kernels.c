// SPDX-License-Identifier: MIT
// The kernels file of lab 5b and of lab 8 as host code, for the fake GPU (tests/fakegpu/gpu.c):
// every variant computes its answer with the lab's own CPU reference (star_reference,
// wave_reference) from the input fields' rows, packed from pitch to nx, and writes it as floats
// at the padded positions of ctx->out[0]. So the harness's padded rows (problem.pitch: uploads,
// fills, the check of the inputs' padding, the packing before the comparison, --dump, the
// smooth and convergence uploads) can be tested where there is no GPU. Which lab it serves is
// read from the definition linked with it (LAB.id): one file, built into build/tests/fake5
// and build/tests/fake8.
//
// Lab 8's source is added by the reference at an unpadded point index; the fake passes it the
// point that device_index(p, p->source_at) names, mapped back from the padded element, as a
// kernel adding the source through device_index would use it (a wrong device_index moves it).
//
// Planted bugs (FAKE_BUG), in every variant, or only in the one FAKE_BUG_VARIANT names:
//   ignore-pitch       read and write rows nx apart instead of pitch (a kernel that ignores the
//                      padding): wrong wherever pitch != nx
//   read-padding       the last point of every row adds 0 times the input's element nx of the row
//                      (the padding, NaN, where there is padding; the next row's first point,
//                      finite, where pitch == nx; the last row then reads nothing)
//   write-out-padding  every padding element of the output written 0 (allowed)
//   write-in-padding   the first padding element of the first row of ctx->in[0] written 0
//   write-in-last      the last padding element of the last row of the last input written 0
//                      (where there is padding; forbidden)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "definition.h"
#include "star.h"
#include "wave.h"

enum bug { NO_BUG, IGNORE_PITCH, READ_PADDING, WRITE_OUT_PADDING, WRITE_IN_PADDING, WRITE_IN_LAST };

static enum bug planted(const char *variant)
{
    static const char *const NAMES[] = {"", "ignore-pitch", "read-padding", "write-out-padding", "write-in-padding", "write-in-last"};
    const char *b = getenv("FAKE_BUG"), *only = getenv("FAKE_BUG_VARIANT");
    if (!b || !*b || (only && *only && strcmp(only, variant))) return NO_BUG;
    for (int k = 1; k < COUNT(NAMES); k++)
        if (!strcmp(b, NAMES[k])) return (enum bug)k;
    lab_call_failed(__FILE__, __LINE__, "getenv(\"FAKE_BUG\")", "no such planted bug");
}

static void *xalloc(size_t bytes)
{
    void *m = malloc(bytes ? bytes : 1);
    if (!m) lab_call_failed(__FILE__, __LINE__, "malloc()", "out of host memory");
    return m;
}

// `rows` rows of nx elements, `stride` apart in a, as one array without padding.
static float *pack(const float *a, size_t nx, size_t stride, size_t rows)
{
    float *t = xalloc(nx * rows * sizeof *t);
    for (size_t r = 0; r < rows; r++) memcpy(t + r * nx, a + r * stride, nx * sizeof *t);
    return t;
}

static void compute(const char *variant, const struct problem *p, const struct context *ctx)
{
    const enum bug bug = planted(variant);
    const int wave = strcmp(LAB.id, "8") == 0, n_in = wave ? 3 : 1;
    const size_t nx = p->n[0], pitch = p->pitch, rows = p->n[1] * p->n[2], count = nx * rows;
    const size_t stride = bug == IGNORE_PITCH ? nx : pitch;
    float *in[3] = {0};
    for (int k = 0; k < n_in; k++) in[k] = pack(ctx->in[k], nx, stride, rows);
    double *ref = xalloc(count * sizeof *ref);
    if (wave) {
        struct problem q = *p;
        if (p->source) {
            const size_t e = device_index(p, p->source_at);
            q.source_at = e / pitch * nx + e % pitch;
        }
        wave_reference(&q, 0, (const float *const *)in, ref);
    } else {
        star_reference(p, 0, (const float *const *)in, ref);
    }
    float *out = ctx->out[0];
    for (size_t r = 0; r < rows; r++)
        for (size_t x = 0; x < nx; x++) out[r * stride + x] = (float)ref[r * nx + x];
    if (bug == READ_PADDING) {
        const float *u = ctx->in[wave ? 1 : 0];
        for (size_t r = 0; r < rows; r++)
            if (r + 1 < rows || pitch > nx) out[r * pitch + nx - 1] += 0.f * u[r * pitch + nx];
    }
    if (bug == WRITE_OUT_PADDING)
        for (size_t r = 0; r < rows; r++)
            for (size_t x = nx; x < pitch; x++) out[r * pitch + x] = 0.f;
    if (bug == WRITE_IN_PADDING && pitch > nx) ((float *)ctx->in[0])[nx] = 0.f;
    if (bug == WRITE_IN_LAST && pitch > nx) ((float *)ctx->in[n_in - 1])[rows * pitch - 1] = 0.f;
    for (int k = 0; k < n_in; k++) free(in[k]);
    free(ref);
}

static const char *refuse_none(const struct problem *p) { (void)p; return NULL; }
static void model_one(const struct problem *p, double *r, double *w) { (void)p, *r = 1, *w = 1; }

void setup_kernels(const struct problem *p) { (void)p; }

#define FAKE_VARIANT(v, refuse)                                                              \
    void launch_##v(const struct problem *p, const struct context *ctx) { compute(#v, p, ctx); } \
    const char *refuse_##v(const struct problem *p) { return refuse(p); }                    \
    void model_##v(const struct problem *p, double *r, double *w) { model_one(p, r, w); }

FAKE_VARIANT(queue_16x16, refuse_none)
FAKE_VARIANT(queue_32x32, refuse_none)
FAKE_VARIANT(queue4_128x16, refuse_none)
FAKE_VARIANT(naive, refuse_none)
