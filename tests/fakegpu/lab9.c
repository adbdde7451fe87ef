// SPDX-License-Identifier: MIT
// Lab 9's kernels file as host code, for the fake GPU (tests/fakegpu/gpu.c): the solution's
// scheme (z-slabs, 4 ghost planes, rows p->pitch apart, the new level in place of the oldest, the
// boundary planes exchanged after every step but the last through halo_exchange), so that the harness's
// processes, slabs, gather and verdicts can be tested under mpirun without a GPU. Every variant
// runs the same code; FAKE_BUG=skip exchanges only every other step (a wrong answer on rank > 0),
// FAKE_BUG=fail makes rank 1 fail a call (the harness's one error path, which must end every rank).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "ranks.h"
#include "wave.h"

enum { G = WAVE_R };
static float c_wave[WAVE_R + 1];

static void step_planes(const struct problem *p, const float *u, const float *up, const float *vsq, float *next,
                        int zlo, int zhi)
{
    const int nx = (int)p->n[0], ny = (int)p->n[1], nz = (int)p->n[2], z0 = (int)p->slab_z0;
    const size_t sy = p->pitch, sz = p->pitch * ny;
    const int sponge = (int)p->param[WAVE_SPONGE];
    for (int z = zlo; z < zhi; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                const size_t i = z * sz + y * sy + x;
                const int d = wave_depth(x, y, z0 + z, nx, ny, nz);
                float v = 0.f;
                if (d >= 0) {
                    const float *c = u + i;
                    float lap = c_wave[0] * c[0];
                    for (int k = 1; k <= WAVE_R; k++)
                        lap += c_wave[k] * (c[-k] + c[k] + c[-k * (long)sy] + c[k * (long)sy] + c[-k * (long)sz] +
                                            c[k * (long)sz]);
                    v = wave_leapfrog(c[0], up[i], vsq[i], lap, d, sponge);
                }
                next[i] = v;
            }
}

static void run_steps(const struct problem *p, const struct context *ctx)
{
    const size_t plane = p->pitch * p->n[1], grid_plane = p->n[0] * p->n[1], count = (size_t)G * plane;
    float *a = p->steps % 2 ? ctx->out[0] : ctx->scratch[0], *b = p->steps % 2 ? ctx->scratch[0] : ctx->out[0];
    const float *u = ctx->in[1], *up = ctx->in[0];
    float *buf = malloc(4 * count * sizeof *buf);
    const int skip = getenv("FAKE_BUG") && !strcmp(getenv("FAKE_BUG"), "skip");
    if (getenv("FAKE_BUG") && !strcmp(getenv("FAKE_BUG"), "fail") && ctx->rank == 1)
        lab_call_failed(__FILE__, __LINE__, "fake_call()", "a failure planted on rank 1");
    for (int k = 0; k < p->steps; k++) {
        float *next = k % 2 == 0 ? a : b;
        step_planes(p, u, up, ctx->in[2], next, 0, (int)p->slab_nz);
        if (p->source && p->source_at / grid_plane >= p->slab_z0 && p->source_at / grid_plane < p->slab_z0 + p->slab_nz)
            next[device_index(p, p->source_at) - p->slab_z0 * plane] += p->source[k];
        if (k < p->steps - 1 && ctx->ranks > 1 && !(skip && k % 2)) {
            memcpy(buf, next, count * sizeof *buf);                                        // first G planes
            memcpy(buf + count, next + (p->slab_nz - G) * plane, count * sizeof *buf);     // last G planes
            halo_exchange(buf, buf + count, buf + 2 * count, buf + 3 * count, count);
            if (ctx->rank > 0) memcpy(next - count, buf + 2 * count, count * sizeof *buf);
            if (ctx->rank < ctx->ranks - 1) memcpy(next + p->slab_nz * plane, buf + 3 * count, count * sizeof *buf);
        }
        up = u;
        u = next;
    }
    free(buf);
}

static const char *refuse_nccl_any(const struct problem *p)
{
    return p->ranks > p->gpus ? "NCCL needs one rank per GPU, and these ranks share GPUs" : NULL;
}
static void model(const struct problem *p, double *r, double *w) { *r = 3 + 2.0 * G / (double)p->slab_nz, *w = 1; }
static const char *refuse_none(const struct problem *p) { (void)p; return NULL; }

void launch_mpi_staged(const struct problem *p, const struct context *ctx) { run_steps(p, ctx); }
const char *refuse_mpi_staged(const struct problem *p) { return refuse_none(p); }
void model_mpi_staged(const struct problem *p, double *r, double *w) { model(p, r, w); }
void launch_mpi_overlap(const struct problem *p, const struct context *ctx) { run_steps(p, ctx); }
const char *refuse_mpi_overlap(const struct problem *p) { return refuse_none(p); }
void model_mpi_overlap(const struct problem *p, double *r, double *w) { model(p, r, w); }
void launch_nccl(const struct problem *p, const struct context *ctx) { run_steps(p, ctx); }
const char *refuse_nccl(const struct problem *p) { return refuse_nccl_any(p); }
void model_nccl(const struct problem *p, double *r, double *w) { model(p, r, w); }
void launch_nccl_overlap(const struct problem *p, const struct context *ctx) { run_steps(p, ctx); }
const char *refuse_nccl_overlap(const struct problem *p) { return refuse_nccl_any(p); }
void model_nccl_overlap(const struct problem *p, double *r, double *w) { model(p, r, w); }
void launch_nccl_graph(const struct problem *p, const struct context *ctx) { run_steps(p, ctx); }
const char *refuse_nccl_graph(const struct problem *p) { return refuse_nccl_any(p); }
void model_nccl_graph(const struct problem *p, double *r, double *w) { model(p, r, w); }
void launch_copy_overlap(const struct problem *p, const struct context *ctx) { run_steps(p, ctx); }
const char *refuse_copy_overlap(const struct problem *p) { return refuse_none(p); }
void model_copy_overlap(const struct problem *p, double *r, double *w) { model(p, r, w); }

void setup_kernels(const struct problem *p)
{
    (void)p;
    double c[WAVE_R + 1];
    laplacian_coefficients(2 * WAVE_R, c);
    for (int i = 0; i <= WAVE_R; i++) c_wave[i] = (float)c[i];
}
