// SPDX-License-Identifier: MIT
// Seeded inputs and the double-precision CPU references several labs share, parallel with
// OpenMP so that a 512^3 check takes well under a second on a workstation.
#include <stdint.h>

#include "reference.h"

// The same numbers whatever the thread count (and on the GPU: common/harness/device.cu).
void fill_random(float *a, size_t count, uint64_t seed)
{
#pragma omp parallel for
    for (size_t i = 0; i < count; i++) a[i] = random_value(seed, i);
}

void fill_seeded(float *a, size_t plane, size_t first, size_t planes, const double *scale, double offset,
                 double slope, uint64_t seed)
{
#pragma omp parallel for collapse(2)
    for (size_t z = first; z < first + planes; z++)
        for (size_t k = 0; k < plane; k++)
            a[(z - first) * plane + k] = seeded_value(scale[z], offset, slope, seed, z * plane + k);
}

void ref_star3d(const float *in, double *out, const size_t n[MAX_DIMS], int r, const double *c)
{
    const size_t nx = n[0], ny = n[1], nz = n[2], sy = nx, sz = nx * ny;
#pragma omp parallel for collapse(2)
    for (size_t z = 0; z < nz; z++)
        for (size_t y = 0; y < ny; y++)
            for (size_t x = 0; x < nx; x++) {
                size_t i = z * sz + y * sy + x;
                size_t rr = (size_t)r;
                if (x < rr || y < rr || z < rr || x + rr >= nx || y + rr >= ny || z + rr >= nz) {
                    out[i] = in[i];
                    continue;
                }
                double s = c[0] * in[i];
                for (size_t d = 1; d <= rr; d++)
                    s += c[d] * ((double)in[i - d] + in[i + d] + in[i - d * sy] + in[i + d * sy] +
                                 in[i - d * sz] + in[i + d * sz]);
                out[i] = s;
            }
}

// Central second-derivative weights a[0..r] of order k = 2r (unit spacing), from the Taylor
// series; the 3D star stencil of the Laplacian is c[0] = 3 a[0], c[i] = a[i].
int laplacian_coefficients(int order, double *c)
{
    static const double a[6][7] = {
        {-2.0, 1.0},
        {-5.0 / 2, 4.0 / 3, -1.0 / 12},
        {-49.0 / 18, 3.0 / 2, -3.0 / 20, 1.0 / 90},
        {-205.0 / 72, 8.0 / 5, -1.0 / 5, 8.0 / 315, -1.0 / 560},
        {-5269.0 / 1800, 5.0 / 3, -5.0 / 21, 5.0 / 126, -5.0 / 1008, 1.0 / 3150},
        {-5369.0 / 1800, 12.0 / 7, -15.0 / 56, 10.0 / 189, -1.0 / 112, 2.0 / 1925, -1.0 / 16632},
    };
    if (order < 2 || order > 12 || order % 2) return -1;
    int r = order / 2;
    c[0] = 3 * a[r - 1][0];
    for (int i = 1; i <= r; i++) c[i] = a[r - 1][i];
    return r;
}
