// SPDX-License-Identifier: MIT
// Just enough TAP for C unit tests run by prove: ok(), is_int(), is_near(), done_testing().
// Every failure prints what was expected and what came instead.
#ifndef TAP_H
#define TAP_H
#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static int tap_count, tap_failed;

static int tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s %d - ", pass ? "ok" : "not ok", ++tap_count);
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    if (!pass) {
        tap_failed++;
        printf("#   Failed test at %s line %d.\n", file, line);
    }
    return pass;
}
#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
#define is_int(got, want, ...)                                                            \
    do {                                                                                  \
        long long g_ = (long long)(got), w_ = (long long)(want);                          \
        if (!tap_ok(g_ == w_, __FILE__, __LINE__, __VA_ARGS__))                           \
            printf("#          got: %lld\n#     expected: %lld\n", g_, w_);               \
    } while (0)
#define is_near(got, want, tol, ...)                                                      \
    do {                                                                                  \
        double g_ = (got), w_ = (want);                                                   \
        if (!tap_ok(fabs(g_ - w_) <= (tol), __FILE__, __LINE__, __VA_ARGS__))             \
            printf("#          got: %.17g\n#     expected: %.17g (within %g)\n", g_, w_,  \
                   (double)(tol));                                                        \
    } while (0)
static int done_testing(void)
{
    printf("1..%d\n", tap_count);
    return tap_failed ? 1 : 0;
}
#endif
