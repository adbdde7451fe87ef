// SPDX-License-Identifier: MIT
// Split barriers and asynchronous copies (sm_80 and later, PTX ISA "mbarrier" and "cp.async"),
// for kernels that stream planes through a ring of shared buffers (labs 5b, 7, 8). Before sm_80 a
// wait falls back to __syncthreads (stronger) and a copy to an ordinary load and store.
#ifndef ASYNC_CUH
#define ASYNC_CUH

// An mbarrier lives in shared memory; `count` threads arrive on it per phase.
__device__ __forceinline__ void mbar_init(unsigned long long *bar, int count)
{
#if __CUDA_ARCH__ >= 800
    unsigned a = (unsigned)__cvta_generic_to_shared(bar);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(count) : "memory");
#endif
}

// Arrive has release semantics: stores before it are seen by a thread whose wait returned.
__device__ __forceinline__ void mbar_arrive(unsigned long long *bar)
{
#if __CUDA_ARCH__ >= 800
    unsigned a = (unsigned)__cvta_generic_to_shared(bar);
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(a) : "memory");
#endif
}

// Wait (acquire) until the phase of the given parity has completed. sm_80 to sm_89 have only
// test_wait, which answers at once, and the thread polls. sm_90 and later have try_wait too, which
// may suspend the thread in hardware for a while before it answers: the default there. POLL keeps
// test_wait on every GPU, for kernels where polling measured faster (star_queue4.cuh: Quad::POLL).
template <bool POLL = false>
__device__ __forceinline__ void mbar_wait(unsigned long long *bar, unsigned parity)
{
#if __CUDA_ARCH__ >= 800
#if __CUDA_ARCH__ >= 900
    constexpr bool TRY = !POLL;
#else
    constexpr bool TRY = false;
#endif
#define MBAR_WAIT(op)                                                                        \
    asm volatile("{ .reg .pred p; mbarrier." op ".parity.shared::cta.b64 p, [%1], %2;"    \
                 " selp.u32 %0, 1, 0, p; }"                                                   \
                 : "=r"(done)                                                                 \
                 : "r"(a), "r"(parity)                                                        \
                 : "memory")
    unsigned a = (unsigned)__cvta_generic_to_shared(bar), done;
    do {
        if constexpr (TRY)
            MBAR_WAIT("try_wait");
        else
            MBAR_WAIT("test_wait");
    } while (!done);
#undef MBAR_WAIT
#else
    __syncthreads();
#endif
}

// A 16-byte copy from global to shared memory that needs no register and does not stall the
// thread. The copies a thread issues between two commits form a group; async_landed<N> waits
// until at most the N newest groups of this thread are still in flight.
__device__ __forceinline__ void async_copy16(float4 *dst, const float *src)
{
#if __CUDA_ARCH__ >= 800
    unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src) : "memory");
#else
    *dst = *(const float4 *)src;
#endif
}

__device__ __forceinline__ void async_commit(void)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

template <int N>
__device__ __forceinline__ void async_landed(void)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
#endif
}
#endif
