// SPDX-License-Identifier: MIT
// A lab's definition (labs/labN_name/lab.c, the instructor's): the problem (fields, sizes, steps,
// tolerances), the CPU reference, the cases and the variant names bound to the kernels file's
// functions (lab.h). The harness runs what a definition describes; the course guide's "Anatomy of
// a lab" explains every field.
#ifndef DEFINITION_H
#define DEFINITION_H

#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    int given;          // given code the student measures but does not write: make check leaves it out
};

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))
// A definition's variant and case tables, by the names every lab.c gives them.
#define LAB_TABLES .variants = VARIANTS, .n_variants = COUNT(VARIANTS), .cases = CASES, .n_cases = COUNT(CASES)
// The default problem of most labs: 512^3, any size down to one point.
#define CUBE_512 .dims = 3, .default_n = {512, 512, 512}, .min_n = {1, 1, 1}

// The three functions of variant V, declared in the definition, defined in the kernels file.
#define DECLARE_VARIANT(v) launch_fn launch_##v; refuse_fn refuse_##v; model_fn model_##v
#define VARIANT_WITH(v, about, kind, optional, given) {#v, about, launch_##v, refuse_##v, model_##v, kind, NULL, optional, given}
#define VARIANT(v, about, kind) VARIANT_WITH(v, about, kind, 0, 0)
#define VARIANT_OPTIONAL(v, about, kind) VARIANT_WITH(v, about, kind, 1, 0)  // a "going further" variant
#define VARIANT_GIVEN(v, about, kind) VARIANT_WITH(v, about, kind, 0, 1)     // given code, not graded

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

// make check builds a student's program with STENCIL_GRADING: without the CPU reference and the
// checks of it (and, linked with --gc-sections, without the code they call), for the grader keeps
// its reference in a process where the student's code never runs. Wrap .reference and
// .self_test in it.
#ifdef STENCIL_GRADING
#define LAB_REFERENCE(f) (0 ? (f) : NULL)
#else
#define LAB_REFERENCE(f) (f)
#endif

struct lab {
    const char *id;     // "1" .. "9", "5a": ./lab<id>, and lab<id>_<name> in the CSV
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
    // Optional: floating-point operations per output point (per point-step with --steps) of the
    // stencil as the reference kernels write it, for the roofline: an add, a subtract or a
    // multiply counts 1 (an FMA the compiler forms from a multiply and an add still 2); boundary
    // copies count nothing. --list says it for the problem given ("flops F").
    double (*flops_per_point)(const struct problem *p);
    // Correct means relative L2 error <= l2 and, at every point, |gpu - ref| <= atol * rms(ref)
    // + rtol * |ref|. tolerance() may replace the fixed values (error grows with the steps).
    // At the points on a face of the grid, where the course's boundary rule copies the input, the
    // absolute part is face_atol instead, when set (lab 1: its answer grows like 1/h, so rms(ref)
    // would excuse any copied end point at a large n).
    double l2_tol, atol, rtol, face_atol;
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
    // Double-precision CPU reference of the answer of `kind` from the input fields (set it with
    // LAB_REFERENCE, below).
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
