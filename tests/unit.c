// SPDX-License-Identifier: MIT
// Unit tests of the host harness and the shared CPU references (no GPU needed). Each lab's own
// reference is checked by its definition's self-test (./labN --self-test, tests/10-unit.t).
#define _DEFAULT_SOURCE  // fmemopen, mkstemp, M_PI
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "ranks.h"
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
    struct check c = compare(gpu, ref, N3, 1e-5, 1e-5, 1e-5, 0, NULL, 0);
    ok(c.pass && c.bad == 0 && c.nan == 0, "an exact copy of the reference passes (rel_l2 %.1e)", c.rel_l2);

    gpu[7] = NAN;
    c = compare(gpu, ref, N3, 1e-5, 1e-5, 1e-5, 0, NULL, 0);
    ok(!c.pass, "one NaN fails");
    is_int(c.nan, 1, "the NaN is counted");
    is_int(c.bad, 1, "the NaN counts as a bad point");

    gpu[7] = (float)ref[7];
    poison_host(&gpu[23], 1);  // an unwritten point keeps the poison
    c = compare(gpu, ref, N3, 1e-5, 1e-5, 1e-5, 0, NULL, 0);
    ok(!c.pass && c.nan == 1, "an unwritten (still poisoned) point fails");

    // A negative reference must not make the tolerance negative or vacuous: the classic
    // (gpu - ref) / ref < tol test passes gpu = 2*ref for every negative ref.
    for (int i = 0; i < 24; i++) {
        ref[i] = -1.0 - i;
        gpu[i] = (float)(2 * ref[i]);
    }
    c = compare(gpu, ref, N3, 1e-5, 1e-5, 1e-5, 0, NULL, 0);
    ok(!c.pass && c.bad == 24, "gpu = 2*ref fails on a negative reference (%zu bad)", c.bad);

    for (int i = 0; i < 24; i++) gpu[i] = (float)(ref[i] * (1 + 3e-6));
    c = compare(gpu, ref, N3, 1e-5, 1e-5, 1e-5, 0, NULL, 0);
    ok(c.pass, "an error of 3e-6 relative passes a 1e-5 tolerance");
    gpu[5] = (float)(ref[5] * (1 + 1e-3));
    c = compare(gpu, ref, N3, 1e-3, 1e-5, 1e-5, 0, NULL, 0);
    ok(!c.pass && c.bad == 1, "one point off by 1e-3 fails even when the L2 norm is small (%.1e)",
       c.rel_l2);

    // The mismatch log names the coordinates (x, y, z) of a bad point.
    char buf[512] = {0};
    FILE *log = fmemopen(buf, sizeof buf, "w");
    compare(gpu, ref, N3, 1e-3, 1e-5, 1e-5, 0, log, 10);
    fclose(log);
    buf[strcspn(buf, "\n")] = 0;
    ok(strstr(buf, "(1, 1, 0)") != NULL, "the mismatch at index 5 is printed as (1, 1, 0): %s", buf);

    // Lab 1's end points: an answer that grows like n (rms 1e4 here) excuses a copied end point
    // off by 0.05 under atol * rms; face_atol does not, and leaves the interior's tolerance alone.
    enum { N1 = 1000 };
    static double r1[N1];
    static float g1[N1];
    const size_t n1[3] = {N1, 1, 1};
    for (int i = 0; i < N1; i++) r1[i] = i == 0 || i == N1 - 1 ? 0.5 : 1e4 * sin(i);
    for (int i = 0; i < N1; i++) g1[i] = (float)r1[i];
    g1[N1 - 1] += 0.05f;
    ok(compare(g1, r1, n1, 1e-5, 1e-5, 1e-5, 0, NULL, 0).pass, "an end point off by 0.05 passes atol * rms(ref) (7e3 * 1e-5)");
    ok(!compare(g1, r1, n1, 1e-5, 1e-5, 1e-5, 1e-5, NULL, 0).pass, "and fails with face_atol 1e-5");
    g1[N1 - 1] = (float)r1[N1 - 1];
    g1[500] += 0.02f;  // an interior point within 1e-5 * rms
    ok(compare(g1, r1, n1, 1e-5, 1e-5, 1e-5, 1e-5, NULL, 0).pass, "an interior point keeps atol * rms(ref)");
    // In 3D every face counts: (0, 1, 1) and (3, 1, 1) of 4x3x3 are on a face, (1, 1, 1) is not.
    const size_t n3[3] = {4, 3, 3};
    double r3[36];
    float g3[36];
    for (int i = 0; i < 36; i++) r3[i] = 1e3, g3[i] = 1e3f;
    g3[1 + 4 * (1 + 3 * 1)] += 0.5f;
    ok(compare(g3, r3, n3, 1, 1e-3, 0, 1e-5, NULL, 0).pass, "3D: an inner point keeps atol * rms");
    g3[0 + 4 * (1 + 3 * 1)] += 0.5f;
    ok(!compare(g3, r3, n3, 1, 1e-3, 0, 1e-5, NULL, 0).pass, "3D: a point on the x = 0 face takes face_atol");
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
    int dims;
    char err[256];
    is_int(parse_size("512", 3, 3, n, &dims, err, sizeof err), 0, "'512' parses for a 3D lab");
    ok(n[0] == 512 && n[1] == 512 && n[2] == 512 && dims == 3, "one number means a cube");
    is_int(parse_size("131x67x45", 3, 3, n, &dims, err, sizeof err), 0, "'131x67x45' parses");
    ok(n[0] == 131 && n[1] == 67 && n[2] == 45, "NXxNYxNZ in order");
    is_int(parse_size("1000003", 1, 1, n, &dims, err, sizeof err), 0, "a 1D size");
    ok(n[0] == 1000003 && n[1] == 1 && n[2] == 1 && dims == 1, "1D leaves ny = nz = 1");
    const char *bad[] = {"0", "-5", "abc", "12x", "x12", "1x2", "5x5x5x5", "99999999999999999999",
                         "4e3", " 12", "12 ", "+7", "1x0x3", "", "2000000x2000000x2000000"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        is_int(parse_size(bad[i], 3, 3, n, &dims, err, sizeof err), 2, "'%s' is rejected (%s)", bad[i], err);
    is_int(parse_size("10x3", 1, 1, n, &dims, err, sizeof err), 2, "two numbers for a 1D lab are rejected");
    // A lab of 2D problems that also takes 3D ones (lab 7).
    is_int(parse_size("300", 2, 3, n, &dims, err, sizeof err), 0, "one number for a 2D/3D lab");
    ok(n[0] == 300 && n[1] == 300 && n[2] == 1 && dims == 2, "one number is the default (2D) square");
    is_int(parse_size("30x20x10", 2, 3, n, &dims, err, sizeof err), 0, "three numbers for a 2D/3D lab");
    ok(n[2] == 10 && dims == 3, "three numbers make a 3D problem");
    is_int(parse_size("30x20", 2, 3, n, &dims, err, sizeof err), 0, "two numbers for a 2D/3D lab");
    ok(n[1] == 20 && n[2] == 1 && dims == 2, "two numbers make a 2D problem");
    is_int(parse_size("30x20", 3, 3, n, &dims, err, sizeof err), 2, "two numbers for a 3D lab: %s", err);
}

static void fake_launch(const struct problem *p, const struct context *c) { (void)p, (void)c; }
static const char *fake_refuse(const struct problem *p) { (void)p; return NULL; }
static int even(int k) { return k >= 2 && k <= 12 && k % 2 == 0; }
static const char *not_above_half(const struct problem *p) { return p->param[0] > 0.5 / p->dims ? "too big for this dimension" : NULL; }

static void test_parse_options(void)
{
    static const struct variant vs[] = {{"a", "", fake_launch, fake_refuse, NULL, 0, NULL, 0, 0},
                                        {"b", "", fake_launch, fake_refuse, NULL, 0, NULL, 0, 0}};
    static const struct lab_param diffusion[] = {{"diffusion", "D", 0.1, 0, 1}};
    struct lab plain = {0}, ordered = {0}, stepped = {0};
    plain.id = "9";
    plain.dims = 3;
    plain.default_n[0] = plain.default_n[1] = plain.default_n[2] = 64;
    plain.min_n[0] = plain.min_n[1] = plain.min_n[2] = 1;
    plain.variants = vs;
    plain.n_variants = 2;
    ordered = plain;
    ordered.default_order = 2;
    ordered.order_ok = even;
    stepped = plain;
    stepped.dims = 2;
    stepped.max_dims = 3;
    stepped.default_steps = 10;
    stepped.params = diffusion;
    stepped.n_params = 1;
    stepped.validate = not_above_half;

    struct options o;
    char err[256];
#define ARGV(...) (char *[]){"prog", __VA_ARGS__, NULL}
#define ARGC(...) (int)(sizeof((char *[]){"prog", __VA_ARGS__}) / sizeof(char *))
#define PARSE(lab, ...) parse_options(lab, ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), &o, err, sizeof err)
    is_int(PARSE(&plain, "--reps", "3"), 0, "defaults parse");
    ok(o.n_selected == 2 && o.reps == 3 && o.seed == 1 && o.prob.n[2] == 64 && o.prob.dims == 3,
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
    is_int(PARSE(&plain, "--diffusion", "0.1"), 2, "another lab's option: %s", err);
    is_int(PARSE(&plain, "--dump", "x.raw"), 2, "--dump with two variants: %s", err);
    is_int(PARSE(&plain, "--dump", "x.raw", "--variant", "a"), 0, "--dump with one variant");
    is_int(PARSE(&plain, "--dump", "x-%s.raw"), 0, "--dump with %%s and every variant");
    is_int(PARSE(&plain, "--dump", "x-%s-%d.raw"), 2, "--dump with another conversion: %s", err);
    is_int(PARSE(&plain, "--dump", "x-%n.raw", "--variant", "a"), 2, "--dump with %%n: %s", err);
    is_int(PARSE(&plain, "--dump-reference", "r.f64"), 2, "--dump-reference with two variants: %s", err);
    is_int(PARSE(&plain, "--dump-reference", "r.f64", "--variant", "b"), 0, "--dump-reference with one");
    is_int(PARSE(&plain, "--csv", ""), 2, "--csv with an empty name: %s", err);
    is_int(PARSE(&plain, "--list", "--self-test"), 0, "--list and --self-test are flags");
    ok(o.list && o.self_test, "both set");
    is_int(PARSE(&ordered, "--order", "8"), 0, "--order 8 where the lab has orders");
    is_int(o.prob.order, 8, "the order is kept");
    is_int(PARSE(&ordered, "--order", "7"), 2, "--order 7 is refused: %s", err);
    is_int(PARSE(&stepped, "--steps", "5", "--diffusion", "0.2"), 0, "a lab's own option");
    ok(o.prob.steps == 5 && o.prob.param[0] == 0.2 && o.prob.dims == 2, "steps 5, D 0.2, 2D");
    is_int(PARSE(&stepped, "--reps", "20"), 0, "defaults of a stepped lab");
    ok(o.prob.steps == 10 && o.prob.param[0] == 0.1, "default steps and option");
    is_int(PARSE(&stepped, "--diffusion", "1.5"), 2, "an option out of its range: %s", err);
    is_int(PARSE(&stepped, "--diffusion", "0.2x"), 2, "an option that is not a number: %s", err);
    is_int(PARSE(&stepped, "--diffusion=nan"), 2, "NaN: %s", err);
    is_int(PARSE(&stepped, "--size", "8x8x8", "--diffusion", "0.2"), 2, "the lab's validate() refuses: %s", err);
    is_int(PARSE(&stepped, "--size", "8x8x8", "--diffusion", "0.15"), 0, "and accepts below the limit");
    is_int(o.prob.dims, 3, "a 3D problem");
    plain.min_n[0] = 9;
    is_int(PARSE(&plain, "--size", "8x64x64"), 2, "a size below the lab's minimum: %s", err);
#undef PARSE
#undef ARGC
#undef ARGV
}

static void write_two(FILE *f, void *ctx)
{
    (void)ctx;
    fprintf(f, "1,2\n3,4\n");
}

static char *slurp(const char *path)
{
    static char buf[4096];
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) fclose(f);
    buf[n] = 0;
    return buf;
}

// The CSV: a new file gets the header; a file with the same header is appended to; a file with
// another header (an older schema) is refused and left as it was.
static void test_csv(void)
{
    char path[] = "/tmp/stencil-labs-unit-XXXXXX";
    int fd = mkstemp(path);
    ok(fd >= 0, "a temporary file");
    close(fd);
    is_int(csv_append(path, write_two, NULL, "a,b"), 0, "append to an empty file");
    ok(!strcmp(slurp(path), "a,b\n1,2\n3,4\n"), "the header comes first");
    is_int(csv_append(path, write_two, NULL, "a,b"), 0, "append with the same header");
    ok(!strcmp(slurp(path), "a,b\n1,2\n3,4\n1,2\n3,4\n"), "rows appended, no second header");
    FILE *devnull = freopen("/dev/null", "w", stderr);
    is_int(csv_append(path, write_two, NULL, "a,b,c"), -1, "another header is refused");
    ok(devnull != NULL, "(stderr silenced for that)");
    ok(!strcmp(slurp(path), "a,b\n1,2\n3,4\n1,2\n3,4\n"), "and the file is unchanged");
    remove(path);
    ok(strstr(CSV_HEADER, "gpu,lab,variant,") == CSV_HEADER && strstr(CSV_HEADER, ",commit,ranks,gpus,timing"),
       "the schema keeps its first columns and adds new ones at the end");
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
    // The rules of seeded inputs (which the GPU also evaluates) give what they describe, bit for
    // bit: random_value itself, c2 (0.625 + 0.375 r), a constant per plane, and +0 (not -0).
    double one[2] = {1, 1}, c2[2] = {0.16, 0.16}, layer[2] = {0.5, 0.25}, zero[2] = {0, 0};
    fill_seeded(b, N / 2, 0, 2, one, 0, 1, 1);
    ok(!memcmp(a, b, N * sizeof *a), "fill_seeded(scale 1, offset 0, slope 1) is fill_random");
    fill_seeded(b + N / 2, N / 2, 1, 1, one, 0, 1, 1);
    ok(!memcmp(a + N / 2, b + N / 2, N / 2 * sizeof *a), "a span of planes has the grid's values there");
    fill_seeded(b, N / 2, 0, 2, c2, 0.625, 0.375, 1);
    int same = 1;
    for (int i = 0; i < N; i++) same &= b[i] == (float)(0.16 * (0.625 + 0.375 * random_value(1, i)));
    ok(same, "scale c2, offset 0.625, slope 0.375: c2 (0.625 + 0.375 r)");
    fill_seeded(b, N / 2, 0, 2, layer, 1, 0, 1);
    ok(b[0] == 0.5f && b[N / 2 - 1] == 0.5f && b[N / 2] == 0.25f && b[N - 1] == 0.25f, "offset 1, slope 0: the plane's scale");
    fill_seeded(b, N / 2, 0, 2, zero, 0, 0, 1);
    same = 1;
    for (int i = 0; i < N; i++) same &= !signbit(b[i]) && b[i] == 0;
    ok(same, "scale 0: +0 everywhere (the bits of memset 0)");
    free(a);
    free(b);
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

// The slabs of lab 9: every plane owned exactly once, in rank order, sizes differing by at most
// one; a slab thinner than the ghost zone refused.
static void test_slabs(void)
{
    int cover = 1, balanced = 1;
    for (size_t nz = 1; nz <= 40; nz++)
        for (int ranks = 1; ranks <= 8; ranks++) {
            size_t next = 0, lo = nz, hi = 0;
            for (int r = 0; r < ranks; r++) {
                struct slab s = slab_of(nz, ranks, r);
                cover &= s.z0 == next;
                next = s.z0 + s.nz;
                lo = s.nz < lo ? s.nz : lo, hi = s.nz > hi ? s.nz : hi;
            }
            cover &= next == nz;
            balanced &= hi - lo <= 1;
        }
    ok(cover, "slab_of: the slabs of 1..8 ranks cover nz = 1..40 in order, each plane once");
    ok(balanced, "slab_of: slab sizes differ by at most one plane");
    struct slab s = slab_of(10, 3, 0), t = slab_of(10, 3, 2);
    ok(s.z0 == 0 && s.nz == 4 && t.z0 == 7 && t.nz == 3, "slab_of(10, 3): 4 + 3 + 3 planes, the extra one first");
    ok(slab_refuse(16, 4, 4) == NULL && slab_refuse(15, 4, 4) != NULL,
       "slab_refuse: 4 ranks of 4 planes carry 4 ghost planes, 15 planes do not: %s", slab_refuse(15, 4, 4));
    ok(slab_refuse(3, 1, 4) == NULL, "slab_refuse: one rank has no neighbour to send it ghosts");
    is_int(ranks_size(), 1, "without MPI there is one rank");
}

// Padded rows (lab.h): the pitch a lab's row_align gives, and device_index.
static void test_pitch(void)
{
    struct lab padded = {0}, plain = {0};
    padded.row_align = 32;
    struct problem p = {.n = {513, 7, 9}, .dims = 3};
    problem_slab(&padded, &p, 1);
    ok(p.pitch == 544, "row_align 32: nx = 513 gets a pitch of 544 (%zu)", p.pitch);
    ok(device_index(&p, 0) == 0 && device_index(&p, 512) == 512 && device_index(&p, 513) == 544 &&
           device_index(&p, 513 * 7 + 2) == 544 * 7 + 2,
       "device_index: point (x, y, z) is element x + pitch (y + ny z)");
    p.n[0] = 64;
    problem_slab(&padded, &p, 1);
    ok(p.pitch == 64 && device_index(&p, 1000) == 1000, "row_align 32: nx = 64 needs no padding");
    p.n[0] = 1;
    problem_slab(&padded, &p, 1);
    ok(p.pitch == 32, "row_align 32: nx = 1 still gets a whole row of 32 (%zu)", p.pitch);
    p.n[0] = 513;
    problem_slab(&plain, &p, 1);
    ok(p.pitch == 513 && device_index(&p, 1000) == 1000, "no row_align: the pitch is nx");
}

// STENCIL_EMULATE's form, and a default size scaled to the memory of a smaller machine.
static void test_limits(void)
{
    struct gpu_limits lim;
    char err[256];
    int rc = parse_emulation("smem=64K,mem=4G", &lim, err, sizeof err);
    ok(rc == 0 && lim.smem_per_block == 65536 && lim.memory == (size_t)4 << 30,
       "smem=64K,mem=4G: %zu bytes a block, %zu bytes", lim.smem_per_block, lim.memory);
    ok(parse_emulation("smem=101376", &lim, err, sizeof err) == 0 && lim.smem_per_block == 101376 && lim.memory == 0,
       "smem alone, in bytes");
    ok(parse_emulation("mem=8g", &lim, err, sizeof err) == 0 && lim.memory == (size_t)8 << 30 && !lim.smem_per_block,
       "mem alone, lower case");
    is_int(parse_emulation("smem=lots", &lim, err, sizeof err), 2, "a size that is not a number: %s", err);
    is_int(parse_emulation("regs=32", &lim, err, sizeof err), 2, "an unknown key: %s", err);
    is_int(parse_emulation("", &lim, err, sizeof err), 2, "nothing asked for: %s", err);

    static const struct field two[] = {{"in", FIELD_IN}, {"out", FIELD_OUT}};
    struct lab lab = {0};
    lab.dims = 3;
    lab.default_n[0] = lab.default_n[1] = lab.default_n[2] = 512;
    lab.min_n[0] = lab.min_n[1] = lab.min_n[2] = 8;
    lab.fields = two;
    lab.n_fields = 2;
    struct problem p = {.dims = 3, .n = {512, 512, 512}};
    problem_slab(&lab, &p, 1);
    double gpu = problem_gpu_bytes(&lab, &p), host = problem_host_bytes(&lab, &p, 0);
    ok(gpu > 2 * 512.0 * 512 * 512 * 4 && gpu < 1.01 * 2 * 512.0 * 512 * 512 * 4, "512^3, two fields: %.3f GB on the GPU", gpu / 1e9);
    ok(fabs(host - 512.0 * 512 * 512 * 28) < 1, "and 28 bytes a point on the host (an input twice, two references, the output)");
    char note[512];
    is_int(fit_default_size(&lab, &p, 80e9, 64e9, note, sizeof note), 0, "it fits an 80 GB GPU and 64 GB of host memory");
    ok(p.n[0] == 512 && !note[0], "and is left as it is");
    is_int(fit_default_size(&lab, &p, 1e9, 64e9, note, sizeof note), 1, "a 1 GB GPU: scaled down");
    ok(problem_gpu_bytes(&lab, &p) <= 0.8e9 - 512.0 * 1024 * 1024 && p.n[0] == p.n[1] && p.n[1] == p.n[2] && p.n[0] % 32 == 0 && p.n[0] >= 192,
       "to %zu^3, a multiple of 32 that fits (%.2f GB)", p.n[0], problem_gpu_bytes(&lab, &p) / 1e9);
    ok(strstr(note, "512x512x512") && strstr(note, "GPU memory") && strstr(note, "--size"), "the note says why: %s", note);
    p.n[0] = p.n[1] = p.n[2] = 512;
    problem_slab(&lab, &p, 1);
    is_int(fit_default_size(&lab, &p, 0, 2e9, note, sizeof note), 1, "no GPU, 2 GB of host memory: scaled down");
    ok(problem_host_bytes(&lab, &p, 0) <= 1.6e9 && strstr(note, "host memory"), "to %zu^3: %s", p.n[0], note);
}

int main(void)
{
    test_compare();
    test_guard();
    test_stats();
    test_parse_size();
    test_parse_options();
    test_random();
    test_laplacian_weights();
    test_star3d();
    test_csv();
    test_slabs();
    test_pitch();
    test_limits();
    return done_testing();
}
