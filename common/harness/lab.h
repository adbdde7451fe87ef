// SPDX-License-Identifier: MIT
// The lab contract: what a lab's definition (labs/labN_name/lab.c, the instructor's) and its
// kernels file (kernels.cu, the student's) see of the harness. The definition describes the
// problem: fields, sizes, steps, tolerances, CPU reference, cases, and the variant names bound
// to the kernels file's functions. The kernels file holds the kernels and, for each variant V,
//   launch_V(p, ctx)   launch the kernels that compute the answer (on ctx->stream)
//   refuse_V(p)        NULL, or one line why the variant cannot run this problem
//   model_V(p, &r, &w) global-memory elements read and written per output point (the model)
// and optionally setup_kernels(p) (constant memory, shared-memory opt-in: before any timing).
// main, checking and timing live in common/: a kernels file never decides what is correct.
#ifndef LAB_H
#define LAB_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { MAX_DIMS = 3, MAX_FIELDS = 8, MAX_PARAMS = 4 };  // lab_main refuses a definition past them

// What a variant is asked to compute. Sizes are element counts, x fastest.
struct problem {
    size_t n[MAX_DIMS];        // nx, ny, nz (unused dimensions are 1)
    // Elements from the start of one row (fixed y and z) to the next in every field: nx, or nx
    // rounded up to the lab's row_align (lab 5: 64, lab 8: 32), so that every row starts at
    // least 128-byte aligned. Point (x, y, z) is element x + pitch * (y + ny * z); the pitch - nx
    // elements at the end of a row (the padding) are NaN in the inputs, never read for an answer,
    // and may be written in the outputs.
    size_t pitch;
    int dims;                  // 1, 2 or 3
    int order;                 // order in space (labs with --order), else 0
    int steps;                 // time steps (labs with --steps), else 0
    double param[MAX_PARAMS];  // the lab's own options, in the order its definition lists them
    int sm_count;              // multiprocessors of the GPU
    size_t smem_optin;         // the most shared memory one block may ask for, in bytes
    // A point source (lab 8), made by the definition: step s (0-based) adds source[s] to the
    // new field at point source_at (x + nx * (y + ny * z): device_index gives its element).
    // NULL when the problem has none. Host memory.
    const float *source;
    size_t source_at;
    // This process's z-slab (lab 9; one process owns every plane: slab_z0 = 0, slab_nz = n[2]):
    // the kernels compute planes slab_z0 .. slab_z0 + slab_nz - 1 of the n[2], and every field
    // also holds `ghost` planes below and above them (at negative offsets and past the end).
    size_t slab_z0, slab_nz;
    int ghost;
    int ranks, gpus;  // the processes of the run, and the GPUs they use (fewer: they share)
};

// The device arrays of one run, by role, in the order the definition declares the fields.
// Every array has a guard band of NaN on both sides and starts 256-byte aligned. With ghost
// planes (lab 9) each points at the first plane this process owns; the inputs' ghost planes
// hold the neighbours' data, the other fields' are NaN until the kernels fill them.
struct context {
    const float *in[MAX_FIELDS];  // inputs: fresh data before every run; never write them
    float *out[MAX_FIELDS];       // outputs: NaN before every run; every point must be written
    float *scratch[MAX_FIELDS];   // work arrays: NaN before every run; never checked
    cudaStream_t stream;          // launch every kernel on this stream
    int rank, ranks, device;      // this process of `ranks` and its GPU (lab 9: several)
};

typedef void launch_fn(const struct problem *p, const struct context *ctx);
typedef const char *refuse_fn(const struct problem *p);
typedef void model_fn(const struct problem *p, double *read, double *write);
typedef void setup_fn(const struct problem *p);

// A failed CUDA call in a kernels file or the harness: one line naming the call, then exit
// status 1 through the harness's one error path (never a silent wrong answer).
#define CUDA_CHECK(call)                                                             \
    do {                                                                             \
        cudaError_t cuda_check_err_ = (call);                                        \
        if (cuda_check_err_ != cudaSuccess)                                          \
            lab_cuda_failed(__FILE__, __LINE__, #call, cuda_check_err_);             \
    } while (0)
#ifdef __cplusplus
[[noreturn]]
#else
_Noreturn
#endif
void lab_cuda_failed(const char *file, int line, const char *call, cudaError_t err);
// The same for a call of another library (lab 9: NCCL), with its own error text.
#ifdef __cplusplus
[[noreturn]]
#else
_Noreturn
#endif
void lab_call_failed(const char *file, int line, const char *call, const char *why);

// Weights of the order-k central second derivative (k = 2, 4, ..., 12): c[0] for the centre of
// a 3D star (3 times the 1D centre weight), c[i] for the neighbours at distance i. Returns k/2,
// or -1 for an order the table does not have.
int laplacian_coefficients(int order, double *c);

static inline unsigned ceil_div(size_t a, unsigned b) { return (unsigned)((a + b - 1) / b); }

// The element of a field that holds point i of the grid counted without padding (x fastest).
static inline size_t device_index(const struct problem *p, size_t i) { return i / p->n[0] * p->pitch + i % p->n[0]; }

// ---- the definition (labs/labN_name/lab.c) ----

enum field_role { FIELD_IN, FIELD_OUT, FIELD_SCRATCH };
struct field {
    const char *name;
    enum field_role role;
};

// The fields of a lab that reads one array and writes one: ctx->in[0] and ctx->out[0].
#define ONE_IN_ONE_OUT                                                                       \
    .fields = (const struct field[]){{"in", FIELD_IN}, {"out", FIELD_OUT}}, .n_fields = 2

struct variant {
    const char *name;
    const char *about;  // one line for --help
    launch_fn *launch;
    refuse_fn *refuse;
    model_fn *model;
    int kind;           // which answer it computes, for labs with several (lab 6: d/dx, d/dy, d/dz)
    setup_fn *prepare;  // optional: per-variant set-up before its runs, never timed
    int optional;       // a "going further" variant: make check grades it as extra credit
};

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

// The three functions of variant V, declared in the definition, defined in the kernels file.
#define DECLARE_VARIANT(v) launch_fn launch_##v; refuse_fn refuse_##v; model_fn model_##v
#define VARIANT_WITH(v, about, kind, optional) {#v, about, launch_##v, refuse_##v, model_##v, kind, NULL, optional}
#define VARIANT(v, about, kind) VARIANT_WITH(v, about, kind, 0)
#define VARIANT_OPTIONAL(v, about, kind) VARIANT_WITH(v, about, kind, 1)  // a "going further" variant

// A lab option of its own (lab 7: --diffusion), a real number in [min, max].
struct lab_param {
    const char *name, *help;
    double def, min, max;
};

// A case: options of the program for one run. kinds is a space-separated list of
//   test      make test runs it on a GPU: every variant that can run it must PASS
//   grade     make check runs it for every variant of a student's kernels file
//   sanitize  compute-sanitizer (memcheck, racecheck, synccheck) runs it
//   refused   the program must refuse it (exit 2, one line)
//   too-big   it does not fit in the GPU's memory (exit 2, one line)
struct lab_case {
    const char *kinds, *args;
};

struct lab {
    int number;
    const char *name;   // e.g. "diff1d"
    const char *title;  // one line for --help
    int dims;           // dimensions of the default problem
    int max_dims;       // 0, or more than dims: --size may also give that many numbers (lab 7: 3)
    size_t default_n[MAX_DIMS];
    size_t min_n[MAX_DIMS];
    int row_align;      // 0, or pad every row to a multiple of this many elements (problem.pitch)
    int default_order;  // 0: no --order
    int (*order_ok)(int order);
    int default_steps;  // 0: no --steps
    const struct lab_param *params;
    int n_params;
    // Optional: NULL if the problem is valid, else one line why not (lab 7: the stability limit).
    const char *(*validate)(const struct problem *p);
    const struct field *fields;
    int n_fields;
    // Minimal bytes per point of one step: each input read once, each output written once.
    // With --steps, the minimal traffic of a run is this times the steps (see the course guide).
    double bytes_per_point;
    // Correct means relative L2 error <= l2 and, at every point, |gpu - ref| <= atol * rms(ref)
    // + rtol * |ref|. tolerance() may replace the fixed values (error grows with the steps).
    double l2_tol, atol, rtol;
    void (*tolerance)(const struct problem *p, double *l2, double *atol, double *rtol);
    // Optional: the data of input field `field` (its index among the fields) for the run seeded
    // `seed`, made on the host and copied before every run; by default inputs are uniform random
    // in [-1, 1), made on the GPU.
    void (*input)(const struct problem *p, int field, unsigned long long seed, float *a);
    // Optional, beside `input`: where field `field` is a seeded rule (common/harness/reference.h's
    // seeded_value, with the seed field_seed(seed, field)), its scale per z plane (scale[0 ..
    // nz - 1]), offset and slope, and 1; else 0. The harness then makes the timed runs' inputs
    // on the GPU; `input` must make the same bits (fill_seeded does).
    int (*input_rule)(const struct problem *p, int field, double *scale, double *offset, double *slope);
    // Double-precision CPU reference of the answer of `kind` from the input fields.
    void (*reference)(const struct problem *p, int kind, const float *const *in, double *ref);
    // Host memory the reference allocates for itself, in bytes per point (lab 8: two double
    // fields, 16); the harness counts its own arrays (the size that fits a machine, --list).
    double reference_bytes_per_point;
    // Optional: a smooth input and its analytic answer (with the lab's boundary rule), for the
    // error against the analytic answer after the table and for --convergence (sizes conv_n).
    // in[k] is the k-th input field; a NaN in exact marks a point the answer does not determine
    // (not compared).
    void (*smooth)(const struct problem *p, int kind, float *const *in, double *exact);
    const size_t *conv_n;
    int n_conv;
    // The smooth input's answer is exact up to rounding (lab 7): then a variant whose error
    // against it exceeds the tolerance's atol times max|exact| FAILs.
    int analytic_check;
    int report_launch;  // also write the empty kernel's launch time as a CSV row
    // Guard band width in elements (covers the stencil's reach).
    size_t (*guard)(const struct problem *p);
    // Lab 9: every process (mpirun -np N) owns a z-slab of the grid and holds this many ghost
    // planes on each side of it (0: one process owns the whole grid). Needs `input`.
    int ghost;
    setup_fn *setup;  // the kernels file's setup_kernels, or NULL
    const struct variant *variants;
    int n_variants;
    const struct lab_case *cases;
    int n_cases;
    // Optional: host-only checks of the lab's CPU reference, printed as TAP (./labN --self-test).
    int (*self_test)(void);
    // Optional: a point source for the problem: where, and the p->steps amplitudes (lab 8's
    // wavelet); returns 0 when the problem has none.
    int (*source)(const struct problem *p, size_t *at, float *amplitude);
    // Optional, for --convergence when the analytic answer there differs from smooth's (lab 8:
    // the continuous solution, where smooth gives the scheme's exact discrete one): the same
    // contract as smooth. conv_steps: the steps of the problem of size n of the series (lab 8
    // keeps the physical time fixed as h shrinks), or NULL to keep --steps.
    void (*converge)(const struct problem *p, int kind, float *const *in, double *exact);
    int (*conv_steps)(const struct problem *p);
};

// The definition of the program's lab (labs/labN_name/lab.c).
extern const struct lab LAB;

#ifdef __cplusplus
}
#endif

#endif
