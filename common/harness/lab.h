// SPDX-License-Identifier: MIT
// The contract of a kernels file (labs/labN_name/kernels.cu, the student's): the problem a
// variant is asked to compute, the arrays it computes it in, and the three functions each
// variant V defines:
//   launch_V(p, ctx)   launch the kernels that compute the answer (on ctx->stream)
//   refuse_V(p)        NULL, or one line why the variant cannot run this problem
//   model_V(p, &r, &w) global-memory elements read and written per output point (the model)
// and optionally setup_kernels(p) (constant memory, shared-memory opt-in: before any timing).
// main, checking and timing live in common/harness/: a kernels file never decides what is
// correct. The lab's definition (its lab.c, the instructor's) is described by definition.h.
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
    // rounded up to the lab's row_align (lab 5a and 5b: 64, lab 8: 32), so that every row starts at
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

// ---- several processes of one host (lab 9's copy_overlap): a neighbour's arrays, mapped, and
// signals between the processes' streams ----
// Each process maps into its own address space the `n` arrays (n <= PEER_ARRAYS) that its
// neighbours (rank - 1 and rank + 1) pass as theirs (CUDA IPC), and owns PEER_FLAGS flags in its
// GPU's memory, zero at first. Collective: every rank calls it with arrays of the same roles, at
// the same point; it maps again only where some rank's arrays are new (one small MPI collective).
// peer_setup, once before any timing (a lab's setup): the driver's calls and the flags; it
// synchronises the device. peer_map takes only arrays of ctx->out[] and ctx->scratch[].
enum { PEER_ARRAYS = 4, PEER_FLAGS = 4 };
void peer_setup(void);
void peer_map(const struct context *ctx, float *const *arrays, int n);
// The neighbour's arrays[i] (side -1: the rank below, +1: the rank above), in this process's
// addresses: cudaMemcpyAsync to it moves data by the copy engines, with no kernel.
float *peer_array(int side, int i);
// In stream order, without a kernel (the driver's stream memory operations): write `value` into
// the neighbour's flag once the stream's earlier work is done and its writes can be seen; wait
// until this process's own flag is at least `value`.
void peer_signal(int side, int flag, unsigned value, cudaStream_t stream);
void peer_wait(int flag, unsigned value, cudaStream_t stream);
// Why the processes' GPUs cannot map each other's memory (no peer access between them), or NULL.
const char *peer_refuse(const struct problem *p);

static inline unsigned ceil_div(size_t a, unsigned b) { return (unsigned)((a + b - 1) / b); }

// The element of a field that holds point i of the grid counted without padding (x fastest).
static inline size_t device_index(const struct problem *p, size_t i) { return i / p->n[0] * p->pitch + i % p->n[0]; }

#ifdef __cplusplus
}
#endif

#endif
