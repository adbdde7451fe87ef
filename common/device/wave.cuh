// SPDX-License-Identifier: MIT
// The kernels' side of the wave labs (8 and 9): the order-8 weights in constant memory, as
// star.cuh has them for labs 2-5. Include once per kernels file.
#ifndef WAVE_CUH
#define WAVE_CUH

#include "wave.h"

__constant__ float c_wave[WAVE_R + 1];  // c[0] centre (3D), c[i] the six neighbours at distance i

// The weights, once before any timing (the kernels file's setup_kernels).
static inline void wave_setup_weights(void)
{
    double c[WAVE_R + 1];
    float f[WAVE_R + 1];
    laplacian_coefficients(2 * WAVE_R, c);
    for (int i = 0; i <= WAVE_R; i++) f[i] = (float)c[i];
    CUDA_CHECK(cudaMemcpyToSymbol(c_wave, f, sizeof f));
}

#endif
