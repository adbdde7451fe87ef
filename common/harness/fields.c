// SPDX-License-Identifier: MIT
// The fields of a lab on the GPU: each array with its guard bands of NaN, rows padded to the
// pitch, a process's slab with its ghost planes; the inputs of a run (made on the GPU where they
// follow a rule, else on the host) and NaN in every output before it.
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ranks.h"
#include "run.h"

// ---- the fields of a lab on the GPU ----


void fields_alloc(struct fields *F, const struct lab *lab, const struct problem *p)
{
    memset(F, 0, sizeof *F);
    F->lab = lab;
    F->nx = p->n[0];
    F->pitch = p->pitch;
    F->plane = p->pitch * p->n[1];
    F->hplane = p->n[0] * p->n[1];
    F->count = F->hplane * p->slab_nz;
    F->lo = F->plane * (size_t)p->ghost;
    F->local = F->plane * p->slab_nz + 2 * F->lo;
    F->global = points(p->n);
    F->guard = guard_elems(lab, p);
    int n_in = 0, n_out = 0, n_scratch = 0;
    F->result = -1;
    for (int f = 0; f < lab->n_fields; f++) {
        size_t total = F->local + 2 * F->guard;
        float *base;
        CUDA_CHECK(cudaMalloc((void **)&base, total * sizeof(float)));
        CUDA_CHECK(cudaMemset(base, POISON_BYTE, total * sizeof(float)));
        F->dev[f] = base + F->guard + F->lo;
        switch (lab->fields[f].role) {
        case FIELD_IN:
            F->ctx.in[n_in++] = F->dev[f];
            F->host_in[f] = xmalloc(F->global * sizeof(float));
            break;
        case FIELD_OUT:
            F->ctx.out[n_out++] = F->dev[f];
            if (F->result < 0) F->result = f;
            break;
        case FIELD_SCRATCH:
            F->ctx.scratch[n_scratch++] = F->dev[f];
            break;
        }
    }
    F->ctx.stream = 0;  // the legacy default stream: it orders every blocking stream's work
    F->ctx.rank = ranks_rank();
    F->ctx.ranks = ranks_size();
    CUDA_CHECK(cudaGetDevice(&F->ctx.device));
    if (ranks_size() > 1 && ranks_rank() == 0) F->h_all = xmalloc(F->global * sizeof(float));
}

// The first element of field f's allocation (its guard band).
float *field_base(const struct fields *F, int f) { return F->dev[f] - F->lo - F->guard; }

// `rows` rows of `width` elements from src (spitch apart) to dst (dpitch apart): one copy where
// both are contiguous, else cudaMemcpy2D (pitches below 2^31 bytes), else a row at a time.
void copy_rows(float *dst, size_t dpitch, const float *src, size_t spitch, size_t width, size_t rows,
                      enum cudaMemcpyKind kind)
{
    const size_t e = sizeof(float);
    if (dpitch == width && spitch == width)
        CUDA_CHECK(cudaMemcpy(dst, src, width * rows * e, kind));
    else if (dpitch * e <= INT_MAX && spitch * e <= INT_MAX)
        CUDA_CHECK(cudaMemcpy2D(dst, dpitch * e, src, spitch * e, width * e, rows, kind));
    else
        for (size_t r = 0; r < rows; r++) CUDA_CHECK(cudaMemcpy(dst + r * dpitch, src + r * spitch, width * e, kind));
}

// NaN into the padding of `rows` rows on the GPU (legacy stream): one 2D memset where its pitch
// limit allows (2^31 bytes), else a row at a time.
void poison_padding(float *a, size_t nx, size_t pitch, size_t rows)
{
    const size_t e = sizeof(float);
    if (pitch * e <= INT_MAX)
        CUDA_CHECK(cudaMemset2DAsync(a + nx, pitch * e, POISON_BYTE, (pitch - nx) * e, rows, 0));
    else
        for (size_t r = 0; r < rows; r++) CUDA_CHECK(cudaMemsetAsync(a + r * pitch + nx, POISON_BYTE, (pitch - nx) * e, 0));
}

// Rows of nx elements, pitch apart, moved together in place (a field as the host compares it).
void pack_rows(float *a, size_t nx, size_t pitch, size_t rows)
{
    if (pitch != nx)
        for (size_t r = 1; r < rows; r++) memmove(a + r * nx, a + r * pitch, nx * sizeof *a);
}

// Whether the padding at the end of each of `rows` rows is still poison.
int padding_intact(const float *a, size_t nx, size_t pitch, size_t rows)
{
    for (size_t r = 0; r < rows && pitch > nx; r++)
        if (!guard_intact(a + r * pitch + nx, pitch - nx)) return 0;
    return 1;
}

// The planes of this process's slab and its ghost planes that lie in the grid: zlo .. zhi - 1.
void slab_span(const struct problem *p, size_t *zlo, size_t *zhi)
{
    size_t g = (size_t)p->ghost, hi = p->slab_z0 + p->slab_nz + g;
    *zlo = p->slab_z0 >= g ? p->slab_z0 - g : 0;
    *zhi = hi < p->n[2] ? hi : p->n[2];
}

// Copy this process's planes (its slab and the ghost planes in the grid) of the whole-grid input
// `grid` into field f.
void upload_slab(const struct fields *F, const struct problem *p, int f, const float *grid)
{
    size_t zlo, zhi;
    slab_span(p, &zlo, &zhi);
    float *at = F->dev[f] - (p->slab_z0 - zlo) * F->plane;
    copy_rows(at, F->pitch, grid + zlo * F->hplane, F->nx, F->nx, (zhi - zlo) * p->n[1], cudaMemcpyHostToDevice);
}

void fields_free(struct fields *F)
{
    for (int f = 0; f < F->lab->n_fields; f++) {
        CUDA_CHECK(cudaFree(field_base(F, f)));
        free(F->host_in[f]);
    }
    free(F->h_all);
}

// The host copies of the input fields of a run, one array per input field in `into`.
void host_inputs(const struct lab *lab, const struct problem *p, uint64_t seed, float *const *into)
{
    for (int f = 0, k = 0; f < lab->n_fields; f++) {
        if (lab->fields[f].role != FIELD_IN) continue;
        if (lab->input) lab->input(p, f, seed, into[k++]);
        else fill_random(into[k++], points(p->n), field_seed(seed, f));
    }
}

// Before a run: fresh inputs, NaN in every output and scratch array (their ghost planes and
// guards included). A lab's own inputs are made on the GPU where they follow a rule (uploading
// three 512^3 fields before each run would cost more than the run), else on the host.
void prepare_run(const struct fields *F, const struct problem *p, uint64_t seed)
{
    static float *staging;  // the whole grid of a lab's own input, made on the host
    static size_t staged;
    static double *scale;  // a rule's scale of every plane
    static size_t scales;
    if (scales < p->n[2]) {
        free(scale);
        scale = xmalloc(p->n[2] * sizeof *scale);
        scales = p->n[2];
    }
    for (int f = 0; f < F->lab->n_fields; f++) {
        double offset, slope;
        if (F->lab->fields[f].role == FIELD_IN && F->lab->input_rule &&
            F->lab->input_rule(p, f, scale, &offset, &slope)) {
            size_t zlo, zhi;  // this process's planes: its slab and the ghost planes in the grid
            slab_span(p, &zlo, &zhi);
            device_fill_seeded(F->dev[f] - (p->slab_z0 - zlo) * F->plane, F->nx, F->pitch, p->n[1], zlo, zhi - zlo,
                               scale, offset, slope, field_seed(seed, f));
        } else if (F->lab->fields[f].role == FIELD_IN && F->lab->input) {
            if (staged < F->global) {
                free(staging);
                staging = xmalloc(F->global * sizeof *staging);
                staged = F->global;
            }
            F->lab->input(p, f, seed, staging);
            upload_slab(F, p, f, staging);
        } else if (F->lab->fields[f].role == FIELD_IN)  // one process (lab_main refuses ghosts without `input`)
            device_fill_random(F->dev[f], F->nx, F->pitch, p->n[1] * p->slab_nz, field_seed(seed, f));
        if (F->lab->fields[f].role == FIELD_IN && F->pitch > F->nx)  // NaN again where a run may have written it
            poison_padding(F->dev[f], F->nx, F->pitch, p->n[1] * p->slab_nz);
        if (F->lab->fields[f].role != FIELD_IN)
            CUDA_CHECK(cudaMemsetAsync(field_base(F, f), POISON_BYTE, (F->local + 2 * F->guard) * sizeof(float), 0));
    }
}
