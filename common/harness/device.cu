// SPDX-License-Identifier: MIT
// The harness's GPU side: opening the device, the copy-bandwidth roof, the cost of an empty
// launch, the inputs of a run made on the GPU, and the spin that lines up a timed launch.
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
