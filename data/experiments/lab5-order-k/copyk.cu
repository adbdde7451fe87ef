// a float4 grid-stride copy of 512^3 floats, for ncu's DRAM bytes
#include <cstdio>
__global__ void copy4(const float4 *__restrict__ a, float4 *__restrict__ b, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) b[i] = a[i];
}
int main()
{
    size_t n = (size_t)512 * 512 * 512 / 4;
    float4 *a, *b;
    cudaMalloc(&a, n * 16), cudaMalloc(&b, n * 16);
    cudaMemset(a, 0, n * 16), cudaMemset(b, 0, n * 16);
    for (int i = 0; i < 3; i++) copy4<<<132 * 8, 256>>>(a, b, n);
    for (int i = 0; i < 3; i++) copy4<<<(n + 255) / 256, 256>>>(a, b, n);
    printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
}
