// SPDX-License-Identifier: MIT
// Lab 6 (pencils), the kernels: 8th-order first derivatives in x, y and z on a periodic grid (seeds 000, 001).
// A block loads whole pencils (lines of the grid along the derivative's direction) into shared
// memory, fills the periodic images there, and differentiates from shared memory: every input
// value is read from global memory exactly once. What the tile's shape decides is whether the
// loads of a warp coalesce, and how much work each thread has in flight.
// Build and run: make lab6 && ./lab6        (make sol6 && ./sol6 for the reference solution)
// The problem (lab.c): ctx->in[0] is f, ctx->out[0] receives the derivative; launch on
// ctx->stream.
#include <stdio.h>

#include "lab.h"

// The grid is the periodic unit cube: x_i = i/nx, i = 0..nx-1 (each point stored once; the
// seeds store the periodic end point twice), so h = 1/n in each direction.
// df/dx_i = sum_k c_k (f_{i+k} - f_{i-k}) / h, c = 4/5, -1/5, 4/105, -1/280, indices mod n.
enum { RADIUS = 4 };
static const double DERIV8[RADIUS] = {4.0 / 5, -1.0 / 5, 4.0 / 105, -1.0 / 280};  // the c_k
__constant__ float c_coef[3][RADIUS];  // c_k / h for x, y and z: the same for every thread

__device__ __forceinline__ float deriv8(const float *centre, int stride, int dir)
{
    return c_coef[dir][0] * (centre[stride] - centre[-stride]) +
           c_coef[dir][1] * (centre[2 * stride] - centre[-2 * stride]) +
           c_coef[dir][2] * (centre[3 * stride] - centre[-3 * stride]) +
           c_coef[dir][3] * (centre[4 * stride] - centre[-4 * stride]);
}

// The whole tile is loaded before anything is computed. A thread issues every load of a chunk
// (up to 8 values: several rows, several points of each) into registers before it stores the
// first to shared memory. A chunk stops at the first point past the row (c < CHUNK && ...), so
// points it does not have issue no loads.

// ---- x: PENCILS rows of nx points, TX threads along each row, TY threads across rows ----
// tile[p][RADIUS + i] holds f(i, j0 + p, k); tile[p][0..3] and tile[p][nx+4..nx+7] the images.
// Thread row threadIdx.y takes the rows p = threadIdx.y + r * TY, r = 0..PENCILS / TY - 1.

template <int PENCILS, int TX, int TY>
__global__ void __launch_bounds__(TX * TY) deriv_x(const float *f, float *df, int nx, int ny)
{
    static_assert(PENCILS % TY == 0, "every thread row takes the same number of rows");
    static_assert(PENCILS / TY <= 8, "a chunk holds at most 8 loads, at least one of each row");
    enum { ROWS = PENCILS / TY, CHUNK = 8 / ROWS };  // rows per thread, points of each per chunk
    extern __shared__ float tile[];
    const int width = nx + 2 * RADIUS, k = blockIdx.y, j0 = blockIdx.x * PENCILS;
    for (int i0 = threadIdx.x; i0 < nx; i0 += CHUNK * TX) {
        float v[ROWS][CHUNK];
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
            int p = threadIdx.y + r * TY;
            const float *src = f + ((size_t)k * ny + j0 + p) * nx;
#pragma unroll
            for (int c = 0; c < CHUNK && i0 + c * TX < nx; c++)
                if (j0 + p < ny) v[r][c] = src[i0 + c * TX];
        }
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
            int p = threadIdx.y + r * TY;
            float *row = tile + p * width + RADIUS;
#pragma unroll
            for (int c = 0; c < CHUNK && i0 + c * TX < nx; c++)
                if (j0 + p < ny) row[i0 + c * TX] = v[r][c];
        }
    }
    // TODO(student): fill the periodic images of every row: row[-4..-1] are copies of the
    // last four points of the pencil, row[nx..nx+3] of the first four. The images are read
    // from values other threads loaded: think about what must come before and after.
    // BEGIN SOLUTION
    // One image value per thread: a thread that copied the images of several rows in turn would
    // wait for shared memory once per row while the whole block waits at the barrier.
    static_assert(TX * TY >= PENCILS * 2 * RADIUS, "a thread for every image value");
    __syncthreads();
    const int e = threadIdx.y * TX + threadIdx.x, m = e % (2 * RADIUS);  // image m of row e / (2 RADIUS)
    if (e < PENCILS * 2 * RADIUS) {
        float *row = tile + e / (2 * RADIUS) * width + RADIUS;
        if (m < RADIUS) row[m - RADIUS] = row[nx + m - RADIUS];
        else row[nx + m - RADIUS] = row[m - RADIUS];
    }
    __syncthreads();
    // END SOLUTION
    // Points i outer, a thread's rows inner: the rows' shared loads issue together, and the code
    // stays short. At 64^3 an SM runs about one block, so none of its instructions are in cache
    // yet; the rows unrolled around an unrolled i loop made 15 KB of code and took 3.3 us against
    // 3.0 for this loop's 5.6 KB (Nsight Compute, H200).
#pragma unroll 1
    for (int i = threadIdx.x; i < nx; i += TX)
#pragma unroll
        for (int r = 0; r < ROWS; r++) {
            const int p = threadIdx.y + r * TY, j = blockIdx.x * PENCILS + p;
            if (j < ny) df[((size_t)k * ny + j) * nx + i] = deriv8(tile + p * width + RADIUS + i, 1, 0);
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
    enum { CHUNK = 8 };  // points of the pencil per chunk
    if (inside) {
        for (int j0 = threadIdx.y; j0 < len; j0 += CHUNK * TY) {
            float v[CHUNK];
#pragma unroll
            for (int c = 0; c < CHUNK && j0 + c * TY < len; c++) v[c] = f[base + (j0 + c * TY) * stride];
#pragma unroll
            for (int c = 0; c < CHUNK && j0 + c * TY < len; c++) col[(j0 + c * TY) * PENCILS] = v[c];
        }
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

// lPencils take LP pencils a block where they fit the GPU's shared memory, else half as many (32
// pencils of 512 points need 65 KB, more than a T4 or RTX 20xx gives a block): each lPencils
// launch is written once for PENCILS pencils and called with the count that fits.
static int lpencils(const struct problem *p, size_t len) { return tile_bytes(len, LP) <= p->smem_optin ? LP : LP / 2; }

// 4 pencils of 64 threads: one point per thread at 64^3, as in 000.
extern "C" void launch_x_spencils(const struct problem *p, const struct context *ctx)
{
    dim3 block(64, SP), grid(ceil_div(p->n[1], SP), (unsigned)p->n[2]);
    deriv_x<SP, 64, SP><<<grid, block, tile_bytes(p->n[0], SP), ctx->stream>>>(ctx->in[0], ctx->out[0], (int)p->n[0], (int)p->n[1]);
}

// 001's 64x32 tile: 32 pencils (PENCILS), 64x8 threads, 4 pencils per thread.
template <int PENCILS>
static void x_lpencils(const struct problem *p, const struct context *ctx)
{
    // TODO(student): launch deriv_x for the tile named above, as launch_x_spencils does for
    // SP pencils: the template arguments (PENCILS pencils, threads along and across the rows),
    // the block, the grid (which rows of which z plane a block takes), the tile's shared memory
    // (tile_bytes) and ctx->stream. Use template arguments that KERNELS below lists: only
    // those get the opt-in to more than 48 KB of shared memory (32 pencils of 512 need 65 KB).
    // BEGIN SOLUTION
    dim3 block(64, 8), grid(ceil_div(p->n[1], PENCILS), (unsigned)p->n[2]);
    deriv_x<PENCILS, 64, 8><<<grid, block, tile_bytes(p->n[0], PENCILS), ctx->stream>>>(ctx->in[0], ctx->out[0],
                                                                                     (int)p->n[0], (int)p->n[1]);
    // END SOLUTION
}
extern "C" void launch_x_lpencils(const struct problem *p, const struct context *ctx)
{
    if (lpencils(p, p->n[0]) == LP) x_lpencils<LP>(p, ctx);
    else x_lpencils<LP / 2>(p, ctx);
}

// 4x64 threads: 4 floats (16 bytes) of each row per load, one point per thread at 64^3.
extern "C" void launch_y_spencils(const struct problem *p, const struct context *ctx)
{
    // TODO(student): launch deriv_yz for the y derivative with the sPencils tile: SP pencils
    // (x columns) a block, 4 x 64 threads. From deriv_yz's comment work out the grid (which
    // columns of which z plane a block takes), len, stride and plane, the shared memory and dir.
    // BEGIN SOLUTION
    dim3 block(SP, 64), grid(ceil_div(p->n[0], SP), (unsigned)p->n[2]);
    deriv_yz<SP, 64><<<grid, block, tile_bytes(p->n[1], SP), ctx->stream>>>(
        ctx->in[0], ctx->out[0], (int)p->n[0], (int)p->n[1], p->n[0], p->n[0] * p->n[1], 1);
    // END SOLUTION
}

// 32x16 threads: 32 floats (128 bytes) of each row per load, 4 points per thread at 64^3 and
// 32 at 512^3 (001 used 32x8).
template <int PENCILS>
static void y_lpencils(const struct problem *p, const struct context *ctx)
{
    // TODO(student): the same with the lPencils tile: PENCILS pencils a block, PENCILS x 16 threads.
    // BEGIN SOLUTION
    // Measured on an H100 at 512^3: 32x16 threads reached 94% of copy against 92% for 001's
    // 32x8, and unrolling the load loop 8 deep instead of 4 took this tile from 88% to 94%;
    // loading in chunks of 8 (for 64^3) costs it about 2 points (92% at fe4120d).
    dim3 block(PENCILS, 16), grid(ceil_div(p->n[0], PENCILS), (unsigned)p->n[2]);
    deriv_yz<PENCILS, 16><<<grid, block, tile_bytes(p->n[1], PENCILS), ctx->stream>>>(
        ctx->in[0], ctx->out[0], (int)p->n[0], (int)p->n[1], p->n[0], p->n[0] * p->n[1], 1);
    // END SOLUTION
}
extern "C" void launch_y_lpencils(const struct problem *p, const struct context *ctx)
{
    if (lpencils(p, p->n[1]) == LP) y_lpencils<LP>(p, ctx);
    else y_lpencils<LP / 2>(p, ctx);
}

extern "C" void launch_z_spencils(const struct problem *p, const struct context *ctx)
{
    // TODO(student): the z derivative with the sPencils tile (SP pencils, 4 x 64 threads). A
    // pencil now runs along z: which dimension does the grid run over besides x, and what are
    // len, stride and plane?
    // BEGIN SOLUTION
    dim3 block(SP, 64), grid(ceil_div(p->n[0], SP), (unsigned)p->n[1]);
    deriv_yz<SP, 64><<<grid, block, tile_bytes(p->n[2], SP), ctx->stream>>>(
        ctx->in[0], ctx->out[0], (int)p->n[0], (int)p->n[2], p->n[0] * p->n[1], p->n[0], 2);
    // END SOLUTION
}

template <int PENCILS>
static void z_lpencils(const struct problem *p, const struct context *ctx)
{
    // TODO(student): the z derivative with the lPencils tile (PENCILS pencils, PENCILS x 16 threads).
    // BEGIN SOLUTION
    dim3 block(PENCILS, 16), grid(ceil_div(p->n[0], PENCILS), (unsigned)p->n[1]);
    deriv_yz<PENCILS, 16><<<grid, block, tile_bytes(p->n[2], PENCILS), ctx->stream>>>(
        ctx->in[0], ctx->out[0], (int)p->n[0], (int)p->n[2], p->n[0] * p->n[1], p->n[0], 2);
    // END SOLUTION
}
extern "C" void launch_z_lpencils(const struct problem *p, const struct context *ctx)
{
    if (lpencils(p, p->n[2]) == LP) z_lpencils<LP>(p, ctx);
    else z_lpencils<LP / 2>(p, ctx);
}

// Every kernel instantiation above, for the shared-memory opt-in in setup().
static const void *const KERNELS[] = {
    (const void *)deriv_x<SP, 64, SP>, (const void *)deriv_x<LP, 64, 8>, (const void *)deriv_x<LP / 2, 64, 8>,
    (const void *)deriv_yz<SP, 64>,    (const void *)deriv_yz<LP, 16>,  (const void *)deriv_yz<LP / 2, 16>,
};

// Coefficients over h in constant memory, and every kernel allowed the most shared memory a
// block may have (above 48 KB a kernel must opt in); done once, outside the timed region.
extern "C" void setup_kernels(const struct problem *p)
{
    // TODO(student): fill c_coef from the host: for each direction d, the four c_k of DERIV8
    // divided by h = 1/n[d], as floats, copied with cudaMemcpyToSymbol (checked with
    // CUDA_CHECK). Every thread of a warp then reads the same coefficient at the same time.
    // BEGIN SOLUTION
    float c[3][RADIUS];
    for (int d = 0; d < 3; d++)
        for (int k = 0; k < RADIUS; k++) c[d][k] = (float)(DERIV8[k] * (double)p->n[d]);
    CUDA_CHECK(cudaMemcpyToSymbol(c_coef, c, sizeof c));
    // END SOLUTION
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
    if (pencils == LP) pencils = lpencils(p, p->n[dir]);
    size_t bytes = tile_bytes(p->n[dir], pencils);
    if (bytes > p->smem_optin) {
        snprintf(why, sizeof why,
                 "%d pencils of %zu points need %zu KB of shared memory; a block may have %zu KB",
                 pencils, p->n[dir], bytes / 1024, p->smem_optin / 1024);
        return why;
    }
    return NULL;
}
extern "C" const char *refuse_x_spencils(const struct problem *p) { return refuse_tile(p, 0, SP, 2); }
extern "C" const char *refuse_x_lpencils(const struct problem *p) { return refuse_tile(p, 0, LP, 2); }
extern "C" const char *refuse_y_spencils(const struct problem *p) { return refuse_tile(p, 1, SP, 2); }
extern "C" const char *refuse_y_lpencils(const struct problem *p) { return refuse_tile(p, 1, LP, 2); }
extern "C" const char *refuse_z_spencils(const struct problem *p) { return refuse_tile(p, 2, SP, 1); }
extern "C" const char *refuse_z_lpencils(const struct problem *p) { return refuse_tile(p, 2, LP, 1); }

// Every input value is read from global memory once and every output written once, whatever
// the tile: the images come from shared memory.
static void one_read_one_write(double *r, double *w)
{
    *r = 1;
    *w = 1;
}
extern "C" void model_x_spencils(const struct problem *p, double *r, double *w) { (void)p; one_read_one_write(r, w); }
extern "C" void model_x_lpencils(const struct problem *p, double *r, double *w) { (void)p; one_read_one_write(r, w); }
extern "C" void model_y_spencils(const struct problem *p, double *r, double *w) { (void)p; one_read_one_write(r, w); }
extern "C" void model_y_lpencils(const struct problem *p, double *r, double *w) { (void)p; one_read_one_write(r, w); }
extern "C" void model_z_spencils(const struct problem *p, double *r, double *w) { (void)p; one_read_one_write(r, w); }
extern "C" void model_z_lpencils(const struct problem *p, double *r, double *w) { (void)p; one_read_one_write(r, w); }
