// SPDX-License-Identifier: MIT
// A GPU made of host memory, for testing the harness's processes and slabs (lab 9) where there
// is no GPU: the CUDA runtime calls the harness makes, on malloc'd memory and the wall clock,
// and the harness's own device functions (common/harness/device.cu) as host code. FAKE_GPUS (default 1)
// is the number of GPUs the machine claims. Only tests link this; no lab program does.
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"
#include "ranks.h"
#include "reference.h"

struct CUevent_st {
    double ms;
};
static int g_device;

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

cudaError_t cudaGetDeviceCount(int *count)
{
    *count = getenv("FAKE_GPUS") ? atoi(getenv("FAKE_GPUS")) : 1;
    return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
    (void)device;
    memset(prop, 0, sizeof *prop);
    strcpy(prop->name, "fake GPU");
    prop->uuid.bytes[0] = (char)device;  // the fake GPUs' UUIDs: their numbers
    prop->multiProcessorCount = 4;
    prop->sharedMemPerBlockOptin = 100 * 1024;
    return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { g_device = device; return cudaSuccess; }
cudaError_t cudaGetDevice(int *device) { *device = g_device; return cudaSuccess; }
cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total_b) { *free_b = (size_t)8 << 30, *total_b = (size_t)16 << 30; return cudaSuccess; }
cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) { (void)attr, (void)device; *value = 4; return cudaSuccess; }
cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t s) { (void)s; return cudaSuccess; }
cudaError_t cudaGetLastError(void) { return cudaSuccess; }
const char *cudaGetErrorString(cudaError_t e) { return e == cudaSuccess ? "no error" : "fake GPU error"; }
cudaError_t cudaMalloc(void **p, size_t bytes) { *p = malloc(bytes ? bytes : 1); return *p ? cudaSuccess : cudaErrorMemoryAllocation; }
cudaError_t cudaFree(void *p) { free(p); return cudaSuccess; }
cudaError_t cudaMemcpy(void *d, const void *s, size_t n, enum cudaMemcpyKind k) { (void)k; memmove(d, s, n); return cudaSuccess; }
cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, enum cudaMemcpyKind k, cudaStream_t st)
{
    (void)k, (void)st;
    memmove(d, s, n);
    return cudaSuccess;
}
cudaError_t cudaMemcpy2D(void *d, size_t dpitch, const void *s, size_t spitch, size_t width, size_t height, enum cudaMemcpyKind k)
{
    (void)k;
    if (width > dpitch || width > spitch) return cudaErrorInvalidPitchValue;
    for (size_t r = 0; r < height; r++) memmove((char *)d + r * dpitch, (const char *)s + r * spitch, width);
    return cudaSuccess;
}
cudaError_t cudaMemset2DAsync(void *p, size_t pitch, int v, size_t width, size_t height, cudaStream_t s)
{
    (void)s;
    for (size_t r = 0; r < height; r++) memset((char *)p + r * pitch, v, width);
    return cudaSuccess;
}
cudaError_t cudaMemset(void *p, int v, size_t n) { memset(p, v, n); return cudaSuccess; }
cudaError_t cudaMemsetAsync(void *p, int v, size_t n, cudaStream_t s) { (void)s; memset(p, v, n); return cudaSuccess; }
cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = calloc(1, sizeof **e); return cudaSuccess; }
cudaError_t cudaEventDestroy(cudaEvent_t e) { free(e); return cudaSuccess; }
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) { (void)s; e->ms = now_ms(); return cudaSuccess; }
cudaError_t cudaEventSynchronize(cudaEvent_t e) { (void)e; return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) { *ms = (float)(b->ms - a->ms); return cudaSuccess; }

// ---- common/harness/device.cu's functions, on the host ----

int device_open(struct device *dev)
{
    int count;
    cudaGetDeviceCount(&count);
    dev->id = ranks_local() % count;
    dev->count = count;
    struct cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, dev->id);
    gpu_key(&prop, dev->key);
    cudaSetDevice(dev->id);
    strcpy(dev->name, "fake GPU");
    dev->sm_count = 4;
    dev->cc = dev->code_arch = dev->code_sass = 75;
    dev->smem_per_block_optin = 100 * 1024;
    cudaMemGetInfo(&dev->free_bytes, &dev->total_bytes);
    return 0;
}
double measure_copy_gbps(size_t free_bytes) { (void)free_bytes; return 10.0; }
double time_empty_launch_ms(int back_to_back) { (void)back_to_back; return 0.001; }
// The fills write rows of nx, pitch apart: made without padding, then spread.
static void spread_rows(float *a, const float *packed, size_t nx, size_t pitch, size_t rows)
{
    for (size_t r = 0; r < rows; r++) memcpy(a + r * pitch, packed + r * nx, nx * sizeof *a);
}
void device_fill_random(float *a, size_t nx, size_t pitch, size_t rows, uint64_t seed)
{
    float *t = malloc(nx * rows * sizeof *t);
    fill_random(t, nx * rows, seed);
    spread_rows(a, t, nx, pitch, rows);
    free(t);
}
void device_fill_seeded(float *a, size_t nx, size_t pitch, size_t ny, size_t first, size_t planes, const double *scale,
                        double offset, double slope, uint64_t seed)
{
    float *t = malloc(nx * ny * planes * sizeof *t);
    fill_seeded(t, nx * ny, first, planes, scale, offset, slope, seed);
    spread_rows(a, t, nx, pitch, ny * planes);
    free(t);
}
void device_spin(double us) { (void)us; }
void device_digest(const float *a, size_t nx, size_t pitch, size_t rows, uint64_t first, unsigned long long *sum)
{
    for (size_t i = 0; i < nx * rows; i++) {
        uint32_t bits;
        memcpy(&bits, &a[i / nx * pitch + i % nx], sizeof bits);
        *sum += digest_term(first + i, bits);
    }
}
void capture_escape(void) {}
long launch_smem(launch_fn *launch, const struct problem *p, const struct context *ctx)
{
    (void)launch, (void)p, (void)ctx;
    return -1;  // nothing to capture: the fake kernels are host functions
}
