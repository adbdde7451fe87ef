// SPDX-License-Identifier: MIT
// Unit tests of the host harness and the CPU references (no GPU needed).
#define _DEFAULT_SOURCE  // fmemopen, M_PI
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "tap.h"

static const size_t N3[3] = {4, 3, 2};  // 24 points

static void test_compare(void)
{
    double ref[24];
    float gpu[24];
    for (int i = 0; i < 24; i++) {
        ref[i] = sin(i + 1.0);
        gpu[i] = (float)ref[i];
    }
    struct check c = compare(gpu, ref, N3, 1e-5, 1e-5, 1e-5, NULL, 0);
    ok(c.pass && c.bad == 0 && c.nan == 0, "an exact copy of the reference passes (rel_l2 %.1e)", c.rel_l2);

    gpu[7] = NAN;
    c = compare(gpu, ref, N3, 1e-5, 1e-5, 1e-5, NULL, 0);
    ok(!c.pass, "one NaN fails");
    is_int(c.nan, 1, "the NaN is counted");
    is_int(c.bad, 1, "the NaN counts as a bad point");

    gpu[7] = (float)ref[7];
    poison_host(&gpu[23], 1);  // an unwritten point keeps the poison
    c = compare(gpu, ref, N3, 1e-5, 1e-5, 1e-5, NULL, 0);
    ok(!c.pass && c.nan == 1, "an unwritten (still poisoned) point fails");

    // A negative reference must not make the tolerance negative or vacuous: the classic
    // (gpu - ref) / ref < tol test passes gpu = 2*ref for every negative ref.
    for (int i = 0; i < 24; i++) {
        ref[i] = -1.0 - i;
        gpu[i] = (float)(2 * ref[i]);
    }
    c = compare(gpu, ref, N3, 1e-5, 1e-5, 1e-5, NULL, 0);
    ok(!c.pass && c.bad == 24, "gpu = 2*ref fails on a negative reference (%zu bad)", c.bad);

    for (int i = 0; i < 24; i++) gpu[i] = (float)(ref[i] * (1 + 3e-6));
    c = compare(gpu, ref, N3, 1e-5, 1e-5, 1e-5, NULL, 0);
    ok(c.pass, "an error of 3e-6 relative passes a 1e-5 tolerance");
    gpu[5] = (float)(ref[5] * (1 + 1e-3));
    c = compare(gpu, ref, N3, 1e-3, 1e-5, 1e-5, NULL, 0);
    ok(!c.pass && c.bad == 1, "one point off by 1e-3 fails even when the L2 norm is small (%.1e)",
       c.rel_l2);

    // The mismatch log names the coordinates (x, y, z) of a bad point.
    char buf[512] = {0};
    FILE *log = fmemopen(buf, sizeof buf, "w");
    compare(gpu, ref, N3, 1e-3, 1e-5, 1e-5, log, 10);
    fclose(log);
    ok(strstr(buf, "(1, 1, 0)") != NULL, "the mismatch at index 5 is printed as (1, 1, 0): %s", buf);
}

static void test_guard(void)
{
    float g[100];
    poison_host(g, 100);
    ok(guard_intact(g, 100), "a poisoned guard band is intact");
    ok(isnan(g[0]), "the poison pattern is a NaN");
    g[99] = 0.0f;
    ok(!guard_intact(g, 100), "a write at the last guard element is caught");
    poison_host(g, 100);
    ((unsigned char *)g)[1] = 0;
    ok(!guard_intact(g, 100), "a single changed byte is caught");
}

static void test_stats(void)
{
    double a[] = {5, 1, 4, 2, 3};
    is_near(median(a, 5), 3, 0, "median of 5 values");
    double b[] = {4, 1, 3, 2};
    is_near(median(b, 4), 2.5, 0, "median of 4 values is the mean of the middle two");
    double c[] = {2, 0.5, 9};
    is_near(minimum(c, 3), 0.5, 0, "minimum");
}

static void test_parse_size(void)
{
    size_t n[3];
    char err[256];
    is_int(parse_size("512", 3, n, err, sizeof err), 0, "'512' parses for a 3D lab");
    ok(n[0] == 512 && n[1] == 512 && n[2] == 512, "one number means a cube");
    is_int(parse_size("131x67x45", 3, n, err, sizeof err), 0, "'131x67x45' parses");
    ok(n[0] == 131 && n[1] == 67 && n[2] == 45, "NXxNYxNZ in order");
    is_int(parse_size("1000003", 1, n, err, sizeof err), 0, "a 1D size");
    ok(n[0] == 1000003 && n[1] == 1 && n[2] == 1, "1D leaves ny = nz = 1");
    const char *bad[] = {"0", "-5", "abc", "12x", "x12", "1x2", "5x5x5x5", "99999999999999999999",
                         "4e3", " 12", "12 ", "+7", "1x0x3", "", "2000000x2000000x2000000"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        is_int(parse_size(bad[i], 3, n, err, sizeof err), 2, "'%s' is rejected (%s)", bad[i], err);
    is_int(parse_size("10x3", 1, n, err, sizeof err), 2, "two numbers for a 1D lab are rejected");
}

static void fake_launch(const struct problem *p, const struct grids *g) { (void)p, (void)g; }
static int even(int k) { return k >= 2 && k <= 12 && k % 2 == 0; }

static void test_parse_options(void)
{
    static const struct variant vs[] = {{"a", "", fake_launch, NULL, NULL, 0},
                                        {"b", "", fake_launch, NULL, NULL, 0}};
    struct lab plain = {0}, ordered = {0};
    plain.number = 9;
    plain.dims = 3;
    plain.default_n[0] = plain.default_n[1] = plain.default_n[2] = 64;
    plain.min_n[0] = plain.min_n[1] = plain.min_n[2] = 1;
    plain.variants = vs;
    plain.n_variants = 2;
    ordered = plain;
    ordered.default_order = 2;
    ordered.order_ok = even;

    struct options o;
    char err[256];
#define ARGV(...) (char *[]){"prog", __VA_ARGS__, NULL}
#define ARGC(...) (int)(sizeof((char *[]){"prog", __VA_ARGS__}) / sizeof(char *))
#define PARSE(lab, ...) parse_options(lab, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), &o, err, sizeof err)
    is_int(PARSE(&plain, "--reps", "3"), 0, "defaults parse");
    ok(o.n_selected == 2 && o.reps == 3 && o.seed == 1 && o.prob.n[2] == 64,
       "all variants, given reps, default seed and size");
    is_int(PARSE(&plain, "--variant", "b", "--seed=7"), 0, "--variant b --seed=7");
    ok(o.n_selected == 1 && o.selected[0] == 1 && o.seed == 7, "one variant selected, seed 7");
    is_int(PARSE(&plain, "--variant", "all"), 0, "--variant all");
    is_int(o.n_selected, 2, "'all' selects every variant");
    is_int(PARSE(&plain, "--bogus"), 2, "unknown option: %s", err);
    is_int(PARSE(&plain, "--variant", "zzz"), 2, "unknown variant: %s", err);
    is_int(PARSE(&plain, "--reps", "0"), 2, "--reps 0: %s", err);
    is_int(PARSE(&plain, "--reps", "ten"), 2, "--reps ten: %s", err);
    is_int(PARSE(&plain, "--seed", "-1"), 2, "--seed -1: %s", err);
    is_int(PARSE(&plain, "--size"), 2, "--size without a value: %s", err);
    is_int(PARSE(&plain, "--size", "0x4x4"), 2, "--size 0x4x4: %s", err);
    is_int(PARSE(&plain, "--order", "4"), 2, "--order on a lab without orders: %s", err);
    is_int(PARSE(&plain, "--steps", "4"), 2, "--steps on a lab without steps: %s", err);
    is_int(PARSE(&plain, "--dump", "x.raw"), 2, "--dump with two variants: %s", err);
    is_int(PARSE(&plain, "--dump", "x.raw", "--variant", "a"), 0, "--dump with one variant");
    is_int(PARSE(&plain, "--csv", ""), 2, "--csv with an empty name: %s", err);
    is_int(PARSE(&ordered, "--order", "8"), 0, "--order 8 where the lab has orders");
    is_int(o.prob.order, 8, "the order is kept");
    is_int(PARSE(&ordered, "--order", "7"), 2, "--order 7 is refused: %s", err);
    plain.min_n[0] = 9;
    is_int(PARSE(&plain, "--size", "8x64x64"), 2, "a size below the lab's minimum: %s", err);
#undef PARSE
#undef ARGC
#undef ARGV
}

static void test_random(void)
{
    enum { N = 100000 };
    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b);
    fill_random(a, N, 1);
    fill_random(b, N, 1);
    ok(!memcmp(a, b, N * sizeof *a), "the same seed gives the same input");
    fill_random(b, N, 2);
    ok(memcmp(a, b, N * sizeof *a) != 0, "another seed gives another input");
    double lo = 1, hi = -1, mean = 0;
    for (int i = 0; i < N; i++) {
        lo = a[i] < lo ? a[i] : lo;
        hi = a[i] > hi ? a[i] : hi;
        mean += a[i] / N;
    }
    ok(lo >= -1 && hi < 1 && lo < -0.99 && hi > 0.99, "values fill [-1, 1): %g .. %g", lo, hi);
    is_near(mean, 0, 0.01, "mean near 0");
    free(a);
    free(b);
}

// The 1D central difference converges as h^2 on a smooth function (n small enough that the
// float rounding of the input stays far below the truncation error).
static void test_diff1d(void)
{
    double err[2];
    for (int k = 0; k < 2; k++) {
        size_t n = k ? 129 : 65;
        double h = 1.0 / (double)(n - 1);
        float *f = malloc(n * sizeof *f);
        double *df = malloc(n * sizeof *df);
        for (size_t i = 0; i < n; i++) f[i] = (float)sin(2 * M_PI * i * h);
        ref_diff1d(f, df, n, h);
        err[k] = 0;
        for (size_t i = 1; i + 1 < n; i++) {
            double e = fabs(df[i] - 2 * M_PI * cos(2 * M_PI * i * h));
            err[k] = e > err[k] ? e : err[k];
        }
        if (k == 0) ok(df[0] == f[0] && df[n - 1] == f[n - 1], "the end points copy the input");
        free(f);
        free(df);
    }
    is_near(log2(err[0] / err[1]), 2.0, 0.05, "halving h divides the error by 4 (second order)");
}

// The weights of every order reproduce the second derivative of x^2 and cancel every even
// power up to x^order: that is what "order k" means.
static void test_laplacian_weights(void)
{
    double c[8];
    for (int order = 2; order <= 12; order += 2) {
        int r = laplacian_coefficients(order, c);
        is_int(r, order / 2, "order %d has radius %d", order, order / 2);
        double a0 = c[0] / 3;  // the 1D centre weight
        double m0 = a0;
        for (int i = 1; i <= r; i++) m0 += 2 * c[i];
        is_near(m0, 0, 1e-12, "order %d: the weights sum to zero", order);
        for (int p = 2; p <= order; p += 2) {
            double m = 0;
            for (int i = 1; i <= r; i++) m += 2 * c[i] * pow(i, p);
            double want = p == 2 ? 2.0 : 0.0;  // (x^p)'' at x = 0
            is_near(m, want, 1e-9, "order %d: moment %d is %g", order, p, want);
        }
    }
    ok(laplacian_coefficients(7, c) < 0 && laplacian_coefficients(14, c) < 0,
       "odd and too large orders are refused");
}

// Every star stencil computes the Laplacian of a quadratic exactly: x^2 + 2y^2 + 3z^2 -> 12.
static void test_star3d(void)
{
    const size_t n[3] = {15, 14, 13};
    size_t count = points(n);
    float *in = malloc(count * sizeof *in);
    double *out = malloc(count * sizeof *out);
    for (size_t z = 0; z < n[2]; z++)
        for (size_t y = 0; y < n[1]; y++)
            for (size_t x = 0; x < n[0]; x++)
                in[(z * n[1] + y) * n[0] + x] = (float)(x * x + 2.0 * y * y + 3.0 * z * z);
    double c[8];
    for (int order = 2; order <= 12; order += 2) {
        int r = laplacian_coefficients(order, c);
        ref_star3d(in, out, n, r, c);
        double worst = 0;
        int copied = 1;
        for (size_t z = 0; z < n[2]; z++)
            for (size_t y = 0; y < n[1]; y++)
                for (size_t x = 0; x < n[0]; x++) {
                    size_t i = (z * n[1] + y) * n[0] + x;
                    size_t rr = (size_t)r;
                    int edge = x < rr || y < rr || z < rr || x + rr >= n[0] || y + rr >= n[1] ||
                               z + rr >= n[2];
                    if (edge) copied &= out[i] == in[i];
                    else worst = fmax(worst, fabs(out[i] - 12));
                }
        is_near(worst, 0, 1e-9, "order %d: Laplacian of x^2+2y^2+3z^2 is 12 inside", order);
        ok(copied, "order %d: points within %d of a face copy the input", order, r);
    }
    free(in);
    free(out);
}

// The periodic 8th-order derivative: exact on the lowest wave up to rounding, eighth order on a
// finer one, along each dimension, with the periodic images right at every face.
static void test_deriv8(void)
{
    double err[2][3];
    const size_t sizes[2] = {16, 24};
    for (int s = 0; s < 2; s++) {
        size_t n[3] = {sizes[s], sizes[s], sizes[s]}, count = points(n);
        float *f = malloc(count * sizeof *f);
        double *df = malloc(count * sizeof *df);
        const double w = 4 * M_PI, shift[3] = {0.1, 0.3, 0.7};  // two waves, no symmetric face
        for (int dim = 0; dim < 3; dim++) {
            for (size_t i = 0; i < count; i++) {
                size_t c[3] = {i % n[0], (i / n[0]) % n[1], i / (n[0] * n[1])};
                f[i] = (float)sin(w * ((double)c[dim] / (double)n[dim] + shift[dim]));
            }
            ref_deriv8_periodic(f, df, n, dim, 1.0 / (double)n[dim]);
            err[s][dim] = 0;
            for (size_t i = 0; i < count; i++) {
                size_t c[3] = {i % n[0], (i / n[0]) % n[1], i / (n[0] * n[1])};
                double exact = w * cos(w * ((double)c[dim] / (double)n[dim] + shift[dim]));
                err[s][dim] = fmax(err[s][dim], fabs(df[i] - exact));
            }
        }
        free(f);
        free(df);
    }
    for (int dim = 0; dim < 3; dim++)
        is_near(log(err[0][dim] / err[1][dim]) / log(24.0 / 16.0), 8.0, 0.4,
                "d/d%c: error falls as h^8 from n = 16 to 24 (%.2e -> %.2e)", "xyz"[dim],
                err[0][dim], err[1][dim]);
    double sum = 0;
    for (int k = 0; k < 4; k++) sum += 2 * (k + 1) * DERIV8[k];
    is_near(sum, 1.0, 1e-15, "the weights differentiate x exactly: sum 2 k c_k = 1");
}

int main(void)
{
    test_compare();
    test_guard();
    test_stats();
    test_parse_size();
    test_parse_options();
    test_random();
    test_diff1d();
    test_laplacian_weights();
    test_star3d();
    test_deriv8();
    return done_testing();
}
