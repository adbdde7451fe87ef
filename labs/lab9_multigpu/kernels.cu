// SPDX-License-Identifier: MIT
// Lab 9 (multigpu), the kernels: lab 8's wave on N processes, each owning a z-slab of the grid
// (p->slab_z0 .. p->slab_z0 + p->slab_nz - 1) with G = WAVE_R ghost planes on each side. A step
// needs the neighbours' G planes next to the slab: after every step but the last, each process
// sends its first G planes of the new level down and its last G planes up, into the ghost
// planes of the neighbours' new level. The variants differ only in how and when:
//   mpi_staged     compute the slab, then copy the boundary planes to the host, MPI, copy back
//   mpi_overlap    003's scheme: the boundary planes first, on a high-priority stream; their
//                  exchange while the interior is computed on another stream
//   nccl           compute, then ncclSend/ncclRecv straight between the GPUs' arrays
//   nccl_overlap   the boundary first, NCCL while the interior is computed
// Build and run: make lab9 && mpirun -np 2 ./lab9        (make sol9 for the solution)
// The problem (lab.c): ctx->in[0] = u(-dt), ctx->in[1] = u(0) (its ghost planes filled),
// ctx->in[2] = vsq; leave u(S dt) in ctx->out[0] (the slab's planes); ctx->scratch[0] is a work
// array; every field has G ghost planes below (negative offsets) and above (past the slab).
#include <nccl.h>

#include "ranks.h"
#include "wave.cuh"  // wave.h, and the weights c_wave

// A failed NCCL call: one line naming it, exit status 1 (as CUDA_CHECK for the CUDA runtime).
#define NCCL_CHECK(call)                                                             \
    do {                                                                             \
        ncclResult_t nccl_check_err_ = (call);                                       \
        if (nccl_check_err_ != ncclSuccess)                                          \
            lab_call_failed(__FILE__, __LINE__, #call, ncclGetErrorString(nccl_check_err_)); \
    } while (0)

enum { G = WAVE_R };  // ghost planes: the stencil's reach in z

// ---- the step: lab 8's update on local planes zlo .. zhi - 1 of the slab ----

struct step_args {
    const float *u, *up, *vsq;  // the slab's first plane; u's ghost planes are read
    float *next;                // may be up itself (in place, as in lab 8)
    int nx, ny, nz, z0, sponge; // nz: the whole grid's; z0: the slab's first plane in the grid
    size_t src;                 // the source point's index in the whole grid (SIZE_MAX: none)
    float amp;
};

// One point per thread, the neighbours from global memory (lab 8's naive kernel: the caches
// serve the reuse): fast enough that the exchange matters, simple enough to read.
__global__ void __launch_bounds__(256) wave_slab(struct step_args a, int zlo)
{
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y, z = zlo + blockIdx.z;
    if (x >= a.nx || y >= a.ny) return;
    const size_t sy = a.nx, sz = (size_t)a.nx * a.ny, i = z * sz + y * sy + x;
    const int d = wave_depth(x, y, a.z0 + z, a.nx, a.ny, a.nz);  // the depth in the whole grid
    float v = 0.f;
    if (d >= 0) {
        const float *u = a.u + i;
        float lap = c_wave[0] * u[0];
#pragma unroll
        for (int k = 1; k <= WAVE_R; k++)
            lap += c_wave[k] * (u[-k] + u[k] + u[-k * (long)sy] + u[k * (long)sy] + u[-k * (long)sz] + u[k * (long)sz]);
        v = wave_leapfrog(u[0], a.up[i], a.vsq[i], lap, d, a.sponge);
        if ((size_t)(a.z0 + z) * sz + y * sy + x == a.src) v += a.amp;
    }
    a.next[i] = v;
}

// Planes zlo .. zhi - 1 of the slab on `stream` (nothing when the range is empty).
static inline void step_planes(const struct problem *p, const struct step_args *a, int zlo, int zhi, cudaStream_t stream)
{
    if (zhi <= zlo) return;
    dim3 block(32, 8), grid(ceil_div(p->n[0], 32), ceil_div(p->n[1], 8), (unsigned)(zhi - zlo));
    wave_slab<<<grid, block, 0, stream>>>(*a, zlo);
}

// ---- what the variants share: streams, host buffers, the NCCL communicator ----

static cudaStream_t s_edge, s_inner;  // high priority: the boundary planes; low: the interior
static cudaEvent_t e_edge, e_inner;
static float *h_send_lo, *h_send_hi, *h_recv_lo, *h_recv_hi;  // pinned, G planes each
static size_t h_planes;                                     // their size, in floats
static ncclComm_t s_nccl;
static int s_have_nccl;

static void host_buffers(size_t count)
{
    if (count <= h_planes) return;
    float **b[4] = {&h_send_lo, &h_send_hi, &h_recv_lo, &h_recv_hi};
    for (int k = 0; k < 4; k++) {
        if (*b[k]) CUDA_CHECK(cudaFreeHost(*b[k]));
        CUDA_CHECK(cudaMallocHost((void **)b[k], count * sizeof(float)));
    }
    h_planes = count;
}

static inline int below(const struct context *ctx) { return ctx->rank > 0; }
static inline int above(const struct context *ctx) { return ctx->rank < ctx->ranks - 1; }

// S steps: as in lab 8 the new level overwrites the oldest, and the first array is chosen so that
// the last level lands in ctx->out[0]. `step` computes the new level of the slab into a->next and,
// when `exchange` is set, leaves the neighbours' planes in its ghost planes.
typedef void step_fn(const struct problem *p, const struct context *ctx, const struct step_args *a, int exchange);

static void run_steps(const struct problem *p, const struct context *ctx, step_fn *step)
{
    float *a = p->steps % 2 ? ctx->out[0] : ctx->scratch[0], *b = p->steps % 2 ? ctx->scratch[0] : ctx->out[0];
    struct step_args s = {ctx->in[1], ctx->in[0], ctx->in[2], NULL, (int)p->n[0], (int)p->n[1], (int)p->n[2],
                          (int)p->slab_z0, (int)p->param[WAVE_SPONGE], p->source ? p->source_at : SIZE_MAX, 0.f};
    for (int k = 0; k < p->steps; k++) {
        s.next = k % 2 == 0 ? a : b;
        s.amp = p->source ? p->source[k] : 0.f;
        step(p, ctx, &s, k < p->steps - 1 && ctx->ranks > 1);
        s.up = s.u;
        s.u = s.next;
    }
    CUDA_CHECK(cudaStreamSynchronize(s_edge));
    CUDA_CHECK(cudaStreamSynchronize(s_inner));
}

// The first G planes of the slab, its last G planes, and the ghost planes below and above it.
#define FIRST(a, p) ((a)->next)
#define LAST(a, p) ((a)->next + ((p)->slab_nz - G) * (p)->n[0] * (p)->n[1])
#define GHOST_LO(a, p) ((a)->next - (size_t)G * (p)->n[0] * (p)->n[1])
#define GHOST_HI(a, p) ((a)->next + (p)->slab_nz * (p)->n[0] * (p)->n[1])

// Through the host: the boundary planes of a->next to pinned buffers, MPI with the neighbours
// (halo_exchange in common/harness/ranks.c), the answers into the ghost planes; on `stream`, and the
// host waits for the copies before it sends. A CUDA-aware MPI (reported at run time; not the
// Open MPI of Debian or of the course's GPU machines) takes the GPU's planes directly.
static void exchange_staged(const struct problem *p, const struct context *ctx, const struct step_args *a,
                            cudaStream_t stream)
{
    const size_t count = (size_t)G * p->n[0] * p->n[1], bytes = count * sizeof(float);
    // TODO(student): copy the first G planes (if there is a rank below) and the last G planes (if
    // there is one above) to h_send_lo and h_send_hi on `stream`, wait for the copies, exchange
    // with halo_exchange, then copy h_recv_lo and h_recv_hi into the ghost planes on `stream`.
    // (Going further: where ranks_cuda_aware(), MPI can take the GPU's planes themselves.)
}

// GPU to GPU: ncclSend and ncclRecv in one group on `stream`, straight from the boundary planes
// into the neighbours' ghost planes.
static void exchange_nccl(const struct problem *p, const struct context *ctx, const struct step_args *a,
                          cudaStream_t stream)
{
    const size_t count = (size_t)G * p->n[0] * p->n[1];
    // TODO(student): between ncclGroupStart() and ncclGroupEnd(), with the rank below: receive
    // into the lower ghost planes and send the first G planes; with the rank above: receive into
    // the upper ghost planes and send the last G planes (ncclFloat, s_nccl, on `stream`).
}

// Every step starts when both streams have finished the step before.
static inline void join_streams(void)
{
    CUDA_CHECK(cudaEventRecord(e_edge, s_edge));
    CUDA_CHECK(cudaEventRecord(e_inner, s_inner));
    CUDA_CHECK(cudaStreamWaitEvent(s_edge, e_inner, 0));
    CUDA_CHECK(cudaStreamWaitEvent(s_inner, e_edge, 0));
}

// ---- the two schedules of a step, each with either exchange ----
typedef void exchange_fn(const struct problem *p, const struct context *ctx, const struct step_args *a,
                         cudaStream_t stream);

// mpi_staged and nccl: the whole slab, then the exchange.
static void step_plain(const struct problem *p, const struct context *ctx, const struct step_args *a, int exchange,
                       exchange_fn *xchg)
{
    // TODO(student): every plane of the slab (step_planes) on s_edge, then, if `exchange`,
    // xchg on the same stream.
}

// mpi_overlap and nccl_overlap, 003's scheme: the boundary planes first; their exchange hides
// behind the interior.
static void step_overlapped(const struct problem *p, const struct context *ctx, const struct step_args *a,
                            int exchange, exchange_fn *xchg)
{
    const int nz = (int)p->slab_nz, lo_end = nz < G ? nz : G, hi_start = nz - G > lo_end ? nz - G : lo_end;
    // TODO(student): the planes the neighbours need (0 .. G-1 and nz-G .. nz-1) on s_edge, the
    // interior (G .. nz-G-1) on s_inner, then the exchange on s_edge (the host sends while the
    // GPU computes the interior), then join_streams() so that the next step waits for both.
}

static void step_staged(const struct problem *p, const struct context *ctx, const struct step_args *a, int exchange)
{
    step_plain(p, ctx, a, exchange, exchange_staged);
}
static void step_overlap(const struct problem *p, const struct context *ctx, const struct step_args *a, int exchange)
{
    step_overlapped(p, ctx, a, exchange, exchange_staged);
}
static void step_nccl(const struct problem *p, const struct context *ctx, const struct step_args *a, int exchange)
{
    step_plain(p, ctx, a, exchange, exchange_nccl);
}
static void step_nccl_overlap(const struct problem *p, const struct context *ctx, const struct step_args *a, int exchange)
{
    step_overlapped(p, ctx, a, exchange, exchange_nccl);
}

// ---- the variants ----

static const char *refuse_grid(const struct problem *p)
{
    if (ceil_div(p->n[1], 8) > 65535 || p->slab_nz > 65535) return "too many blocks along y or z for the grid (65535 at most)";
    if (p->n[0] > (1u << 30) || p->n[1] > (1u << 30) || p->n[2] > (1u << 30))
        return "every dimension must be at most 2^30 (int coordinates)";
    return NULL;
}

static const char *refuse_nccl_any(const struct problem *p)
{
    if (p->ranks > p->gpus) return "NCCL needs one rank per GPU, and these ranks share GPUs";
    return refuse_grid(p);
}

// The slab's u once (its ghost planes once more), u_prev and vsq once; one write. The exchange
// moves 2 G planes per process per step, counted in the handout, not here.
static void model_slab(const struct problem *p, double *r, double *w)
{
    *r = 3 + 2.0 * (double)G / (double)p->slab_nz;
    *w = 1;
}

extern "C" void launch_mpi_staged(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, step_staged); }
extern "C" const char *refuse_mpi_staged(const struct problem *p) { return refuse_grid(p); }
extern "C" void model_mpi_staged(const struct problem *p, double *r, double *w) { model_slab(p, r, w); }
extern "C" void launch_mpi_overlap(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, step_overlap); }
extern "C" const char *refuse_mpi_overlap(const struct problem *p) { return refuse_grid(p); }
extern "C" void model_mpi_overlap(const struct problem *p, double *r, double *w) { model_slab(p, r, w); }
extern "C" void launch_nccl(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, step_nccl); }
extern "C" const char *refuse_nccl(const struct problem *p) { return refuse_nccl_any(p); }
extern "C" void model_nccl(const struct problem *p, double *r, double *w) { model_slab(p, r, w); }
extern "C" void launch_nccl_overlap(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, step_nccl_overlap); }
extern "C" const char *refuse_nccl_overlap(const struct problem *p) { return refuse_nccl_any(p); }
extern "C" void model_nccl_overlap(const struct problem *p, double *r, double *w) { model_slab(p, r, w); }

// Before any timing: the weights; the two streams (blocking, so that the harness's events on the
// legacy default stream order them) with the boundary's at the higher priority; the host
// buffers; and, with one rank per GPU, the NCCL communicator (rank 0 makes its id, MPI takes it
// to the others: ranks_bcast).
extern "C" void setup_kernels(const struct problem *p)
{
    wave_setup_weights();
    if (!s_edge) {
        int least, greatest;  // numerically lower is higher priority
        CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
        CUDA_CHECK(cudaStreamCreateWithPriority(&s_edge, cudaStreamDefault, greatest));
        CUDA_CHECK(cudaStreamCreateWithPriority(&s_inner, cudaStreamDefault, least));
        CUDA_CHECK(cudaEventCreateWithFlags(&e_edge, cudaEventDisableTiming));
        CUDA_CHECK(cudaEventCreateWithFlags(&e_inner, cudaEventDisableTiming));
    }
    host_buffers((size_t)G * p->n[0] * p->n[1]);
    if (!s_have_nccl && p->ranks > 1 && p->ranks <= p->gpus) {  // one process exchanges nothing
        ncclUniqueId id;
        if (ranks_rank() == 0) NCCL_CHECK(ncclGetUniqueId(&id));
        ranks_bcast(&id, sizeof id);
        NCCL_CHECK(ncclCommInitRank(&s_nccl, p->ranks, id, ranks_rank()));
        s_have_nccl = 1;
    }
}
