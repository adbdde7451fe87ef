// SPDX-License-Identifier: MIT
// Lab 6 (pencils): 8th-order first derivatives in x, y and z on a periodic grid (seeds 000, 001).
// A block loads whole pencils (lines of the grid along the derivative's direction) into shared
// memory, fills the periodic images there, and differentiates from shared memory: every input
// value is read from global memory exactly once. What the tile's shape decides is whether the
// loads of a warp coalesce, and how much work each thread has in flight.
// Build and run: make lab6 && ./lab6        (make sol6 && ./sol6 for the reference solution)
#include <math.h>

#include "harness.h"

// The grid is the periodic unit cube: x_i = i/nx, i = 0..nx-1 (each point stored once; the
// seeds store the periodic end point twice), so h = 1/n in each direction.
// df/dx_i = sum_k c_k (f_{i+k} - f_{i-k}) / h, c = 4/5, -1/5, 4/105, -1/280, indices mod n.
enum { RADIUS = 4 };
__constant__ float c_coef[3][RADIUS];  // c_k / h for x, y and z: the same for every thread

__device__ __forceinline__ float deriv8(const float *centre, int stride, int dir)
{
    return c_coef[dir][0] * (centre[stride] - centre[-stride]) +
           c_coef[dir][1] * (centre[2 * stride] - centre[-2 * stride]) +
           c_coef[dir][2] * (centre[3 * stride] - centre[-3 * stride]) +
           c_coef[dir][3] * (centre[4 * stride] - centre[-4 * stride]);
}

// The whole tile is loaded before anything is computed, so the loads a thread has in flight set
// the speed: the loops are unrolled (on an H100 at 512^3, unrolling the y/z loops 8 deep instead
// of 4 took the 32x16 y tile from 88% to 94% of copy; for x, 4 measured best).

// ---- x: PENCILS rows of nx points, TX threads along each row, TY threads across rows ----
// tile[p][RADIUS + i] holds f(i, j0 + p, k); tile[p][0..3] and tile[p][nx+4..nx+7] the images.

template <int PENCILS, int TX, int TY>
__global__ void __launch_bounds__(TX * TY) deriv_x(const float *f, float *df, int nx, int ny)
{
    static_assert(TX >= RADIUS, "the first RADIUS threads of a row fill its images");
    extern __shared__ float tile[];
    const int width = nx + 2 * RADIUS, k = blockIdx.y;
    for (int p = threadIdx.y; p < PENCILS; p += TY) {
        int j = blockIdx.x * PENCILS + p;
        if (j >= ny) break;
        const float *src = f + ((size_t)k * ny + j) * nx;
        float *row = tile + p * width + RADIUS;
#pragma unroll 4
        for (int i = threadIdx.x; i < nx; i += TX) row[i] = src[i];
    }
    // TODO(student): fill the periodic images of every row: row[-4..-1] are copies of the
    // last four points of the pencil, row[nx..nx+3] of the first four. The images are read
    // from values other threads loaded: think about what must come before and after.
    // BEGIN SOLUTION
    __syncthreads();
    for (int p = threadIdx.y; p < PENCILS; p += TY) {
        float *row = tile + p * width + RADIUS;
        if (threadIdx.x < RADIUS) {
            row[threadIdx.x - RADIUS] = row[nx + threadIdx.x - RADIUS];
            row[nx + threadIdx.x] = row[threadIdx.x];
        }
    }
    __syncthreads();
    // END SOLUTION
    for (int p = threadIdx.y; p < PENCILS; p += TY) {
        int j = blockIdx.x * PENCILS + p;
        if (j >= ny) break;
        float *dst = df + ((size_t)k * ny + j) * nx;
        const float *row = tile + p * width + RADIUS;
#pragma unroll 4
        for (int i = threadIdx.x; i < nx; i += TX) dst[i] = deriv8(row + i, 1, 0);
    }
}

// ---- y and z: PENCILS consecutive x columns, each a whole pencil of len points ----
// tile[(RADIUS + j) * PENCILS + i] holds the j-th point of column i: the x index is fastest in
// shared memory, as in global memory. Threads: PENCILS along x, TY along the pencil.
// For d/dy: stride = nx (between pencil points), plane = nx*ny (between blocks in blockIdx.y);
// for d/dz: stride = nx*ny, plane = nx.

template <int PENCILS, int TY>
__global__ void __launch_bounds__(PENCILS * TY)
    deriv_yz(const float *f, float *df, int nx, int len, size_t stride, size_t plane, int dir)
{
    static_assert(TY >= RADIUS, "the first RADIUS rows of threads fill the images");
    extern __shared__ float tile[];
    const int i = blockIdx.x * PENCILS + threadIdx.x;
    const bool inside = i < nx;
    const size_t base = blockIdx.y * plane + i;
    float *col = tile + RADIUS * PENCILS + threadIdx.x;  // col[j * PENCILS]: point j
    if (inside) {
#pragma unroll 8
        for (int j = threadIdx.y; j < len; j += TY) col[j * PENCILS] = f[base + j * stride];
    }
    // TODO(student): fill the periodic images of every column (col[-4..-1] are the last four
    // points, col[len..len+3] the first four; rows of the tile are PENCILS apart).
    // BEGIN SOLUTION
    __syncthreads();
    if (inside && threadIdx.y < RADIUS) {
        int j = threadIdx.y;
        col[(j - RADIUS) * PENCILS] = col[(len + j - RADIUS) * PENCILS];
        col[(len + j) * PENCILS] = col[j * PENCILS];
    }
    __syncthreads();
    // END SOLUTION
    if (inside) {
#pragma unroll 8
        for (int j = threadIdx.y; j < len; j += TY)
            df[base + j * stride] = deriv8(col + j * PENCILS, PENCILS, dir);
    }
}

// ---- launchers: the tile shapes of the seeds ----

enum { SP = 4, LP = 32 };  // sPencils and lPencils

static size_t tile_bytes(size_t len, int pencils) { return (len + 2 * RADIUS) * pencils * sizeof(float); }

static unsigned ceil_div(size_t a, unsigned b) { return (unsigned)((a + b - 1) / b); }

// 4 pencils of 64 threads: one point per thread at 64^3, as in 000.
static void launch_x_spencils(const struct problem *p, const struct grids *g)
{
    dim3 block(64, SP), grid(ceil_div(p->n[1], SP), (unsigned)p->n[2]);
    deriv_x<SP, 64, SP><<<grid, block, tile_bytes(p->n[0], SP)>>>(g->in, g->out, (int)p->n[0], (int)p->n[1]);
}

// 001's 64x32 tile: 32 pencils, 64x8 threads, 4 pencils per thread.
static void launch_x_lpencils(const struct problem *p, const struct grids *g)
{
    dim3 block(64, 8), grid(ceil_div(p->n[1], LP), (unsigned)p->n[2]);
    deriv_x<LP, 64, 8><<<grid, block, tile_bytes(p->n[0], LP)>>>(g->in, g->out, (int)p->n[0], (int)p->n[1]);
}

// 4x64 threads: 4 floats (16 bytes) of each row per load, one point per thread at 64^3.
static void launch_y_spencils(const struct problem *p, const struct grids *g)
{
    dim3 block(SP, 64), grid(ceil_div(p->n[0], SP), (unsigned)p->n[2]);
    deriv_yz<SP, 64><<<grid, block, tile_bytes(p->n[1], SP)>>>(
        g->in, g->out, (int)p->n[0], (int)p->n[1], p->n[0], p->n[0] * p->n[1], 1);
}

// 32x16 threads: 32 floats (128 bytes) of each row per load, 4 points per thread at 64^3 and
// 32 at 512^3. (001 used 32x8; on an H100 at 512^3, 32x16 measured 94% of copy against 92%.)
static void launch_y_lpencils(const struct problem *p, const struct grids *g)
{
    dim3 block(LP, 16), grid(ceil_div(p->n[0], LP), (unsigned)p->n[2]);
    deriv_yz<LP, 16><<<grid, block, tile_bytes(p->n[1], LP)>>>(
        g->in, g->out, (int)p->n[0], (int)p->n[1], p->n[0], p->n[0] * p->n[1], 1);
}

static void launch_z_spencils(const struct problem *p, const struct grids *g)
{
    dim3 block(SP, 64), grid(ceil_div(p->n[0], SP), (unsigned)p->n[1]);
    deriv_yz<SP, 64><<<grid, block, tile_bytes(p->n[2], SP)>>>(
        g->in, g->out, (int)p->n[0], (int)p->n[2], p->n[0] * p->n[1], p->n[0], 2);
}

static void launch_z_lpencils(const struct problem *p, const struct grids *g)
{
    dim3 block(LP, 16), grid(ceil_div(p->n[0], LP), (unsigned)p->n[1]);
    deriv_yz<LP, 16><<<grid, block, tile_bytes(p->n[2], LP)>>>(
        g->in, g->out, (int)p->n[0], (int)p->n[2], p->n[0] * p->n[1], p->n[0], 2);
}

// Every kernel instantiation above, for the shared-memory opt-in in setup().
static const void *const KERNELS[] = {
    (const void *)deriv_x<SP, 64, SP>, (const void *)deriv_x<LP, 64, 8>,
    (const void *)deriv_yz<SP, 64>,    (const void *)deriv_yz<LP, 16>,
};

// Coefficients over h in constant memory, and every kernel allowed the most shared memory a
// block may have (above 48 KB a kernel must opt in); done once, outside the timed region.
static void setup(const struct problem *p)
{
    float c[3][RADIUS];
    for (int d = 0; d < 3; d++)
        for (int k = 0; k < RADIUS; k++) c[d][k] = (float)(DERIV8[k] * (double)p->n[d]);
    CUDA_CHECK(cudaMemcpyToSymbol(c_coef, c, sizeof c));
    for (size_t i = 0; i < sizeof KERNELS / sizeof *KERNELS; i++)
        CUDA_CHECK(cudaFuncSetAttribute(KERNELS[i], cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            (int)p->smem_optin));
}

// ---- what each tile can do ----

static char why[200];

static const char *refuse_tile(const struct problem *p, int dir, int pencils, int other_dim)
{
    static const char *axis = "xyz";
    for (int d = 0; d < 3; d++)
        if (p->n[d] < 2 * RADIUS + 1)
            return "every dimension needs at least 9 points (the stencil's width)";
    if (p->n[other_dim] > 65535) {
        snprintf(why, sizeof why, "n%c must be at most 65535 (the grid's y dimension)", axis[other_dim]);
        return why;
    }
    size_t bytes = tile_bytes(p->n[dir], pencils);
    if (bytes > p->smem_optin) {
        snprintf(why, sizeof why,
                 "%d pencils of %zu points need %zu KB of shared memory; a block may have %zu KB",
                 pencils, p->n[dir], bytes / 1024, p->smem_optin / 1024);
        return why;
    }
    return NULL;
}
static const char *refuse_x_s(const struct problem *p) { return refuse_tile(p, 0, SP, 2); }
static const char *refuse_x_l(const struct problem *p) { return refuse_tile(p, 0, LP, 2); }
static const char *refuse_y_s(const struct problem *p) { return refuse_tile(p, 1, SP, 2); }
static const char *refuse_y_l(const struct problem *p) { return refuse_tile(p, 1, LP, 2); }
static const char *refuse_z_s(const struct problem *p) { return refuse_tile(p, 2, SP, 1); }
static const char *refuse_z_l(const struct problem *p) { return refuse_tile(p, 2, LP, 1); }

// Every input value is read from global memory once and every output written once, whatever
// the tile: the images come from shared memory.
static void redundancy(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = 1;
    *w = 1;
}

// ---- references ----

static void reference(const struct problem *p, int dir, const float *in, double *ref)
{
    ref_deriv8_periodic(in, ref, p->n, dir, 1.0 / (double)p->n[dir]);
}

// f = sin(8 pi (x + 0.1)) + 2 sin(8 pi (y + 0.3)) + 3 sin(8 pi (z + 0.7)): smooth, periodic
// (four waves across the cube, so the eighth-order slope shows over several grids before
// float rounding takes over), and symmetric about no face, so a wrong image cannot cancel out.
static void smooth(const struct problem *p, int dir, float *f, double *exact)
{
    const double w = 8 * M_PI, amp[3] = {1, 2, 3}, shift[3] = {0.1, 0.3, 0.7};
    const size_t nx = p->n[0], ny = p->n[1], nz = p->n[2];
#pragma omp parallel for collapse(2)
    for (size_t k = 0; k < nz; k++)
        for (size_t j = 0; j < ny; j++)
            for (size_t i = 0; i < nx; i++) {
                double x[3] = {(double)i / nx, (double)j / ny, (double)k / nz};
                double s = 0;
                for (int d = 0; d < 3; d++) s += amp[d] * sin(w * (x[d] + shift[d]));
                size_t idx = (k * ny + j) * nx + i;
                f[idx] = (float)s;
                exact[idx] = amp[dir] * w * cos(w * (x[dir] + shift[dir]));
            }
}

static const size_t CONV_N[] = {9, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256};

static const struct variant VARIANTS[] = {
    {"x_spencils", "d/dx, 4 pencils of nx (64x4 threads)", launch_x_spencils, refuse_x_s, redundancy, 0},
    {"x_lpencils", "d/dx, 32 pencils of nx (64x8 threads; the 64x32 tile at 64^3)", launch_x_lpencils, refuse_x_l, redundancy, 0},
    {"y_spencils", "d/dy, 4 pencils of ny (4x64 threads)", launch_y_spencils, refuse_y_s, redundancy, 1},
    {"y_lpencils", "d/dy, 32 pencils of ny (32x16 threads)", launch_y_lpencils, refuse_y_l, redundancy, 1},
    {"z_spencils", "d/dz, 4 pencils of nz (4x64 threads)", launch_z_spencils, refuse_z_s, redundancy, 2},
    {"z_lpencils", "d/dz, 32 pencils of nz (32x16 threads)", launch_z_lpencils, refuse_z_l, redundancy, 2},
};

static const struct lab LAB = {
    .number = 6,
    .name = "pencils",
    .title = "8th-order x, y and z derivatives on a periodic grid with pencil tiles",
    .dims = 3,
    .default_n = {512, 512, 512},
    .min_n = {1, 1, 1},
    .bytes_per_point = 8,  // read f once, write the derivative once
    .l2_tol = 1e-5,
    .atol = 1e-5,
    .rtol = 1e-5,
    .reference = reference,
    .smooth = smooth,
    .conv_n = CONV_N,
    .n_conv = sizeof CONV_N / sizeof *CONV_N,
    .report_launch = 1,
    .setup = setup,
    .variants = VARIANTS,
    .n_variants = sizeof VARIANTS / sizeof *VARIANTS,
};

int main(int argc, char **argv) { return lab_main(&LAB, argc, argv); }
