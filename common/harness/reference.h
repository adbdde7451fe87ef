// SPDX-License-Identifier: MIT
// Seeded inputs and the CPU references that several labs share. Plain C11 with OpenMP; the
// references of one lab live in that lab's definition.
#ifndef REFERENCE_H
#define REFERENCE_H

#include <stddef.h>
#include <stdint.h>

#include "lab.h"

#ifdef __CUDACC__
#define HOST_DEVICE __host__ __device__
#else
#define HOST_DEVICE
#endif

#ifdef __cplusplus
extern "C" {
#endif

// splitmix64: the hash behind every seeded input, on the host and on the GPU alike.
HOST_DEVICE static inline uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// A grid's digest (make check's --serve): the sum, mod 2^64, of one hash per point of its
// number in the whole grid (x fastest, no padding) and the bits of its value. A sum, so that the
// GPU's blocks and lab 9's processes add their parts in any order; one hash a point, so that
// matching a digest takes every value of the grid, bit for bit.
HOST_DEVICE static inline uint64_t digest_term(uint64_t i, uint32_t bits) { return mix64(mix64(i) ^ bits); }

// Uniform in [-1, 1), 24 random bits: element i of the array seeded `seed`. The GPU fills
// inputs with the same function (common/harness/device.cu), so a run's input can be made on either.
HOST_DEVICE static inline float random_value(uint64_t seed, uint64_t i)
{
    uint64_t r = mix64(mix64(seed) ^ mix64(i));
    return (float)((double)(r >> 40) / (double)(1ull << 23) - 1.0);
}
void fill_random(float *a, size_t count, uint64_t seed);

// A seeded input by rule, which the GPU can make as well as the host (so that the timed runs'
// fresh inputs need no upload): point i of the grid, in plane z, is
//   (float)(scale[z] * (offset + slope * random_value(seed, i)))
// in double, each operation rounded on its own (no fused multiply-add), the same bits on both.
HOST_DEVICE static inline float seeded_value(double scale, double offset, double slope, uint64_t seed, uint64_t i)
{
    const double r = random_value(seed, i);
#ifdef __CUDA_ARCH__
    return (float)__dmul_rn(scale, __dadd_rn(offset, __dmul_rn(slope, r)));
#else
    return (float)(scale * (offset + slope * r));  // C11 mode: gcc contracts nothing (-ffp-contract=off)
#endif
}
// The planes first .. first + planes - 1 of such an input (planes of `plane` points) into a.
void fill_seeded(float *a, size_t plane, size_t first, size_t planes, const double *scale, double offset,
                 double slope, uint64_t seed);
// The seed of input field f in the run seeded `seed`.
HOST_DEVICE static inline uint64_t field_seed(uint64_t seed, int f) { return f == 0 ? seed : mix64(seed + (uint64_t)f); }

// 3D star stencil of radius r: c[0]*centre + sum_i c[i]*(6 neighbours at distance i); points
// within r of any face copy the input.
void ref_star3d(const float *in, double *out, const size_t n[MAX_DIMS], int r, const double *c);

#ifdef __cplusplus
}
#endif

#endif
