// SPDX-License-Identifier: MIT
// Lab 8's rules that its definition (labs/lab8_wave/lab.c) and kernels share: the radius of
// the 8th-order star, the zero boundary layer and the absorbing sponge. Plain C, host and device.
#ifndef WAVE_H
#define WAVE_H

#include "reference.h"  // HOST_DEVICE

enum { WAVE_R = 4 };               // 8th order in space: 4 neighbours on each side
#define WAVE_SPONGE_MAX 0.25f      // damping sigma at the sponge's outer edge

// How deep (x, y, z) lies inside the updated domain: 0 for the first point that is updated,
// negative on the boundary layer (the WAVE_R points next to each face, which stay zero).
HOST_DEVICE static inline int wave_depth(int x, int y, int z, int nx, int ny, int nz)
{
    int d = x < nx - 1 - x ? x : nx - 1 - x;
    int e = y < ny - 1 - y ? y : ny - 1 - y;
    int f = z < nz - 1 - z ? z : nz - 1 - z;
    d = d < e ? d : e;
    d = d < f ? d : f;
    return d - WAVE_R;
}

// The sponge's damping at depth d for a sponge `width` points deep (0: no sponge). It grows
// quadratically towards the boundary, so that a wave entering it is not reflected by a jump.
HOST_DEVICE static inline float wave_sigma(int d, int width)
{
    if (d >= width) return 0.f;
    float q = (float)(width - d) / (float)width;
    return WAVE_SPONGE_MAX * q * q;
}

// The new level at a point of depth d >= 0 from u, u_prev, vsq and the Laplacian sum: leapfrog,
// damped inside the sponge (sigma > 0): (2u - (1 - sigma) u_prev + vsq lap) / (1 + sigma).
HOST_DEVICE static inline float wave_leapfrog(float u, float up, float vsq, float lap, int d, int sponge)
{
    if (sponge > 0) {
        const float s = wave_sigma(d, sponge);
        if (s > 0.f) return (2.f * u - (1.f - s) * up + vsq * lap) / (1.f + s);
    }
    return 2.f * u - up + vsq * lap;
}

// ---- the host side (common/stencils/wave.c), for the definitions of labs 8 and 9 ----
enum { WAVE_COURANT, WAVE_MODEL, WAVE_SPONGE };  // p->param[...]: --courant, --model, --sponge

#ifndef __CUDACC__
#include "lab.h"

// f(theta): the order-8 second difference multiplies cos(theta x + phase) by -f(theta) / h^2.
double wave_symbol(double theta);
// The largest stable C = v_max dt / h of leapfrog with the order-8 star in 3D (about 0.4529).
double wave_courant_limit(void);
const char *wave_validate(const struct problem *p);  // 3D, and C within the limit
void wave_tolerance(const struct problem *p, double *l2, double *atol, double *rtol);
double wave_flops(const struct problem *p);  // 33 per point-step outside the sponge
double wave_model_vsq(const struct problem *p, size_t z);  // --model 1: vsq of plane z
int wave_source(const struct problem *p, size_t *at, float *amplitude);
void wave_input(const struct problem *p, int field, unsigned long long seed, float *a);
int wave_input_rule(const struct problem *p, int field, double *scale, double *offset, double *slope);
// S steps in double, in place as the kernels do them; out: the last level.
void wave_steps(const struct problem *p, const float *u_prev, const float *u, const float *vsq, double *out);
void wave_reference(const struct problem *p, int kind, const float *const *in, double *ref);
void *wave_xalloc(size_t bytes);  // malloc, or exit 2 with one line

// What the definitions of labs 8 and 9 share: the 512^3 grid and 6 steps by default, the options
// --courant, --model and --sponge, the fields (u_prev, u, vsq in; u_out out; a work array), 16
// bytes per point-step, and the host side above.
#define WAVE_DEFINITION                                                                                         \
    .dims = 3, .default_n = {512, 512, 512}, .min_n = {1, 1, 1}, .default_steps = 6,                            \
    .params = (const struct lab_param[]){                                                                       \
        {"courant", "C = v_max dt / h: at most 0.4529 (the stability limit)", 0.4, 0, 1},                       \
        {"model", "0: random fields and velocities; 1: two layers and a Ricker source", 0, 0, 1},               \
        {"sponge", "0: reflecting faces; W: an absorbing layer W points deep", 0, 0, 64}},                      \
    .n_params = 3, .validate = wave_validate, .source = wave_source,                                            \
    .fields = (const struct field[]){{"u_prev", FIELD_IN}, {"u", FIELD_IN}, {"vsq", FIELD_IN},                  \
                                     {"u_out", FIELD_OUT}, {"work", FIELD_SCRATCH}},                            \
    .n_fields = 5, .bytes_per_point = 16, .flops_per_point = wave_flops, .tolerance = wave_tolerance,           \
    .input = wave_input,                                                                                        \
    .input_rule = wave_input_rule,                                                                              \
    .reference = LAB_REFERENCE(wave_reference), .reference_bytes_per_point = 16 /* wave_steps: two double fields */
#endif

#endif
