// SPDX-License-Identifier: MIT
// Lab 9 (multigpu), the kernels: lab 8's wave on N processes, each owning a z-slab of the grid
// (p->slab_z0 .. p->slab_z0 + p->slab_nz - 1) with G = WAVE_R ghost planes on each side. A step
// needs the neighbours' G planes next to the slab: after every step but the last, each process
// sends its first G planes of the new level down and its last G planes up, into the ghost
// planes of the neighbours' new level. The variants differ only in how and when:
//   mpi_staged     compute the slab, then copy the boundary planes to the host, MPI, copy back
//   mpi_overlap    003's scheme: the edges (the boundary planes in their z chunk) first, on a
//                  high-priority stream; their exchange while the interior is computed on another
//   nccl           compute, then ncclSend/ncclRecv straight between the GPUs' arrays
//   nccl_overlap   the edges first, NCCL while the interior is computed
//   nccl_graph     nccl_overlap's steps captured once as a CUDA graph: a run is one launch
//   copy_overlap   nccl_overlap's schedule, the planes moved by the GPUs' copy engines (CUDA IPC)
// Every slab is computed with lab 8's fastest step (queue4, given in common/device/wave_queue4.cuh),
// so that two GPUs are measured against the best that one does.
// Build and run: make lab9 && mpirun -np 2 ./lab9        (make sol9 for the solution)
// The problem (lab.c): ctx->in[0] = u(-dt), ctx->in[1] = u(0) (its ghost planes filled),
// ctx->in[2] = vsq; leave u(S dt) in ctx->out[0] (the slab's planes); ctx->scratch[0] is a work
// array; every field has G ghost planes below (negative offsets) and above (past the slab).
#include <nccl.h>
#include <string.h>

#include "ranks.h"
#include "wave_queue4.cuh"  // lab 8's fastest step, given: queue4_launch, struct wave_step

// A failed NCCL call: one line naming it, exit status 1 (as CUDA_CHECK for the CUDA runtime).
#define NCCL_CHECK(call)                                                             \
    do {                                                                             \
        ncclResult_t nccl_check_err_ = (call);                                       \
        if (nccl_check_err_ != ncclSuccess)                                          \
            lab_call_failed(__FILE__, __LINE__, #call, ncclGetErrorString(nccl_check_err_)); \
    } while (0)

enum { G = WAVE_R };  // ghost planes: the stencil's reach in z

// ---- the step: lab 8's queue4 on local planes zlo .. zhi - 1 of the slab ----

// Planes zlo .. zhi - 1 of the slab on `stream` (nothing when the range is empty), in the z chunk
// that queue4 takes for the whole slab: so a range of a chunk or less is one block per tile
// column, and the slab cut into ranges costs what one launch of it costs. The arrays' plane 0 is
// the slab's first (a->zg = p->slab_z0): u's ghost planes are read where they lie in the grid.
static inline void step_planes(const struct problem *p, const struct wave_step *a, int zlo, int zhi, cudaStream_t stream)
{
    struct wave_step b = *a;
    b.z0 = zlo, b.z1 = zhi;
    queue4_launch(p, &b, queue4_chunk(p, p->slab_nz), stream);
}

// How many planes at each end of the slab the overlapped schedule computes first: the G planes
// the neighbours need and the rest of their z chunk. A block computes its whole chunk however
// few of its planes are wanted, and a chunk of only G planes still reads the 2G planes that fill
// its queue: edges of G planes cost 8% more block-planes at 512^3 (6 chunks a tile column for 4).
// Where the slab has fewer than 3 chunks, a third of it each (rounded up: the interior is then
// no thicker than an edge, one chunk), so that an interior is left to hide the exchange behind.
static inline int edge_planes(const struct problem *p)
{
    const int nz = (int)p->slab_nz, zc = queue4_chunk(p, p->slab_nz), third = (nz + 2) / 3;
    const int e = zc < third ? zc : third;
    return e > G ? e : G;
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
typedef void step_fn(const struct problem *p, const struct context *ctx, const struct wave_step *a, int exchange);

// The source's element in this slab's arrays, or SIZE_MAX where it lies in another slab.
static size_t slab_source(const struct problem *p)
{
    const size_t plane = p->n[0] * p->n[1], z = p->source ? p->source_at / plane : 0;
    if (!p->source || z < p->slab_z0 || z >= p->slab_z0 + p->slab_nz) return SIZE_MAX;
    return device_index(p, p->source_at) - p->slab_z0 * p->pitch * p->n[1];
}

// The S steps' launches and exchanges, queued on the streams (run_steps waits for them).
static void issue_steps(const struct problem *p, const struct context *ctx, step_fn *step)
{
    float *a = p->steps % 2 ? ctx->out[0] : ctx->scratch[0], *b = p->steps % 2 ? ctx->scratch[0] : ctx->out[0];
    struct wave_step s = {ctx->in[1], ctx->in[0], ctx->in[2], NULL, (int)p->n[0], (int)p->pitch, (int)p->n[1],
                          (int)p->n[2], (int)p->slab_z0, (int)p->param[WAVE_SPONGE], slab_source(p), 0.f,
                          0, (int)p->n[0], 0, (int)p->n[1], 0, (int)p->slab_nz};
    for (int k = 0; k < p->steps; k++) {
        s.next = k % 2 == 0 ? a : b;
        s.amp = p->source ? p->source[k] : 0.f;
        step(p, ctx, &s, k < p->steps - 1 && ctx->ranks > 1);
        s.up = s.u;
        s.u = s.next;
    }
}

static void run_steps(const struct problem *p, const struct context *ctx, step_fn *step)
{
    issue_steps(p, ctx, step);
    CUDA_CHECK(cudaStreamSynchronize(s_edge));
    CUDA_CHECK(cudaStreamSynchronize(s_inner));
}

// The first G planes of the slab, its last G planes, and the ghost planes below and above it.
// Planes are p->pitch * p->n[1] elements (rows padded: lab.h); the padding travels with them.
#define FIRST(a, p) ((a)->next)
#define LAST(a, p) ((a)->next + ((p)->slab_nz - G) * (p)->pitch * (p)->n[1])
#define GHOST_LO(a, p) ((a)->next - (size_t)G * (p)->pitch * (p)->n[1])
#define GHOST_HI(a, p) ((a)->next + (p)->slab_nz * (p)->pitch * (p)->n[1])

// Through the host: the boundary planes of a->next to pinned buffers, MPI with the neighbours
// (halo_exchange in common/harness/ranks.c), the answers into the ghost planes; on `stream`, and the
// host waits for the copies before it sends. A CUDA-aware MPI (reported at run time; not the
// Open MPI of Debian or of the course's GPU machines) takes the GPU's planes directly.
static void exchange_staged(const struct problem *p, const struct context *ctx, const struct wave_step *a,
                            cudaStream_t stream)
{
    const size_t count = (size_t)G * p->pitch * p->n[1], bytes = count * sizeof(float);
    // TODO(student): copy the first G planes (if there is a rank below) and the last G planes (if
    // there is one above) to h_send_lo and h_send_hi on `stream`, wait for the copies, exchange
    // with halo_exchange, then copy h_recv_lo and h_recv_hi into the ghost planes on `stream`.
    // (Going further: where ranks_cuda_aware(), MPI can take the GPU's planes themselves.)
    // BEGIN SOLUTION
    if (ranks_cuda_aware()) {  // this MPI reads and writes GPU memory itself: nothing to stage
        CUDA_CHECK(cudaStreamSynchronize(stream));
        halo_exchange(FIRST(a, p), LAST(a, p), GHOST_LO(a, p), GHOST_HI(a, p), count);
        return;
    }
    host_buffers(count);
    if (below(ctx)) CUDA_CHECK(cudaMemcpyAsync(h_send_lo, FIRST(a, p), bytes, cudaMemcpyDeviceToHost, stream));
    if (above(ctx)) CUDA_CHECK(cudaMemcpyAsync(h_send_hi, LAST(a, p), bytes, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    halo_exchange(h_send_lo, h_send_hi, h_recv_lo, h_recv_hi, count);
    if (below(ctx)) CUDA_CHECK(cudaMemcpyAsync(GHOST_LO(a, p), h_recv_lo, bytes, cudaMemcpyHostToDevice, stream));
    if (above(ctx)) CUDA_CHECK(cudaMemcpyAsync(GHOST_HI(a, p), h_recv_hi, bytes, cudaMemcpyHostToDevice, stream));
    // END SOLUTION
}

// GPU to GPU: ncclSend and ncclRecv in one group on `stream`, straight from the boundary planes
// into the neighbours' ghost planes.
static void exchange_nccl(const struct problem *p, const struct context *ctx, const struct wave_step *a,
                          cudaStream_t stream)
{
    const size_t count = (size_t)G * p->pitch * p->n[1];
    // TODO(student): between ncclGroupStart() and ncclGroupEnd(), with the rank below: receive
    // into the lower ghost planes and send the first G planes; with the rank above: receive into
    // the upper ghost planes and send the last G planes (ncclFloat, s_nccl, on `stream`).
    // BEGIN SOLUTION
    NCCL_CHECK(ncclGroupStart());
    if (below(ctx)) {
        NCCL_CHECK(ncclRecv(GHOST_LO(a, p), count, ncclFloat, ctx->rank - 1, s_nccl, stream));
        NCCL_CHECK(ncclSend(FIRST(a, p), count, ncclFloat, ctx->rank - 1, s_nccl, stream));
    }
    if (above(ctx)) {
        NCCL_CHECK(ncclRecv(GHOST_HI(a, p), count, ncclFloat, ctx->rank + 1, s_nccl, stream));
        NCCL_CHECK(ncclSend(LAST(a, p), count, ncclFloat, ctx->rank + 1, s_nccl, stream));
    }
    NCCL_CHECK(ncclGroupEnd());
    // END SOLUTION
}

// ---- the two schedules of a step, each with either exchange ----
typedef void exchange_fn(const struct problem *p, const struct context *ctx, const struct wave_step *a,
                         cudaStream_t stream);

// mpi_staged and nccl: the whole slab, then the exchange.
static void step_plain(const struct problem *p, const struct context *ctx, const struct wave_step *a, int exchange,
                       exchange_fn *xchg)
{
    // TODO(student): every plane of the slab (step_planes) on s_edge, then, if `exchange`,
    // xchg on the same stream.
    // BEGIN SOLUTION
    step_planes(p, a, 0, (int)p->slab_nz, s_edge);
    if (exchange) xchg(p, ctx, a, s_edge);
    // END SOLUTION
}

// mpi_overlap and nccl_overlap, 003's scheme: the edges first (the boundary planes and the rest
// of their chunk: edge_planes); their exchange hides behind the interior. The next step's
// interior reads no ghost plane, so it waits for these edges but not for their exchange, which
// may run on behind it: e_edge is recorded between the two. The next step's edges wait for the
// exchange (their stream's order) and for this interior (e_inner).
static void step_overlapped(const struct problem *p, const struct context *ctx, const struct wave_step *a,
                            int exchange, exchange_fn *xchg)
{
    const int nz = (int)p->slab_nz, e = edge_planes(p);
    const int lo_end = nz < e ? nz : e, hi_start = nz - e > lo_end ? nz - e : lo_end;
    // TODO(student): the two edges, which hold the planes the neighbours need (0 .. lo_end-1 and
    // hi_start .. nz-1), on s_edge, then record e_edge on s_edge; the interior (lo_end ..
    // hi_start-1) on s_inner, then record e_inner on s_inner; the exchange on s_edge (it runs
    // while the GPU computes the interior); then the next step's hand-over: s_edge waits for
    // e_inner, s_inner for e_edge (cudaStreamWaitEvent).
    // BEGIN SOLUTION
    step_planes(p, a, 0, lo_end, s_edge);
    step_planes(p, a, hi_start, nz, s_edge);
    CUDA_CHECK(cudaEventRecord(e_edge, s_edge));
    step_planes(p, a, lo_end, hi_start, s_inner);
    CUDA_CHECK(cudaEventRecord(e_inner, s_inner));
    if (exchange) xchg(p, ctx, a, s_edge);
    CUDA_CHECK(cudaStreamWaitEvent(s_edge, e_inner, 0));
    CUDA_CHECK(cudaStreamWaitEvent(s_inner, e_edge, 0));
    // END SOLUTION
}

static void step_staged(const struct problem *p, const struct context *ctx, const struct wave_step *a, int exchange)
{
    step_plain(p, ctx, a, exchange, exchange_staged);
}
static void step_overlap(const struct problem *p, const struct context *ctx, const struct wave_step *a, int exchange)
{
    step_overlapped(p, ctx, a, exchange, exchange_staged);
}
static void step_nccl(const struct problem *p, const struct context *ctx, const struct wave_step *a, int exchange)
{
    step_plain(p, ctx, a, exchange, exchange_nccl);
}
static void step_nccl_overlap(const struct problem *p, const struct context *ctx, const struct wave_step *a, int exchange)
{
    step_overlapped(p, ctx, a, exchange, exchange_nccl);
}

// ---- nccl_graph: nccl_overlap's S steps captured once as a CUDA graph, then replayed ----
// A step of nccl_overlap is about seven launches, events and NCCL calls; the graph makes a run one
// launch. Its kernels' arguments (the arrays, the source's amplitudes) are baked in when it is
// captured, so it is captured again whenever what a run launches changes (a new problem, other
// arrays); the harness's warm-up runs pay for the capture.

struct graph_key {
    const float *arrays[5];
    size_t n[3], slab_z0, slab_nz;
    int steps, ranks;
    double param[3];
    unsigned long long source;  // FNV-1a of the source's amplitudes and place (0: none)
};

static cudaGraphExec_t s_graph;
static struct graph_key s_graph_key;

static struct graph_key key_of(const struct problem *p, const struct context *ctx)
{
    struct graph_key k;
    memset(&k, 0, sizeof k);  // the padding too: keys are compared with memcmp
    const float *arrays[5] = {ctx->in[0], ctx->in[1], ctx->in[2], ctx->out[0], ctx->scratch[0]};
    memcpy(k.arrays, arrays, sizeof arrays);
    memcpy(k.n, p->n, sizeof k.n);
    k.slab_z0 = p->slab_z0, k.slab_nz = p->slab_nz, k.steps = p->steps, k.ranks = ctx->ranks;
    for (int i = 0; i < 3; i++) k.param[i] = p->param[i];
    if (p->source) {
        unsigned long long h = 1469598103934665603ull ^ p->source_at;
        const unsigned char *b = (const unsigned char *)p->source;
        for (size_t i = 0; i < p->steps * sizeof *p->source; i++) h = (h ^ b[i]) * 1099511628211ull;
        k.source = h | 1;
    }
    return k;
}

static void launch_graph(const struct problem *p, const struct context *ctx)
{
    const struct graph_key k = key_of(p, ctx);
    if (!s_graph || memcmp(&k, &s_graph_key, sizeof k)) {
        if (s_graph) CUDA_CHECK(cudaGraphExecDestroy(s_graph));
        cudaGraph_t g;
        // The interior's stream joins the capture through an event of the edge's, and is joined
        // back before it ends (every captured stream must be).
        CUDA_CHECK(cudaStreamBeginCapture(s_edge, cudaStreamCaptureModeRelaxed));
        CUDA_CHECK(cudaEventRecord(e_edge, s_edge));
        CUDA_CHECK(cudaStreamWaitEvent(s_inner, e_edge, 0));
        issue_steps(p, ctx, step_nccl_overlap);
        CUDA_CHECK(cudaEventRecord(e_inner, s_inner));
        CUDA_CHECK(cudaStreamWaitEvent(s_edge, e_inner, 0));
        CUDA_CHECK(cudaStreamEndCapture(s_edge, &g));
        // Without this flag every node of the graph runs at the priority of the stream it is
        // launched on: the edges would lose their lead over the interior.
        CUDA_CHECK(cudaGraphInstantiateWithFlags(&s_graph, g, cudaGraphInstantiateFlagUseNodePriority));
        CUDA_CHECK(cudaGraphDestroy(g));
        s_graph_key = k;
    }
    CUDA_CHECK(cudaGraphLaunch(s_graph, s_edge));
    CUDA_CHECK(cudaStreamSynchronize(s_edge));
}

static const char *refuse_grid(const struct problem *p) { return queue4_refuse(p, p->slab_nz); }

// ---- copy_overlap: nccl_overlap's schedule, the planes moved by the copy engines (given) ----
// NCCL moves the planes with a kernel of its own, which needs an SM; queue4 fills every SM with
// one block, so NCCL's kernel starts only where a block of the interior has ended. A GPU's copy
// engines need no SM. Each process maps its neighbours' two level arrays into its own address
// space (peer_map, lab.h: CUDA IPC, the processes share a host), copies its boundary planes
// straight into their ghost planes (cudaMemcpyAsync: the copy engines, over NVLink where the GPUs
// have it), then writes the exchange's number into the neighbour's flag; its stream goes on once
// its own flags hold that number (peer_signal, peer_wait: the driver's stream memory operations,
// which run in stream order and take no SM either).

enum { FROM_BELOW, FROM_ABOVE, READY_BELOW, READY_ABOVE };  // the flags (PEER_FLAGS of them)
static_assert(READY_ABOVE < PEER_FLAGS, "the harness holds PEER_FLAGS flags a process");
static unsigned s_exchanges, s_runs;                         // counters, the same on every rank

// Before a run's first exchange: each neighbour is ready for this run (its stream has started
// it, after the harness's work on its arrays), so no plane lands where it is still read or reset.
static void copy_ready(const struct context *ctx, cudaStream_t stream)
{
    s_runs++;
    if (below(ctx)) peer_signal(-1, READY_ABOVE, s_runs, stream);
    if (above(ctx)) peer_signal(+1, READY_BELOW, s_runs, stream);
    if (below(ctx)) peer_wait(READY_BELOW, s_runs, stream);
    if (above(ctx)) peer_wait(READY_ABOVE, s_runs, stream);
}

// The exchange by the copy engines: the boundary planes into the neighbours' ghost planes, a
// flag to each, and then this process's stream waits for theirs (NCCL's exchange ends so too).
// Where a neighbour's planes land, it has read them last one step ago: this step's wait for its
// flag, one exchange back, already told that its stream is past that step's edges.
static void exchange_copy(const struct problem *p, const struct context *ctx, const struct wave_step *a,
                          cudaStream_t stream)
{
    const size_t plane = p->pitch * p->n[1], bytes = (size_t)G * plane * sizeof(float);
    const int level = a->next == ctx->out[0] ? 0 : 1;  // which of the arrays peer_map took
    s_exchanges++;
    if (below(ctx)) {  // into the ghost planes above the slab below (its own thickness)
        float *ghost_hi = peer_array(-1, level) + slab_of(p->n[2], ctx->ranks, ctx->rank - 1).nz * plane;
        CUDA_CHECK(cudaMemcpyAsync(ghost_hi, FIRST(a, p), bytes, cudaMemcpyDefault, stream));
        peer_signal(-1, FROM_ABOVE, s_exchanges, stream);
    }
    if (above(ctx)) {
        float *ghost_lo = peer_array(+1, level) - (size_t)G * plane;
        CUDA_CHECK(cudaMemcpyAsync(ghost_lo, LAST(a, p), bytes, cudaMemcpyDefault, stream));
        peer_signal(+1, FROM_BELOW, s_exchanges, stream);
    }
    if (below(ctx)) peer_wait(FROM_BELOW, s_exchanges, stream);
    if (above(ctx)) peer_wait(FROM_ABOVE, s_exchanges, stream);
}

static void step_copy_overlap(const struct problem *p, const struct context *ctx, const struct wave_step *a, int exchange)
{
    step_overlapped(p, ctx, a, exchange, exchange_copy);
}

static void launch_copy(const struct problem *p, const struct context *ctx)
{
    if (ctx->ranks > 1) {
        float *levels[2] = {ctx->out[0], ctx->scratch[0]};
        peer_map(ctx, levels, 2);
        copy_ready(ctx, s_edge);
    }
    run_steps(p, ctx, step_copy_overlap);
}

static const char *refuse_copy_any(const struct problem *p)
{
    const char *why = peer_refuse(p);
    return why ? why : refuse_grid(p);
}

// ---- the variants ----

static const char *refuse_nccl_any(const struct problem *p)
{
    if (p->ranks > p->gpus) return "NCCL needs one rank per GPU, and these ranks share GPUs";
    return refuse_grid(p);
}

// u_prev and vsq once, one write, and u as queue4 reads it (wave_queue4.cuh): its tiles' halos and
// the 2R planes that fill each chunk's queue (the slab's ghost planes among them). The
// overlapped schedule computes e planes at each end as chunks of their own; where they are
// shorter than the slab's chunk (thin slabs) they and the interior are one chunk each. The
// exchange moves 2 G planes per process per step, counted in the handout, not here.
static void model_slab(const struct problem *p, int overlapped, double *r, double *w)
{
    const size_t nz = p->slab_nz, e = edge_planes(p), zc = queue4_chunk(p, nz);
    double u = queue4_reads(p, nz);
    if (overlapped && nz > 2 * e) {
        const size_t inner = nz - 2 * e;
        u = (2 * e * queue4_reads_zc((double)e) + inner * queue4_reads_zc((double)(inner < zc ? inner : zc))) / nz;
    }
    if (!queue4_fits(p)) u = 6 * WAVE_R + 1;  // wave_box: every neighbour a load
    *r = u + 2;
    *w = 1;
}

extern "C" void launch_mpi_staged(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, step_staged); }
extern "C" const char *refuse_mpi_staged(const struct problem *p) { return refuse_grid(p); }
extern "C" void model_mpi_staged(const struct problem *p, double *r, double *w) { model_slab(p, 0, r, w); }
extern "C" void launch_mpi_overlap(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, step_overlap); }
extern "C" const char *refuse_mpi_overlap(const struct problem *p) { return refuse_grid(p); }
extern "C" void model_mpi_overlap(const struct problem *p, double *r, double *w) { model_slab(p, 1, r, w); }
extern "C" void launch_nccl(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, step_nccl); }
extern "C" const char *refuse_nccl(const struct problem *p) { return refuse_nccl_any(p); }
extern "C" void model_nccl(const struct problem *p, double *r, double *w) { model_slab(p, 0, r, w); }
extern "C" void launch_nccl_overlap(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, step_nccl_overlap); }
extern "C" const char *refuse_nccl_overlap(const struct problem *p) { return refuse_nccl_any(p); }
extern "C" void model_nccl_overlap(const struct problem *p, double *r, double *w) { model_slab(p, 1, r, w); }
extern "C" void launch_nccl_graph(const struct problem *p, const struct context *ctx) { launch_graph(p, ctx); }
extern "C" const char *refuse_nccl_graph(const struct problem *p) { return refuse_nccl_any(p); }
extern "C" void model_nccl_graph(const struct problem *p, double *r, double *w) { model_slab(p, 1, r, w); }
extern "C" void launch_copy_overlap(const struct problem *p, const struct context *ctx) { launch_copy(p, ctx); }
extern "C" const char *refuse_copy_overlap(const struct problem *p) { return refuse_copy_any(p); }
extern "C" void model_copy_overlap(const struct problem *p, double *r, double *w) { model_slab(p, 1, r, w); }

// Before any timing: the weights and the ring's shared memory (queue4_setup); the two streams (blocking, so that the harness's events on the
// legacy default stream order them) with the boundary's at the higher priority; the host
// buffers; and, with one rank per GPU, the NCCL communicator (rank 0 makes its id, MPI takes it
// to the others: ranks_bcast).
extern "C" void setup_kernels(const struct problem *p)
{
    queue4_setup(p);
    if (!s_edge) {
        int least, greatest;  // numerically lower is higher priority
        CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
        CUDA_CHECK(cudaStreamCreateWithPriority(&s_edge, cudaStreamDefault, greatest));
        CUDA_CHECK(cudaStreamCreateWithPriority(&s_inner, cudaStreamDefault, least));
        CUDA_CHECK(cudaEventCreateWithFlags(&e_edge, cudaEventDisableTiming));
        CUDA_CHECK(cudaEventCreateWithFlags(&e_inner, cudaEventDisableTiming));
    }
    host_buffers((size_t)G * p->pitch * p->n[1]);
    if (p->ranks > 1) peer_setup();  // copy_overlap's flags and driver calls, before any timing
    if (!s_have_nccl && p->ranks > 1 && p->ranks <= p->gpus) {  // one process exchanges nothing
        ncclUniqueId id;
        if (ranks_rank() == 0) NCCL_CHECK(ncclGetUniqueId(&id));
        ranks_bcast(&id, sizeof id);
        NCCL_CHECK(ncclCommInitRank(&s_nccl, p->ranks, id, ranks_rank()));
        s_have_nccl = 1;
    }
}
