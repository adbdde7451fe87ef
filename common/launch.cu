// SPDX-License-Identifier: MIT
// The cost of a launch that does nothing, timed exactly as the variants are (one event pair
// around one launch, median after warm-up): the floor under any kernel's time.
#include "harness.h"

__global__ void empty_kernel(void) {}

extern "C" double time_empty_launch_ms(void)
{
    enum { WARMUP = 5, REPS = 51 };
    cudaEvent_t t0, t1;
    CUDA_CHECK(cudaEventCreate(&t0));
    CUDA_CHECK(cudaEventCreate(&t1));
    double ms[REPS];
    for (int r = -WARMUP; r < REPS; r++) {
        CUDA_CHECK(cudaEventRecord(t0, 0));
        empty_kernel<<<1, 32>>>();
        CUDA_CHECK(cudaEventRecord(t1, 0));
        CUDA_CHECK(cudaEventSynchronize(t1));
        CUDA_CHECK(cudaGetLastError());
        float f;
        CUDA_CHECK(cudaEventElapsedTime(&f, t0, t1));
        if (r >= 0) ms[r] = f;
    }
    CUDA_CHECK(cudaEventDestroy(t0));
    CUDA_CHECK(cudaEventDestroy(t1));
    return median(ms, REPS);
}
