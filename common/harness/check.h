// SPDX-License-Identifier: MIT
// Checking an output against a double-precision reference, guard bands, statistics. Plain C11,
// no CUDA: every rule here is unit-tested on a machine without a GPU (tests/unit.c).
#ifndef CHECK_H
#define CHECK_H

#include <stddef.h>
#include <stdio.h>

#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

struct check {
    double rel_l2;  // ||gpu - ref|| / ||ref||
    size_t bad;     // points outside atol*rms(ref) + rtol*|ref|, NaN included
    size_t nan;     // points that are NaN (never written, or NaN computed)
    int pass;
};
// face_atol > 0: the absolute tolerance at the points on a face (a first or last index of a
// dimension longer than 1), in place of atol * rms(ref).
struct check compare(const float *gpu, const double *ref, const size_t n[MAX_DIMS], double l2_tol,
                     double atol, double rtol, double face_atol, FILE *log, int max_print);
// Largest and root-mean-square |gpu - exact| (NaN if any point is NaN).
void abs_errors(const float *gpu, const double *exact, size_t count, double *max_err, double *rms_err);
int guard_intact(const float *guard, size_t count);
void poison_host(float *a, size_t count);
extern const unsigned char POISON_BYTE;  // every byte of a poisoned float; makes a NaN

double median(double *v, int n);  // sorts v
double minimum(const double *v, int n);
size_t points(const size_t n[MAX_DIMS]);

#ifdef __cplusplus
}
#endif

#endif
