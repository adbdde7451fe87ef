// Do two cp.async rows a thread ask L2 for twice the sectors? Each block copies its 16 rows of
// 128 floats (512 B a row) per plane into shared memory, for PLANES planes, 256 threads a block.
#include <cstdio>
constexpr int PLANES = 64, ROWF = 512, NXQ = 128;  // row pitch 512 floats; 128 floats a tile row
__device__ __forceinline__ void cp16(void *d, const void *s)
{
    unsigned a = (unsigned)__cvta_generic_to_shared(d);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(a), "l"(s) : "memory");
}
// MODE 0: 8 warps x 2 rows, one LDGSTS per row, rows 2w, 2w+1 (s2); 1: dest interleaved by thread;
// 2: rows w and w+8; 3: one row a thread (16 warps: 512 threads); 4: LDG+STS of two rows (main-like);
// 5: as 0, the destination 48 bytes past a 128-byte boundary; 6: as 0, 4 buffers, 2 planes in flight
template <int MODE>
__global__ void k(const float *__restrict__ in, float *out)
{
    extern __shared__ float4 st[];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx, unused = 0; (void)unused;
    const int x0 = (blockIdx.x % 4) * NXQ, y0 = (blockIdx.x / 4) * 16;
    const size_t plane = (size_t)ROWF * 512;
    float acc = 0;
    for (int z = 0; z < PLANES; z++) {
        const float *p = in + (size_t)(blockIdx.y * PLANES + z) * plane + (size_t)y0 * ROWF + x0 + 4 * tx;
        float4 *s = st + (z & 1) * 512;
        if (MODE == 0) { cp16(s + t, p + (2 * ty) * ROWF); cp16(s + 256 + t, p + (2 * ty + 1) * ROWF); }
        if (MODE == 1) { cp16(s + 2 * t, p + (2 * ty) * ROWF); cp16(s + 2 * t + 1, p + (2 * ty + 1) * ROWF); }
        if (MODE == 2) { cp16(s + t, p + ty * ROWF); cp16(s + 256 + t, p + (ty + 8) * ROWF); }
        if (MODE == 3) { cp16(s + t, p + ty * ROWF); }
        if (MODE == 5) { cp16(s + 3 + t, p + (2 * ty) * ROWF); cp16(s + 3 + 256 + t, p + (2 * ty + 1) * ROWF); }
        if (MODE == 6) { float4 *q = st + (z % 4) * 512; cp16(q + t, p + (2 * ty) * ROWF); cp16(q + 256 + t, p + (2 * ty + 1) * ROWF); }
        if (MODE == 4) { float4 a = *(const float4 *)(p + (2 * ty) * ROWF), b = *(const float4 *)(p + (2 * ty + 1) * ROWF); s[t] = a; s[256 + t] = b; }
        if (MODE == 6) asm volatile("cp.async.commit_group;\ncp.async.wait_group 2;" ::: "memory");
        else asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
        __syncthreads();
        acc += s[(t + 7) % 512].x;
        __syncthreads();
    }
    if (acc == 12345.f) out[0] = acc;
}
int main()
{
    const size_t n = (size_t)512 * 512 * 512;
    float *in, *out;
    cudaMalloc(&in, n * 4), cudaMalloc(&out, 4), cudaMemset(in, 0, n * 4);
    dim3 g(4 * 32, 512 / PLANES);
    for (int r = 0; r < 2; r++) {
        k<0><<<g, dim3(32, 8), 16384>>>(in, out);
        k<1><<<g, dim3(32, 8), 16384>>>(in, out);
        k<2><<<g, dim3(32, 8), 16384>>>(in, out);
        k<3><<<g, dim3(32, 16), 16384>>>(in, out);
        k<4><<<g, dim3(32, 8), 16384>>>(in, out);
        k<5><<<g, dim3(32, 8), 16448>>>(in, out);
        k<6><<<g, dim3(32, 8), 32768>>>(in, out);
    }
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
}
