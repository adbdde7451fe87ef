// SPDX-License-Identifier: MIT
// The parts of a run that the harness's files share (none a definition or a kernels file sees):
// the fields on the GPU (fields.c), one variant's result and the references it is checked against
// (run.c), the table and the CSV (report.c), the error against an analytic answer
// (convergence.c), Nsight Compute's counters (profile.c). lab_main.c puts them together.
#ifndef RUN_H
#define RUN_H

#include <stdint.h>
#include <stdio.h>

#include "harness.h"

#ifdef __cplusplus
extern "C" {
#endif

// Runs of a variant before the timed ones (not timed), and mismatches printed at most.
enum { WARMUP = 2, MAX_PRINT = 10 };

// ---- the fields of a lab on the GPU (fields.c) ----
// Each field of this process: its slab's planes (from dev[f]) with `lo` elements of ghost planes
// below and above (lab 9; else 0), and `guard` poisoned elements beyond those. On the GPU a row
// takes pitch elements (nx of them points, lab.h); on the host the points lie without padding.
struct fields {
    const struct lab *lab;
    size_t nx, pitch, plane, hplane;  // plane: a z plane on the GPU (pitch ny); hplane: on the host (nx ny)
    size_t count, guard, lo, local, global;  // count: the slab's points; local: elements, ghosts included
    float *dev[MAX_FIELDS];     // the first plane this process owns of each field
    float *host_in[MAX_FIELDS]; // the inputs of the validation run (IN fields), the whole grid
    float *h_all;               // rank 0 of several: the gathered result
    struct context ctx;
    int result;                 // the field a variant's answer is read from (the OUT field)
};

void fields_alloc(struct fields *F, const struct lab *lab, const struct problem *p);
void fields_free(struct fields *F);
float *field_base(const struct fields *F, int f);
void copy_rows(float *dst, size_t dpitch, const float *src, size_t spitch, size_t width, size_t rows,
               enum cudaMemcpyKind kind);
void pack_rows(float *a, size_t nx, size_t pitch, size_t rows);
int padding_intact(const float *a, size_t nx, size_t pitch, size_t rows);
void slab_span(const struct problem *p, size_t *zlo, size_t *zhi);
void host_inputs(const struct lab *lab, const struct problem *p, uint64_t seed, float *const *into);
void prepare_run(const struct fields *F, const struct problem *p, uint64_t seed);

// ---- one variant: check, time (run.c) ----
struct result {
    double median_ms, min_ms, rel_err, red_r, red_w;
    int pass, cuda_error;
    long smem;  // shared memory a block, where STENCIL_EMULATE limits it (-1: not asked; -2: not captured)
    char note[200];
};

// The references a run is checked against: the validation run's and the checked timed run's,
// each for the kind of answer it was last computed for.
struct references {
    double *val, *chk;
    int val_kind, chk_kind;
    int checked_run;  // which timed run is checked (0-based, after the warm-up)
    // The seed of every run after the validation run (the warm-up ones first): drawn from the
    // operating system, each on its own, so that no run's input follows from what a kernel saw
    // before it (--seed, or another timed run's input).
    uint64_t *seeds;
    // The inputs of the checked timed run, made on the host when it comes (the same for every
    // variant): its reference's, and what the inputs must still be after it.
    float *chk_in[MAX_FIELDS];
};

struct result run_variant(const struct options *o, const struct device *dev, const struct variant *v,
                          struct fields *F, float *h_out, struct references *R, float *const *inputs, FILE *log);
// Open the GPU, drop (or, if named, refuse) the selected variants that cannot run the problem,
// check that the fields fit, measure the copy roof, call the kernels' setup. Returns 0, or 2
// after one line on stderr.
int lab_setup(struct options *o, struct device *dev, double *copy_gbps);

// ---- the table and the CSV (report.c) ----
struct derived {
    double gpts, gbps, pct;
};

struct derived derive(const struct options *o, const struct result *r, double copy_gbps);
void print_table_header(const struct lab *lab);
void print_row(const struct options *o, const struct variant *v, const struct result *r, double copy_gbps);
struct run_rows {
    const struct options *o;
    const struct device *dev;
    const struct result *res;
    int n;
    double copy_gbps;
    double launch_ms;  // NaN: not written
};

void write_rows(FILE *f, void *ctx);  // ctx: a struct run_rows
// Write to a temporary name and rename, so that a failed run leaves no partial file.
int dump_grid(const char *path, const void *a, size_t bytes);

// ---- the error against the analytic answer (convergence.c) ----
// Run variant v once on the lab's smooth input for problem p; max and RMS error against the
// analytic answer. h_in, exact, h_out: host buffers of points(p->n).
void analytic_error(const struct lab *lab, const struct variant *v, const struct problem *p, struct fields *F,
                    float *const *h_in, double *exact, float *h_out, double *max_err, double *rms_err, int converging);
int run_convergence(struct options *o);  // --convergence

// ---- --serve (serve.c) ----
int run_serve(struct options *o);

// ---- --profile (profile.c) ----
int run_profile(struct options *o, const char *self);

#ifdef __cplusplus
}
#endif

#endif
