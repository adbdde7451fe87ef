// SPDX-License-Identifier: MIT
// Comparison against the CPU reference, guard bands and statistics. Plain C11, no CUDA,
// so that every rule here is unit-tested on a machine without a GPU.
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

// 0xFF in every byte is a NaN (all exponent bits set, non-zero mantissa), and cudaMemset
// can write it, so the device and the host poison with the same pattern.
const unsigned char POISON_BYTE = 0xFF;

void poison_host(float *a, size_t count) { memset(a, POISON_BYTE, count * sizeof *a); }

int guard_intact(const float *guard, size_t count)
{
    const unsigned char *b = (const unsigned char *)guard;
    for (size_t i = 0; i < count * sizeof *guard; i++)
        if (b[i] != POISON_BYTE) return 0;
    return 1;
}

size_t points(const size_t n[MAX_DIMS]) { return n[0] * n[1] * n[2]; }

// Point i (x fastest) has a first or last index in a dimension longer than 1.
static int on_face(const size_t n[MAX_DIMS], size_t i)
{
    for (int d = 0; d < MAX_DIMS; i /= n[d], d++)
        if (n[d] > 1 && (i % n[d] == 0 || i % n[d] == n[d] - 1)) return 1;
    return 0;
}

struct check compare(const float *gpu, const double *ref, const size_t n[MAX_DIMS],
                     double l2_tol, double atol, double rtol, double face_atol, FILE *log, int max_print)
{
    const size_t count = points(n);
    double ref2 = 0, diff2 = 0;
    size_t nan = 0;
#pragma omp parallel for reduction(+ : ref2, diff2, nan)
    for (size_t i = 0; i < count; i++) {
        double d = (double)gpu[i] - ref[i];
        ref2 += ref[i] * ref[i];
        diff2 += d * d;  // NaN makes the sum NaN, and NaN fails every test below
        nan += isnan(gpu[i]) != 0;
    }
    struct check c = {0};
    c.nan = nan;
    double rms = sqrt(ref2 / (double)(count ? count : 1));
    // A zero reference has no scale: compare absolutely then.
    c.rel_l2 = ref2 > 0 ? sqrt(diff2) / sqrt(ref2) : sqrt(diff2);
    const double abs_tol = atol * (rms > 0 ? rms : 1.0);
#define TOL_AT(i) ((face_atol > 0 && on_face(n, i) ? face_atol : abs_tol) + rtol * fabs(ref[i]))

    size_t bad = 0;
#pragma omp parallel for reduction(+ : bad)
    for (size_t i = 0; i < count; i++) {
        double d = fabs((double)gpu[i] - ref[i]);
        // Written as "not within" so that NaN counts as bad; fabs(ref) so that a
        // negative reference does not make the tolerance negative (or vacuous).
        if (!(d <= TOL_AT(i))) bad++;
    }
    c.bad = bad;

    if (bad && log && max_print > 0) {
        int shown = 0;
        for (size_t i = 0; i < count && shown < max_print; i++) {
            double d = fabs((double)gpu[i] - ref[i]);
            if (d <= TOL_AT(i)) continue;
            size_t x = i % n[0], y = (i / n[0]) % n[1], z = i / (n[0] * n[1]);
            fprintf(log, "  mismatch at (%zu, %zu, %zu): expected %.9g, got %.9g%s\n", x, y, z,
                    ref[i], (double)gpu[i], isnan(gpu[i]) ? " (NaN: not written?)" : "");
            shown++;
        }
        if (bad > (size_t)shown)
            fprintf(log, "  ... %zu mismatches in all (%zu NaN) of %zu points\n", bad, nan,
                    count);
    }
    c.pass = bad == 0 && nan == 0 && c.rel_l2 <= l2_tol;
#undef TOL_AT
    return c;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double median(double *v, int n)
{
    if (n <= 0) return NAN;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double minimum(const double *v, int n)
{
    double m = n > 0 ? v[0] : NAN;
    for (int i = 1; i < n; i++)
        if (v[i] < m) m = v[i];
    return m;
}

void abs_errors(const float *gpu, const double *exact, size_t count, double *max_err, double *rms_err)
{
    double mx = 0, sum2 = 0;
    size_t nan = 0, known = 0;
#pragma omp parallel for reduction(max : mx) reduction(+ : sum2, nan, known)
    for (size_t i = 0; i < count; i++) {
        if (isnan(exact[i])) continue;  // a point the analytic answer does not determine
        double e = fabs((double)gpu[i] - exact[i]);
        known++;
        if (isnan(e)) nan++;
        else if (e > mx) mx = e;
        sum2 += isnan(e) ? 0 : e * e;
    }
    *max_err = nan ? NAN : mx;
    *rms_err = nan ? NAN : sqrt(sum2 / (double)(known ? known : 1));
}
