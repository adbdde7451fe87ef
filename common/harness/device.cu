// SPDX-License-Identifier: MIT
// The harness's GPU side: opening the device, the copy-bandwidth roof, the cost of an empty
// launch, the inputs of a run made on the GPU, the spin that lines up a timed launch, and the
// mapping of a neighbour process's arrays with the signals between streams (peer_*, lab.h).
#include <cuda.h>  // the driver's types: the stream memory operations of peer_signal, peer_wait
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ranks.h"

// Kernels of the harness are named harness_* so that --profile can leave them out.
__global__ void harness_empty(void) {}

int device_open(struct device *dev)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        if (ranks_rank() == 0)  // one line, however many processes
            fprintf(stderr, "%s: no CUDA device found (%s)\n", program_name(),
                e != cudaSuccess ? cudaGetErrorString(e) : "the driver lists none");
        return 2;
    }
    // one GPU per process of a host in turn (lab 9 under mpirun); several processes may share one
    const int id = ranks_local() % count;
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, id));
    CUDA_CHECK(cudaSetDevice(id));
    dev->id = id;
    dev->count = count;
    gpu_key(&prop, dev->key);
    snprintf(dev->name, sizeof dev->name, "%s", prop.name);
    for (char *c = dev->name; *c; c++)
        if (*c == ',') *c = ' ';  // the name goes into a CSV field
    dev->sm_count = prop.multiProcessorCount;
    dev->cc = 10 * prop.major + prop.minor;
    struct cudaFuncAttributes fa;
    CUDA_CHECK(cudaFuncGetAttributes(&fa, harness_empty));  // built as every kernel of the program
    dev->code_arch = fa.ptxVersion;
    dev->code_sass = fa.binaryVersion;
    dev->smem_per_block_optin = prop.sharedMemPerBlockOptin;
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    struct gpu_limits lim;
    dev->emulated = emulated_limits(&lim);
    dev->smem_emulated = lim.smem_per_block && lim.smem_per_block < dev->smem_per_block_optin;
    if (dev->smem_emulated) dev->smem_per_block_optin = lim.smem_per_block;
    if (lim.memory && lim.memory < total_b) {
        // As on a GPU of lim.memory bytes, of which this GPU's use so far (the context) is taken:
        // one process holds the rest in an allocation it never frees, so that any allocation past
        // the smaller GPU's fails as it would there. Several processes share the numbers only.
        size_t used = total_b - free_b, free_small = lim.memory > used ? lim.memory - used : 0;
        if (free_small == 0) {
            fprintf(stderr, "%s: STENCIL_EMULATE's mem=%zu bytes is no more than this GPU already uses (%zu)\n",
                    program_name(), lim.memory, used);
            return 2;
        }
        void *ballast;  // where it cannot be had whole, the limits are the numbers alone
        if (ranks_size() == 1 && free_b > free_small && cudaMalloc(&ballast, free_b - free_small) != cudaSuccess)
            (void)cudaGetLastError();
        total_b = lim.memory;
        free_b = free_b < free_small ? free_b : free_small;
    }
    dev->free_bytes = free_b;
    dev->total_bytes = total_b;
    return 0;
}

// Device-to-device cudaMemcpy of a large buffer, bytes read plus bytes written: the roof that
// "% copy BW" divides by, measured on this GPU at start-up.
double measure_copy_gbps(size_t free_bytes)
{
    size_t bytes = (size_t)1 << 30;
    while (bytes > free_bytes / 4 && bytes > ((size_t)1 << 20)) bytes /= 2;
    void *a, *b;
    CUDA_CHECK(cudaMalloc(&a, bytes));
    CUDA_CHECK(cudaMalloc(&b, bytes));
    CUDA_CHECK(cudaMemset(a, 1, bytes));
    CUDA_CHECK(cudaMemset(b, 0, bytes));
    cudaEvent_t t0, t1;
    CUDA_CHECK(cudaEventCreate(&t0));
    CUDA_CHECK(cudaEventCreate(&t1));
    enum { REPS = 10 };
    double ms[REPS];
    for (int r = -3; r < REPS; r++) {
        CUDA_CHECK(cudaEventRecord(t0, 0));
        CUDA_CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0));
        CUDA_CHECK(cudaEventRecord(t1, 0));
        CUDA_CHECK(cudaEventSynchronize(t1));
        float f;
        CUDA_CHECK(cudaEventElapsedTime(&f, t0, t1));
        if (r >= 0) ms[r] = f;
    }
    CUDA_CHECK(cudaEventDestroy(t0));
    CUDA_CHECK(cudaEventDestroy(t1));
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    return 2.0 * (double)bytes / (median(ms, REPS) * 1e-3) / 1e9;
}


// The floor under any kernel's time: an empty kernel timed exactly as the variants are.
extern "C" double time_empty_launch_ms(int back_to_back)
{
    enum { WARMUP = 5, REPS = 51 };
    cudaEvent_t t0, t1;
    CUDA_CHECK(cudaEventCreate(&t0));
    CUDA_CHECK(cudaEventCreate(&t1));
    double ms[REPS];
    for (int r = -WARMUP; r < REPS; r++) {
        CUDA_CHECK(cudaDeviceSynchronize());
        device_spin(20);
        CUDA_CHECK(cudaEventRecord(t0, 0));
        for (int b = 0; b < (back_to_back ? B2B_BATCH : 1); b++) harness_empty<<<1, 32>>>();
        CUDA_CHECK(cudaEventRecord(t1, 0));
        CUDA_CHECK(cudaEventSynchronize(t1));
        CUDA_CHECK(cudaGetLastError());
        float f;
        CUDA_CHECK(cudaEventElapsedTime(&f, t0, t1));
        if (r >= 0) ms[r] = f / (back_to_back ? B2B_BATCH : 1);
    }
    CUDA_CHECK(cudaEventDestroy(t0));
    CUDA_CHECK(cudaEventDestroy(t1));
    return median(ms, REPS);
}

// Point i of the grid without padding is element i / nx * pitch + i % nx.
__global__ void harness_fill(float *a, size_t nx, size_t pitch, size_t count, uint64_t seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += stride)
        a[nx == pitch ? i : i / nx * pitch + i % nx] = random_value(seed, i);
}

// The fills' grid: 8 blocks of 256 threads per SM, striding over the array.
static int fill_blocks(void)
{
    static int blocks;
    if (!blocks) {
        int sms = 0;
        CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        blocks = 8 * sms;
    }
    return blocks;
}

extern "C" void device_fill_random(float *a, size_t nx, size_t pitch, size_t rows, uint64_t seed)
{
    harness_fill<<<fill_blocks(), 256>>>(a, nx, pitch, nx * rows, seed);
    CUDA_CHECK(cudaGetLastError());
}

__global__ void harness_fill_seeded(float *a, size_t count, size_t nx, size_t pitch, size_t plane, size_t first,
                                    const double *scale, double offset, double slope, uint64_t seed)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < count; j += stride)
        a[nx == pitch ? j : j / nx * pitch + j % nx] = seeded_value(scale[j / plane], offset, slope, seed, first * plane + j);
}

extern "C" void device_fill_seeded(float *a, size_t nx, size_t pitch, size_t ny, size_t first, size_t planes,
                                   const double *scale, double offset, double slope, uint64_t seed)
{
    static double *d_scale;
    static size_t room;
    if (room < planes) {
        CUDA_CHECK(cudaFree(d_scale));  // it waits for the fills that read it
        CUDA_CHECK(cudaMalloc(&d_scale, planes * sizeof *d_scale));
        room = planes;
    }
    // a pageable copy on the legacy stream: after the fill before it, before the one below
    CUDA_CHECK(cudaMemcpy(d_scale, scale + first, planes * sizeof *d_scale, cudaMemcpyHostToDevice));
    harness_fill_seeded<<<fill_blocks(), 256>>>(a, planes * nx * ny, nx, pitch, nx * ny, first, d_scale, offset, slope,
                                                seed);
    CUDA_CHECK(cudaGetLastError());
}

__global__ void harness_digest(const float *a, size_t nx, size_t pitch, size_t count, uint64_t first,
                               unsigned long long *sum)
{
    uint64_t s = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += stride)
        s += digest_term(first + i, __float_as_uint(a[nx == pitch ? i : i / nx * pitch + i % nx]));
    for (int d = 16; d > 0; d /= 2) s += __shfl_down_sync(0xffffffffu, s, d);
    if (threadIdx.x % 32 == 0) atomicAdd(sum, (unsigned long long)s);
}

extern "C" void device_digest(const float *a, size_t nx, size_t pitch, size_t rows, uint64_t first,
                              unsigned long long *sum)
{
    harness_digest<<<fill_blocks(), 256>>>(a, nx, pitch, nx * rows, first, sum);
    CUDA_CHECK(cudaGetLastError());
}

// One thread spins on the global timer: the host meanwhile queues the timed launch behind it,
// so the launch starts the moment the spin ends and the event pair times the GPU alone.
__global__ void harness_spin(unsigned long long ns)
{
    unsigned long long t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    do asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    while (t - t0 < ns);
}

extern "C" void device_spin(double us)
{
    harness_spin<<<1, 1>>>((unsigned long long)(us * 1e3));
    CUDA_CHECK(cudaGetLastError());
}

// The kernel nodes of a graph, child graphs included: the most shared memory one block asks for,
// and (kernels) how many there are.
static long graph_smem(cudaGraph_t g, int *kernels)
{
    size_t n = 0;
    CUDA_CHECK(cudaGraphGetNodes(g, NULL, &n));
    cudaGraphNode_t *nodes = (cudaGraphNode_t *)malloc((n ? n : 1) * sizeof *nodes);
    CUDA_CHECK(cudaGraphGetNodes(g, nodes, &n));
    long most = 0;
    for (size_t i = 0; i < n; i++) {
        cudaGraphNodeType type;
        CUDA_CHECK(cudaGraphNodeGetType(nodes[i], &type));
        long here = 0;
        if (type == cudaGraphNodeTypeKernel) {
            ++*kernels;
            struct cudaKernelNodeParams kp;
            struct cudaFuncAttributes fa;
            CUDA_CHECK(cudaGraphKernelNodeGetParams(nodes[i], &kp));
            CUDA_CHECK(cudaFuncGetAttributes(&fa, kp.func));
            here = (long)(fa.sharedSizeBytes + kp.sharedMemBytes);
        } else if (type == cudaGraphNodeTypeGraph) {
            cudaGraph_t child;
            CUDA_CHECK(cudaGraphChildGraphNodeGetGraph(nodes[i], &child));
            here = graph_smem(child, kernels);
        }
        if (here > most) most = here;
    }
    free(nodes);
    return most;
}

// A call that fails inside the captured launch (a launcher that synchronises, which capture does
// not allow) comes back here through capture_escape, instead of ending the program.
static jmp_buf capture_jmp;
static volatile int capturing;

extern "C" void capture_escape(void)
{
    if (capturing) {
        capturing = 0;
        longjmp(capture_jmp, 1);
    }
}

extern "C" long launch_smem(launch_fn *launch, const struct problem *p, const struct context *ctx)
{
    static struct context c;  // static: they outlive a longjmp unchanged
    static cudaGraph_t g;
    c = *ctx;
    g = NULL;
    CUDA_CHECK(cudaStreamCreateWithFlags(&c.stream, cudaStreamNonBlocking));
    long smem = -1;
    int kernels = 0;
    // Relaxed: a launcher may ask the occupancy calculator or set attributes meanwhile.
    if (cudaStreamBeginCapture(c.stream, cudaStreamCaptureModeRelaxed) == cudaSuccess) {
        if (setjmp(capture_jmp) == 0) {
            capturing = 1;
            launch(p, &c);
            capturing = 0;
            if (cudaStreamEndCapture(c.stream, &g) == cudaSuccess && g) smem = graph_smem(g, &kernels);
        } else {
            (void)cudaStreamEndCapture(c.stream, &g);
        }
    }
    if (g) CUDA_CHECK(cudaGraphDestroy(g));
    (void)cudaGetLastError();  // a launch that could not be captured leaves its error here
    CUDA_CHECK(cudaStreamDestroy(c.stream));
    // no kernel in the graph: the launch used another stream (the legacy one, say), unseen
    return kernels > 0 ? smem : -1;
}

// ---- a neighbour process's arrays, and signals between streams (lab.h: peer_*) ----

typedef CUresult wait_value_fn(CUstream, CUdeviceptr, cuuint32_t, unsigned int);
typedef CUresult write_value_fn(CUstream, CUdeviceptr, cuuint32_t, unsigned int);
typedef CUresult address_range_fn(CUdeviceptr *, size_t *, CUdeviceptr);
typedef CUresult pointer_attribute_fn(void *, CUpointer_attribute, CUdeviceptr);
static wait_value_fn *s_wait_value;
static write_value_fn *s_write_value;
static address_range_fn *s_address_range;
static pointer_attribute_fn *s_pointer_attribute;

static void cu_check(CUresult r, const char *file, int line, const char *call)
{
    if (r == CUDA_SUCCESS) return;
    char why[48];
    snprintf(why, sizeof why, "CUDA driver error %d", (int)r);
    lab_call_failed(file, line, call, why);
}
#define CU_CHECK(call) cu_check((call), __FILE__, __LINE__, #call)

// The driver's function `name` (its CUDA 12.0 form where the runtime can ask for one), through
// the runtime: nothing to link, so the programs also start where no driver is (CI).
static void *driver_function(const char *name)
{
    void *fn = NULL;
    cudaDriverEntryPointQueryResult found;
#if CUDART_VERSION >= 12050
    CUDA_CHECK(cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &found));
#else
    CUDA_CHECK(cudaGetDriverEntryPoint(name, &fn, cudaEnableDefault, &found));
#endif
    if (found != cudaDriverEntryPointSuccess || !fn) lab_call_failed(__FILE__, __LINE__, name, "not in this CUDA driver");
    return fn;
}

// What a process tells the others (ranks_allgather): its arrays' and flags' allocations, and
// where in each array's allocation the array starts.
struct peer_card {
    cudaIpcMemHandle_t array[PEER_ARRAYS], flags;
    size_t at[PEER_ARRAYS];  // bytes from the allocation's start
};
// A neighbour, in this process's addresses.
struct peer {
    void *mapped[PEER_ARRAYS + 1];  // its arrays' allocations, then its flags'
    float *array[PEER_ARRAYS];
};
static struct peer s_below, s_above;
static unsigned *s_flags;                               // this process's PEER_FLAGS flags
static unsigned long long s_mapped_ids[PEER_ARRAYS];  // the allocations mapped now (the driver's buffer ids)
static int s_mapped_n;

static char *allocation_start(const void *p, size_t *at)
{
    CUdeviceptr start;
    size_t bytes;
    CU_CHECK(s_address_range(&start, &bytes, (CUdeviceptr)p));
    *at = (size_t)((CUdeviceptr)p - start);
    return (char *)start;
}

static void peer_close(struct peer *q)
{
    for (int i = 0; i <= PEER_ARRAYS; i++)
        if (q->mapped[i]) CUDA_CHECK(cudaIpcCloseMemHandle(q->mapped[i]));
    memset(q, 0, sizeof *q);
}

static void peer_open(struct peer *q, const struct peer_card *c, int n)
{
    for (int i = 0; i < n; i++) {
        CUDA_CHECK(cudaIpcOpenMemHandle(&q->mapped[i], c->array[i], cudaIpcMemLazyEnablePeerAccess));
        q->array[i] = (float *)((char *)q->mapped[i] + c->at[i]);
    }
    CUDA_CHECK(cudaIpcOpenMemHandle(&q->mapped[PEER_ARRAYS], c->flags, cudaIpcMemLazyEnablePeerAccess));
}

extern "C" void peer_setup(void)
{
    if (s_flags) return;
    s_wait_value = (wait_value_fn *)driver_function("cuStreamWaitValue32");
    s_write_value = (write_value_fn *)driver_function("cuStreamWriteValue32");
    s_address_range = (address_range_fn *)driver_function("cuMemGetAddressRange");
    s_pointer_attribute = (pointer_attribute_fn *)driver_function("cuPointerGetAttribute");
    CUDA_CHECK(cudaMalloc((void **)&s_flags, PEER_FLAGS * sizeof *s_flags));
    CUDA_CHECK(cudaMemset(s_flags, 0, PEER_FLAGS * sizeof *s_flags));
    CUDA_CHECK(cudaDeviceSynchronize());  // zero before any neighbour may write one
}

// Whether a is one of the run's output or work arrays (the only ones a neighbour may be given).
static int run_array(const struct context *ctx, const float *a)
{
    for (int f = 0; f < MAX_FIELDS; f++)
        if (a && (a == ctx->out[f] || a == ctx->scratch[f])) return 1;
    return 0;
}

extern "C" void peer_map(const struct context *ctx, float *const *arrays, int n)
{
    if (n < 1 || n > PEER_ARRAYS) lab_call_failed(__FILE__, __LINE__, "peer_map", "between 1 and PEER_ARRAYS arrays");
    for (int i = 0; i < n; i++)
        if (!run_array(ctx, arrays[i])) lab_call_failed(__FILE__, __LINE__, "peer_map", "only ctx->out[] and ctx->scratch[] arrays");
    if (!s_flags) lab_call_failed(__FILE__, __LINE__, "peer_map", "peer_setup first (in the kernels' setup)");
    unsigned long long ids[PEER_ARRAYS] = {0};
    for (int i = 0; i < n; i++) CU_CHECK(s_pointer_attribute(&ids[i], CU_POINTER_ATTRIBUTE_BUFFER_ID, (CUdeviceptr)arrays[i]));
    if (ranks_all(n == s_mapped_n && !memcmp(ids, s_mapped_ids, sizeof ids))) return;
    struct peer_card mine, *all = (struct peer_card *)calloc((size_t)ctx->ranks, sizeof mine);
    if (!all) lab_call_failed(__FILE__, __LINE__, "calloc", "out of host memory");
    memset(&mine, 0, sizeof mine);
    for (int i = 0; i < n; i++) CUDA_CHECK(cudaIpcGetMemHandle(&mine.array[i], allocation_start(arrays[i], &mine.at[i])));
    CUDA_CHECK(cudaIpcGetMemHandle(&mine.flags, s_flags));
    ranks_allgather(&mine, sizeof mine, all);
    peer_close(&s_below), peer_close(&s_above);
    if (ctx->rank > 0) peer_open(&s_below, &all[ctx->rank - 1], n);
    if (ctx->rank < ctx->ranks - 1) peer_open(&s_above, &all[ctx->rank + 1], n);
    free(all);
    memcpy(s_mapped_ids, ids, sizeof ids);
    s_mapped_n = n;
}

static const struct peer *peer_on(int side)
{
    const struct peer *q = side < 0 ? &s_below : &s_above;
    if ((side != -1 && side != 1) || !q->mapped[PEER_ARRAYS])
        lab_call_failed(__FILE__, __LINE__, "peer_*", "no neighbour mapped on that side (peer_map first)");
    return q;
}

extern "C" float *peer_array(int side, int i)
{
    const struct peer *q = peer_on(side);
    if (i < 0 || i >= s_mapped_n) lab_call_failed(__FILE__, __LINE__, "peer_array", "no such array mapped");
    return q->array[i];
}

// The default flags: the write waits for the stream's earlier writes (the copies) to be seen.
extern "C" void peer_signal(int side, int flag, unsigned value, cudaStream_t stream)
{
    const struct peer *q = peer_on(side);
    if (flag < 0 || flag >= PEER_FLAGS) lab_call_failed(__FILE__, __LINE__, "peer_signal", "no such flag");
    CU_CHECK(s_write_value((CUstream)stream, (CUdeviceptr)q->mapped[PEER_ARRAYS] + flag * sizeof(unsigned), value,
                           CU_STREAM_WRITE_VALUE_DEFAULT));
}

// No CU_STREAM_WAIT_VALUE_FLUSH: that is for writes by other devices (a network card's RDMA);
// the neighbour's copy engine wrote its data before its fenced flag write, over the same link.
extern "C" void peer_wait(int flag, unsigned value, cudaStream_t stream)
{
    if (flag < 0 || flag >= PEER_FLAGS || !s_flags) lab_call_failed(__FILE__, __LINE__, "peer_wait", "no such flag (peer_map first)");
    CU_CHECK(s_wait_value((CUstream)stream, (CUdeviceptr)(s_flags + flag), value, CU_STREAM_WAIT_VALUE_GEQ));
}

// Processes that share a GPU reach its memory anyway; where each process sees only its own GPU
// nothing can be asked here, and a failed mapping ends the run with one line instead.
extern "C" const char *peer_refuse(const struct problem *p)
{
    int gpus = 0;
    if (p->ranks > 1 && cudaGetDeviceCount(&gpus) == cudaSuccess)
        for (int d = 0; d < gpus && d < p->ranks; d++)
            for (int e = 0; e < gpus && e < p->ranks; e++) {
                int can = 1;
                if (d != e && cudaDeviceCanAccessPeer(&can, d, e) == cudaSuccess && !can)
                    return "the GPUs cannot reach each other's memory (no peer access), which the copies need";
            }
    return NULL;
}
