// SPDX-License-Identifier: MIT
// The grader's check of a student's output, outside the student's process:
//   compare-dump OUTPUT.f32 REFERENCE.f64 NX NY NZ L2 ATOL RTOL [FACE_ATOL]
// compares a --dump (float32) with a --dump-reference (float64) by the harness's own rule
// (common/harness/check.c) and prints "rel_l2 BAD_POINTS NAN_POINTS POINTS". Exit status 0 correct,
// 1 not correct, 2 could not read the files.
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static void *slurp(const char *path, size_t bytes)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *a = malloc(bytes + 1);
    size_t got = a ? fread(a, 1, bytes + 1, f) : 0;  // one byte more: a longer file is wrong too
    fclose(f);
    if (got != bytes) {
        free(a);
        return NULL;
    }
    return a;
}

int main(int argc, char **argv)
{
    if (argc != 9 && argc != 10) {
        fprintf(stderr, "usage: compare-dump OUTPUT.f32 REFERENCE.f64 NX NY NZ L2 ATOL RTOL [FACE_ATOL]\n");
        return 2;
    }
    size_t n[MAX_DIMS];
    for (int d = 0; d < MAX_DIMS; d++) n[d] = strtoull(argv[3 + d], NULL, 10);
    size_t count = points(n);
    float *out = slurp(argv[1], count * sizeof *out);
    double *ref = slurp(argv[2], count * sizeof *ref);
    if (!out || !ref) {
        printf("nan %zu %zu %zu\n", count, count, count);
        fprintf(stderr, "compare-dump: %s is missing or not %zu values\n", out ? argv[2] : argv[1], count);
        return 2;
    }
    struct check c = compare(out, ref, n, atof(argv[6]), atof(argv[7]), atof(argv[8]),
                                argc == 10 ? atof(argv[9]) : 0, NULL, 0);
    printf("%.6e %zu %zu %zu\n", c.rel_l2, c.bad, c.nan, count);
    return c.pass ? 0 : 1;
}
