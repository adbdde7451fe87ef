// SPDX-License-Identifier: MIT
// The one harness every lab uses. A lab is a kernel file that fills in a `struct lab`
// (its variants, its CPU reference, its model) and calls lab_main(); everything else
// (options, device set-up, poisoning, checking, timing, the table and the CSV) lives here.
#ifndef HARNESS_H
#define HARNESS_H

#include <stddef.h>
#include <stdio.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

// Print the failing call's text, file, line and CUDA's error string, then exit.
// Exit status 1: a CUDA error after start-up means the code under test broke.
#define CUDA_CHECK(call)                                                              \
    do {                                                                              \
        cudaError_t cuda_check_err_ = (call);                                         \
        if (cuda_check_err_ != cudaSuccess) {                                         \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,      \
                    cudaGetErrorString(cuda_check_err_));                             \
            exit(1);                                                                  \
        }                                                                             \
    } while (0)

enum { MAX_DIMS = 3 };

// What a variant is asked to compute. Sizes are element counts (x fastest).
struct problem {
    size_t n[MAX_DIMS];  // nx, ny, nz (unused dimensions are 1)
    int order;           // order in space of the stencil (labs with --order)
    int steps;           // time steps (labs with --steps)
    int sm_count;        // multiprocessors of the GPU, for grid-stride launches
    size_t smem_optin;   // the most shared memory one block may ask for, in bytes
};

// Device arrays handed to a variant. Each has a guard band of NaN on both sides.
struct grids {
    const float *in;
    float *out;
};

struct variant {
    const char *name;
    const char *about;  // one line for --help
    void (*launch)(const struct problem *p, const struct grids *g);
    // NULL when the variant handles any size; else a one-line reason it cannot run p.
    const char *(*refuse)(const struct problem *p);
    // Model redundancy: global-memory elements read and written per output point,
    // from the kernel's own tile shape (003's definition).
    void (*redundancy)(const struct problem *p, double *read, double *write);
    int kind;  // which answer it computes, for labs with several (lab 6: 0 = d/dx, 1 = d/dy, 2 = d/dz)
};

struct options;

struct lab {
    int number;
    const char *name;        // e.g. "diff1d"
    const char *title;       // one line for --help
    int dims;                // 1, 2 or 3
    size_t default_n[MAX_DIMS];
    size_t min_n[MAX_DIMS];  // smallest size the lab accepts
    int default_order;       // 0: the lab has no --order
    int default_steps;       // 0: the lab has no --steps
    int (*order_ok)(int order);
    double bytes_per_point;  // minimal bytes: each input read once, each output written once
    // Correct means relative L2 error <= l2_tol and, at every point,
    // |gpu - ref| <= atol * rms(ref) + rtol * |ref|.
    double l2_tol, atol, rtol;
    // Double-precision CPU reference of the answer of `kind` on the float input.
    void (*reference)(const struct problem *p, int kind, const float *in, double *ref);
    // Optional: a smooth input and its analytic answer (with the lab's boundary rule), for
    // the error against the analytic answer after the table and for --convergence, which
    // runs the cubes (or lengths) conv_n[0..n_conv-1].
    void (*smooth)(const struct problem *p, int kind, float *in, double *exact);
    const size_t *conv_n;
    int n_conv;
    int report_launch;  // also write the empty kernel's launch time as a CSV row (variant empty_kernel)
    // Guard band width in elements for a problem (covers the stencil's reach).
    size_t (*guard)(const struct problem *p);
    // Called once after the GPU is opened, before anything is timed (constant memory, ...).
    void (*setup)(const struct problem *p);
    const struct variant *variants;
    int n_variants;
};

// Parsed command line.
enum { MAX_SELECTED = 64 };
struct options {
    const struct lab *lab;
    struct problem prob;
    int selected[MAX_SELECTED];  // indices into lab->variants
    int n_selected;
    int named;                   // the variants were named with --variant (not 'all')
    int reps;
    unsigned long long seed;
    const char *csv;
    const char *dump;
    int quiet;
    int convergence;  // --convergence: the error against the analytic answer as h shrinks
    int profile;      // --profile: DRAM bytes per point of each variant, read by Nsight Compute
};

// Returns 0 to run, 1 when --help was printed, 2 on a bad command line (message in err).
int parse_options(const struct lab *lab, int argc, char **argv, struct options *o,
                  char *err, size_t errlen);
void print_help(const struct lab *lab, FILE *f);
int parse_size(const char *s, int dims, size_t n[MAX_DIMS], char *err, size_t errlen);

// Run a lab: the whole program. Exit status 0 all passed, 1 a check failed, 2 could not run.
int lab_main(const struct lab *lab, int argc, char **argv);

// ---- checking (common/check.c) ----
struct check {
    double rel_l2;      // ||gpu - ref|| / ||ref||
    size_t bad;         // points outside atol*rms(ref) + rtol*|ref|, NaN included
    size_t nan;         // points that are NaN (never written, or NaN computed)
    int guard_ok;       // every guard element still holds the poison pattern
    int pass;
};
struct check compare(const float *gpu, const double *ref, const size_t n[MAX_DIMS],
                     double l2_tol, double atol, double rtol, FILE *log, int max_print);
// Largest and root-mean-square |gpu - exact| (NaN if any point is NaN).
void abs_errors(const float *gpu, const double *exact, size_t count, double *max_err, double *rms_err);
int guard_intact(const float *guard, size_t count);
void poison_host(float *a, size_t count);
extern const unsigned char POISON_BYTE;  // every byte of a poisoned float; makes a NaN

// ---- statistics (common/check.c) ----
double median(double *v, int n);  // sorts v
double minimum(const double *v, int n);

// ---- inputs and references (common/reference.c) ----
size_t points(const size_t n[MAX_DIMS]);
void fill_random(float *a, size_t count, unsigned long long seed);  // uniform in [-1, 1)
// 1D central difference of spacing h; the two end points copy the input.
void ref_diff1d(const float *f, double *df, size_t n, double h);
// 8th-order first derivative along dimension dim (0 = x) of a periodic grid, spacing h.
void ref_deriv8_periodic(const float *in, double *out, const size_t n[MAX_DIMS], int dim, double h);
extern const double DERIV8[4];  // 4/5, -1/5, 4/105, -1/280: the weights of f[i+k] - f[i-k]
// 3D star stencil of radius r: c[0]*centre + sum_i c[i]*(6 neighbours at distance i);
// points within r of any face copy the input.
void ref_star3d(const float *in, double *out, const size_t n[MAX_DIMS], int r,
                const double *c);
// Coefficients of the order-k central second derivative (k = 2, 4, ..., 12); c[0..k/2].
int laplacian_coefficients(int order, double *c);

// ---- device set-up, grids and output (common/harness.c) ----
struct device {
    char name[256];
    int sm_count;
    size_t smem_per_block_optin, free_bytes, total_bytes;
};
extern const char CSV_HEADER[];
extern const char BUILD_COMMIT[];  // build/version.c, written by the Makefile
void set_program_name(const char *argv0);
const char *program_name(void);
int device_open(struct device *dev);             // 0, or 2 with one line when there is no GPU
double measure_copy_gbps(size_t free_bytes);     // device-to-device copy, read + write
// Open the GPU, drop (or, if named, refuse) the selected variants that cannot run the problem,
// check that `arrays` grids fit, measure the copy roof, call the lab's setup. Returns 0, or 2
// after one line on stderr.
int lab_setup(struct options *o, struct device *dev, size_t arrays, double *copy_gbps);
size_t guard_elems(const struct lab *lab, const struct problem *p);
float *grid_alloc(size_t count, size_t guard);  // poisoned, with `guard` poison on both sides
void grid_free(float *grid, size_t guard);
int csv_append(const char *path, void (*write)(FILE *, void *), void *ctx, const char *header);

// ---- common/launch.cu ----
double time_empty_launch_ms(void);  // median event-timed launch of an empty kernel

#ifdef __cplusplus
}
#endif

#endif
