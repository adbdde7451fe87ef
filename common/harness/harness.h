// SPDX-License-Identifier: MIT
// The harness's own parts, which neither a definition nor a kernels file uses: the command line,
// the GPU, the runs, the table and the CSV. The contracts: lab.h (a kernels file), definition.h
// (a lab's definition).
#ifndef HARNESS_H
#define HARNESS_H

#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "definition.h"
#include "reference.h"

#ifdef __cplusplus
extern "C" {
#endif

// ---- the command line (common/harness/options.c) ----
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
    const char *dump;            // the output of each variant's checked run; %s: the variant
    const char *dump_reference;  // the CPU reference, float64, and nothing else (no GPU)
    int quiet;
    int convergence;  // --convergence: the error against the analytic answer as h shrinks
    int profile;      // --profile: DRAM bytes per point of each variant, read by Nsight Compute
    int list;         // --list: variants, cases, tolerance, CSV columns, machine-readable
    int self_test;    // --self-test: the definition's host-only checks (TAP)
    int back_to_back; // --timing b2b: BATCH launches between two events per sample (not one)
    int sized;        // --size was given (else the lab's default, which may be scaled to fit)
    int serve;        // --serve: make check's requests on stdin (common/harness/serve.c)
};

// Returns 0 to run, 1 when --help was printed, 2 on a bad command line (message in err).
int parse_options(const struct lab *lab, int argc, char **argv, struct options *o, char *err,
                  size_t errlen);
void print_help(const struct lab *lab, FILE *f);
// One number means the same in every dimension of the lab's default; a lab with max_dims >
// dims also takes that many numbers. *dims is set to the problem's dimensions.
int parse_size(const char *s, int min_dims, int max_dims, size_t n[MAX_DIMS], int *dims,
               char *err, size_t errlen);
void problem_tolerance(const struct lab *lab, const struct problem *p, double *l2, double *atol,
                       double *rtol);
// make check's sandbox (common/harness/sandbox.c): with STENCIL_SANDBOX set, a seccomp filter that
// refuses new programs, new processes and signals to others, before any kernels-file code runs.
int sandbox_enter(void);
void sandbox_if_asked(void);
// Landlock: reading only beneath read_dirs and write_dirs, writing only beneath write_dirs
// (colon-separated lists); and the harness's call of it, from STENCIL_SANDBOX_READ/_WRITE.
int sandbox_files(const char *read_dirs, const char *write_dirs);
void sandbox_files_if_asked(void);
// Sets p->source and p->source_at from the definition's source hook (none: NULL).
void problem_source(const struct lab *lab, struct problem *p);
// Sets p's slab (this process's planes), ghost planes, ranks and gpus (lab.h).
void problem_slab(const struct lab *lab, struct problem *p, int gpus);
// After the size changed: the size's checks, the source and the slab again (0, or 2 with err).
int problem_finish(const struct lab *lab, struct problem *p, char *err, size_t errlen);

// ---- the GPU (common/harness/device.cu) ----
// A GPU's host name and UUID in GPU_KEY bytes: what tells GPUs apart across processes.
enum { GPU_KEY = 96 };
void gpu_key(const struct cudaDeviceProp *prop, char *key);

struct device {
    char name[256];
    int id, count;  // this process's GPU, of the count in the machine
    char key[GPU_KEY];  // gpu_key: what tells GPUs apart across processes
    int sm_count;
    int cc;         // compute capability, 10 major + minor (90: H100)
    // The code path of this build that runs here: the architecture its kernels were compiled for
    // (__CUDA_ARCH__ / 10: 75, 80, 90, ...) and of the machine code the GPU runs (the driver's,
    // from PTX, where the build has none for this GPU).
    int code_arch, code_sass;
    size_t smem_per_block_optin, free_bytes, total_bytes;  // STENCIL_EMULATE's where it is smaller
    int emulated;   // STENCIL_EMULATE is set
    int smem_emulated;  // and it limits the shared memory a block below this GPU's
};
int device_open(struct device *dev);          // 0, or 2 with one line when there is no GPU
// The most shared memory a block of the kernels that `launch` starts asks for (static and
// dynamic), found by capturing one launch into a CUDA graph, which never runs; -1 where the
// launch cannot be captured (it synchronises, or uses another stream).
long launch_smem(launch_fn *launch, const struct problem *p, const struct context *ctx);
void capture_escape(void);  // lab_call_failed's first step: out of launch_smem's capture, if in it
double measure_copy_gbps(size_t free_bytes);  // device-to-device copy, read + write
// Median event-timed launch of an empty kernel: one launch per event pair, or (back_to_back)
// B2B_BATCH launches between two events, divided by B2B_BATCH.
double time_empty_launch_ms(int back_to_back);
enum { B2B_BATCH = 20 };
// Enqueued on the legacy default stream: the input of a run (the same numbers as fill_random of
// the grid without padding) in `rows` rows of nx elements, pitch apart (the padding is left as
// it is), and a kernel that keeps the GPU busy for `us` microseconds so that the launches
// queued behind it start back to back, whatever the host does meanwhile.
void device_fill_random(float *a, size_t nx, size_t pitch, size_t rows, uint64_t seed);
// fill_seeded on the GPU: the planes first .. first + planes - 1 of a seeded input of nx x ny
// planes (scale: the whole grid's, on the host) into a, rows pitch apart.
void device_fill_seeded(float *a, size_t nx, size_t pitch, size_t ny, size_t first, size_t planes, const double *scale,
                        double offset, double slope, uint64_t seed);
void device_spin(double us);
// Adds to *sum (device memory) the digest terms (reference.h) of the rows x nx points of a, rows
// pitch apart, numbered from `first`.
void device_digest(const float *a, size_t nx, size_t pitch, size_t rows, uint64_t first, unsigned long long *sum);

// ---- what the machine can hold (common/harness/limits.c) ----
// STENCIL_EMULATE="smem=64K,mem=4G": the harness behaves as on a GPU with at most that much
// shared memory per block and device memory (a test aid; the course guide, "Every GPU").
struct gpu_limits {
    size_t smem_per_block, memory;  // 0: not limited
};
int parse_emulation(const char *spec, struct gpu_limits *lim, char *err, size_t errlen);
int emulated_limits(struct gpu_limits *lim);  // 1 where STENCIL_EMULATE is set (a bad one: exit 2)
size_t guard_elems(const struct lab *lab, const struct problem *p);
double problem_gpu_bytes(const struct lab *lab, const struct problem *p);
double problem_host_bytes(const struct lab *lab, const struct problem *p, int reference_only);
double host_memory_bytes(void);
// Where the lab's default problem needs more than a share of the GPU's (gpu_bytes; 0: none) or
// the host's memory (a whole run's, whatever this one does, so that every program agrees on the
// size), every dimension shrinks by one factor until it fits; returns 1 with one line in note.
int fit_default_size(const struct lab *lab, struct problem *p, double gpu_bytes, double host_bytes, char *note,
                     size_t len);
void size_string(const struct problem *p, char *buf, size_t len);

// ---- the one error path ----
void set_program_name(const char *argv0);
const char *program_name(void);
#ifdef __cplusplus
[[noreturn]]
#else
_Noreturn
#endif
void fatal_exit(int status);
void *xmalloc(size_t bytes);  // malloc, or one line and exit status 2 where the host has too little
// Set by a multi-process lab (lab 9) to stop every rank; NULL in a single process.
extern void (*abort_all_ranks)(int status);

// ---- the CSV (common/harness/csv.c): one schema for every file under data/ ----
extern const char CSV_HEADER[];
extern const char BUILD_COMMIT[];  // build/version.c, written by the Makefile
// Append rows; a file whose header is not `header` is refused with one line (returns -1).
int csv_append(const char *path, void (*write)(FILE *, void *), void *ctx, const char *header);

// ---- the program (common/harness/lab_main.c; its parts: run.h) ----
int lab_main(const struct lab *lab, int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif
