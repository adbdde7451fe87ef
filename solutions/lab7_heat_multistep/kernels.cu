// SPDX-License-Identifier: MIT
// Lab 7 (heat_multistep), the kernels: S steps of the FTCS heat equation,
//   u'(x) = u(x) + D * (sum of the 2d nearest neighbours - 2d u(x)),  faces fixed,
// climbing a ladder: one step per launch from global memory (gm) or from a shared tile (shm);
// N steps per launch in a shared tile whose valid region shrinks by one point per step (002's
// NSTEPS kernel, fused_sN); then temporal blocking that streams through the grid with several
// steps in flight in registers (tb).
// Build and run: make lab7 && ./lab7 [--size NXxNY[xNZ]] [--steps S]   (sol7: the solution)
// The problem (lab.c): ctx->in[0] holds the initial field, ctx->out[0] must hold the field
// after p->steps steps, ctx->scratch[0] is a work array; D is p->param[0].
#include "lab.h"

enum { DIFFUSION };
#define FULL_MASK 0xffffffffu

static float diffusion(const struct problem *p) { return (float)p->param[DIFFUSION]; }

// ---- passes: every variant runs the S steps as passes of `depth` steps each ----
// Pass k reads what pass k-1 wrote. Three arrays, so that the input is never written, no pass
// writes the array it reads, and the last pass lands in the output whatever the parity of the
// number of passes.

static float *pass_destination(const struct context *ctx, int pass, int passes)
{
    float *dst = ctx->out[0];
    // TODO(student): return the array pass `pass` (0-based, of `passes`) writes: the last pass
    // must write ctx->out[0]; alternate with ctx->scratch[0] going backwards from there.
    // BEGIN SOLUTION
    dst = (passes - 1 - pass) % 2 == 0 ? ctx->out[0] : ctx->scratch[0];
    // END SOLUTION
    return dst;
}

typedef void pass_fn(const struct problem *p, const struct context *ctx, const float *src, float *dst, int steps);

static void run_passes(const struct problem *p, const struct context *ctx, int depth, pass_fn *pass)
{
    int passes = (p->steps + depth - 1) / depth;
    const float *src = ctx->in[0];
    for (int k = 0; k < passes; k++) {
        float *dst = pass_destination(ctx, k, passes);
        int steps = p->steps - k * depth < depth ? p->steps - k * depth : depth;
        pass(p, ctx, src, dst, steps);
        src = dst;
    }
}

static const char *refuse_3d(const struct problem *p)
{
    return p->dims == 3 ? "a 2D variant: give --size NXxNY" : NULL;
}

static const char *refuse_big(const struct problem *p)
{
    for (int d = 0; d < 3; d++)
        if (p->n[d] > 0x3fffffff) return "every dimension must be below 2^30 (int coordinates)";
    return NULL;
}

// ---- 1. gm: one step per launch, straight from global memory ----
// 002's fdstep_gm with the mapping of labs 1 and 5: each thread updates four consecutive x
// points, loaded as float4 when rows are 16-byte aligned (nx a multiple of 4); the caches serve
// the neighbours' re-reads.

constexpr int GM_BX = 32, GM_BY = 8;

template <bool THREE>
__global__ void __launch_bounds__(GM_BX *GM_BY) heat_gm(const float *__restrict__ u, float *__restrict__ v, int nx,
                                                       int ny, int nz, float D)
{
    const int x = 4 * (blockIdx.x * GM_BX + threadIdx.x), y = blockIdx.y * GM_BY + threadIdx.y;
    const int z = THREE ? blockIdx.z : 0;
    if (x >= nx || y >= ny) return;
    const size_t sy = nx, sz = (size_t)nx * ny, i0 = z * sz + y * sy + x;
    const bool interior_yz = y > 0 && y < ny - 1 && (!THREE || (z > 0 && z < nz - 1));
    const float centre = THREE ? 6.f : 4.f;
    float c[4], w[4];  // this thread's points, and the sum of their y (and z) neighbours
    if ((nx & 3) == 0) {
        const float4 q = *(const float4 *)(u + i0);
        c[0] = q.x, c[1] = q.y, c[2] = q.z, c[3] = q.w;
        if (interior_yz) {
            float4 a = *(const float4 *)(u + i0 - sy), b = *(const float4 *)(u + i0 + sy);
            w[0] = a.x + b.x, w[1] = a.y + b.y, w[2] = a.z + b.z, w[3] = a.w + b.w;
            if (THREE) {
                a = *(const float4 *)(u + i0 - sz), b = *(const float4 *)(u + i0 + sz);
                w[0] += a.x + b.x, w[1] += a.y + b.y, w[2] += a.z + b.z, w[3] += a.w + b.w;
            }
        }
    } else {
#pragma unroll
        for (int k = 0; k < 4; k++) {
            c[k] = x + k < nx ? u[i0 + k] : 0.f;
            w[k] = interior_yz && x + k < nx ? u[i0 + k - sy] + u[i0 + k + sy] + (THREE ? u[i0 + k - sz] + u[i0 + k + sz] : 0.f) : 0.f;
        }
    }
    const float left = x > 0 ? u[i0 - 1] : 0.f, right = x + 4 < nx ? u[i0 + 4] : 0.f;
    float out[4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
        const int xk = x + k;
        out[k] = c[k];  // the faces keep the input
        // TODO(student): unless xk is on an x face or the point is on a y (z) face
        // (!interior_yz), out[k] = c[k] + D * (its x neighbours (c[k-1] or left, c[k+1] or
        // right) + w[k] - centre * c[k]).
        // BEGIN SOLUTION
        const float xl = k > 0 ? c[k - 1] : left, xr = k < 3 ? c[k + 1] : right;
        if (interior_yz && xk > 0 && xk < nx - 1) out[k] = c[k] + D * (xl + xr + w[k] - centre * c[k]);
        // END SOLUTION
    }
    if ((nx & 3) == 0) {
        *(float4 *)(v + i0) = make_float4(out[0], out[1], out[2], out[3]);
    } else {
#pragma unroll
        for (int k = 0; k < 4; k++)
            if (x + k < nx) v[i0 + k] = out[k];
    }
}

static void gm_pass(const struct problem *p, const struct context *ctx, const float *src, float *dst, int steps)
{
    (void)steps;  // always 1
    dim3 block(GM_BX, GM_BY), grid(ceil_div(p->n[0], 4 * GM_BX), ceil_div(p->n[1], GM_BY), (unsigned)p->n[2]);
    if (p->dims == 3)
        heat_gm<true><<<grid, block, 0, ctx->stream>>>(src, dst, (int)p->n[0], (int)p->n[1], (int)p->n[2], diffusion(p));
    else
        heat_gm<false><<<grid, block, 0, ctx->stream>>>(src, dst, (int)p->n[0], (int)p->n[1], 1, diffusion(p));
}

extern "C" void launch_gm(const struct problem *p, const struct context *ctx) { run_passes(p, ctx, 1, gm_pass); }

extern "C" const char *refuse_gm(const struct problem *p)
{
    if (ceil_div(p->n[1], GM_BY) > 65535 || p->n[2] > 65535)
        return "ny must be at most 524280 and nz at most 65535 (the grid's y and z dimensions)";
    return refuse_big(p);
}

extern "C" void model_gm(const struct problem *p, double *r, double *w)
{
    *r = 2 * p->dims + 1;  // per step, every neighbour a separate load (the caches absorb most)
    *w = 1;
}

// ---- 2. shm: one step per launch from a P x P shared tile (002's fdstep_shm) ----
// P x P threads load the tile, one value each; the (P-2)^2 inside compute from shared memory.

constexpr int P = 32;  // tile edge in threads (002's f(s) analysis takes p = 32)

__global__ void __launch_bounds__(P *P) heat_shm(const float *__restrict__ u, float *__restrict__ v, int nx, int ny, float D)
{
    __shared__ float tile[P][P];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * (P - 2) + tx - 1, y = blockIdx.y * (P - 2) + ty - 1;  // the tile starts 1 before
    const bool in_grid = x >= 0 && y >= 0 && x < nx && y < ny;
    float c = in_grid ? u[(size_t)y * nx + x] : 0.f;
    // TODO(student): put c in the tile, make the tile visible to the whole block, then the
    // threads inside the tile's outer layer (and in the grid) write v: c on the faces of the
    // grid, else c + D * (the four tile neighbours - 4c).
    // BEGIN SOLUTION
    tile[ty][tx] = c;
    __syncthreads();
    if (in_grid && tx > 0 && ty > 0 && tx < P - 1 && ty < P - 1) {
        if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1)
            c = c + D * (tile[ty - 1][tx] + tile[ty + 1][tx] + tile[ty][tx - 1] + tile[ty][tx + 1] - 4.f * c);
        v[(size_t)y * nx + x] = c;
    }
    // END SOLUTION
}

static void shm_pass(const struct problem *p, const struct context *ctx, const float *src, float *dst, int steps)
{
    (void)steps;
    dim3 block(P, P), grid(ceil_div(p->n[0], P - 2), ceil_div(p->n[1], P - 2));
    heat_shm<<<grid, block, 0, ctx->stream>>>(src, dst, (int)p->n[0], (int)p->n[1], diffusion(p));
}

extern "C" void launch_shm(const struct problem *p, const struct context *ctx) { run_passes(p, ctx, 1, shm_pass); }

extern "C" const char *refuse_shm(const struct problem *p)
{
    if (ceil_div(p->n[1], P - 2) > 65535) return "ny must be at most 65535 * 30 (the grid's y dimension)";
    return p->dims == 3 ? refuse_3d(p) : refuse_big(p);
}

extern "C" void model_shm(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = (double)(P * P) / ((P - 2) * (P - 2));  // the tile's halo is read by two blocks
    *w = 1;
}

// ---- 3. fused_sN: N steps per launch in the P x P shared tile (002's NSTEPS kernel) ----
// The tile starts N points before its output; after step i only the points at least i from the
// tile's edge are right, so after N steps the (P-2N)^2 inside are written: fewer global
// accesses per step (P^2 + (P-2N)^2 per N steps), more redundant work at the edges (002's f(s)).

template <int N>
__global__ void __launch_bounds__(P *P) heat_fused(const float *__restrict__ u, float *__restrict__ v, int nx, int ny,
                                                 float D, int steps)
{
    static_assert(2 * N < P, "the tile must keep an output after N steps");
    __shared__ float tile[P][P];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * (P - 2 * N) + tx - N, y = blockIdx.y * (P - 2 * N) + ty - N;
    const bool in_grid = x >= 0 && y >= 0 && x < nx && y < ny;
    const bool face = x <= 0 || y <= 0 || x >= nx - 1 || y >= ny - 1;  // or outside: never updated
    const bool inner = tx > 0 && ty > 0 && tx < P - 1 && ty < P - 1;
    float c = in_grid ? u[(size_t)y * nx + x] : 0.f;
    tile[ty][tx] = c;
#pragma unroll
    for (int i = 0; i < N; i++) {
        // TODO(student): one step in the tile (steps may be less than N in the last pass: do
        // step i only if i < steps): wait until every thread has stored the tile, update c
        // from the tile if the point is inner and not a face, wait until everyone has read the
        // tile, store c into it.
        // BEGIN SOLUTION
        __syncthreads();
        if (i < steps && inner && !face)
            c = c + D * (tile[ty - 1][tx] + tile[ty + 1][tx] + tile[ty][tx - 1] + tile[ty][tx + 1] - 4.f * c);
        __syncthreads();
        tile[ty][tx] = c;
        // END SOLUTION
    }
    if (in_grid && tx >= N && ty >= N && tx < P - N && ty < P - N) v[(size_t)y * nx + x] = c;
}

template <int N>
static void fused_pass(const struct problem *p, const struct context *ctx, const float *src, float *dst, int steps)
{
    dim3 block(P, P), grid(ceil_div(p->n[0], P - 2 * N), ceil_div(p->n[1], P - 2 * N));
    heat_fused<N><<<grid, block, 0, ctx->stream>>>(src, dst, (int)p->n[0], (int)p->n[1], diffusion(p), steps);
}

template <int N>
static const char *refuse_fused(const struct problem *p)
{
    if (ceil_div(p->n[1], P - 2 * N) > 65535) return "ny is too large for the grid's y dimension";
    return p->dims == 3 ? refuse_3d(p) : refuse_big(p);
}

// Per step: a launch reads P^2 and writes (P-2N)^2 values per (P-2N)^2 output points.
template <int N>
static void model_fused(const struct problem *p, double *r, double *w)
{
    (void)p;
    double out = (double)(P - 2 * N) * (P - 2 * N);
    *r = P * P / out / N;
    *w = 1.0 / N;
}

#define FUSED_VARIANT(N)                                                                                         \
    extern "C" void launch_fused_s##N(const struct problem *p, const struct context *ctx) { run_passes(p, ctx, N, fused_pass<N>); } \
    extern "C" const char *refuse_fused_s##N(const struct problem *p) { return refuse_fused<N>(p); }             \
    extern "C" void model_fused_s##N(const struct problem *p, double *r, double *w) { model_fused<N>(p, r, w); }
FUSED_VARIANT(1)
FUSED_VARIANT(2)
FUSED_VARIANT(3)
FUSED_VARIANT(4)
FUSED_VARIANT(5)
FUSED_VARIANT(6)
FUSED_VARIANT(7)
FUSED_VARIANT(8)

// ---- 4. tb: temporal blocking, streaming with the steps pipelined in registers ----
// 2D. One warp streams a strip of W = 128 columns (4 per lane) down the rows. When input row j
// arrives, the warp computes step 1 of row j-1, step 2 of row j-3, ..., step t of row j-2t+1:
// each step t needs three rows of step t-1, which the warp holds in registers (a ring of 3 rows
// per step; the phase PH, row j's place mod 3 counted from the warp's first row jbeg, picks the
// slots at compile time, so the ring turns without moves: row j goes to slot PH). Step t runs
// two rows behind step t-1, not one, so that the newest row it reads was computed at the
// previous input row: the T steps of a row do not wait for one another, and the warp issues
// them back to back. The x neighbours across lanes come by warp shuffles: no shared memory, no
// barrier. After T steps a strip is right on its W - 2T middle columns (overlapped tiling in
// x); along y, a warp's run of rows starts T rows early and ends T rows late. One pass does T
// steps and moves 8 bytes per point: the single-step kernels move 8 bytes per point per step.

constexpr int TB_W = 128, TB_T = 8, TB_WARPS = 4;  // strip width, steps per pass, warps per block

// The ring slot of the row `back` rows before the newest one, j, at phase PH = (j - jbeg) mod 3.
#define SLOT(PH, back) ((((PH) - (back)) % 3 + 3) % 3)

template <int PH>
__device__ __forceinline__ void tb2_row(const float *__restrict__ u, float *__restrict__ v, float (&ring)[TB_T][3][4],
                                        float (&ahead)[3][4], const bool (&keep)[4], const bool (&col_in)[4], bool vec,
                                        bool store_lane, int j, int jload, int y0, int y1, int nx, int ny, int xl,
                                        float D, int steps)
{
    // Row j came in three rows ago (ahead[PH]); the load of row j + 3 goes out now.
#pragma unroll
    for (int k = 0; k < 4; k++) ring[0][PH][k] = ahead[PH][k];
    {
        const int jr = j + 3;
        const bool row_ok = jr >= 0 && jr < ny && jr < jload;
        const float *src = u + (size_t)(row_ok ? jr : 0) * nx + xl;
        if (vec) {
            float4 q = row_ok && col_in[0] ? __ldg((const float4 *)src) : make_float4(0.f, 0.f, 0.f, 0.f);
            ahead[PH][0] = q.x, ahead[PH][1] = q.y, ahead[PH][2] = q.z, ahead[PH][3] = q.w;
        } else {
#pragma unroll
            for (int k = 0; k < 4; k++) ahead[PH][k] = row_ok && col_in[k] ? __ldg(src + k) : 0.f;
        }
    }
#pragma unroll
    for (int t = TB_T; t >= 1; t--) {  // the last step first: step t reads ring[t-1] before step t-1 writes it
        int row = j;                                                   // the TODO below sets them
        const float *a = ring[t - 1][0], *b = ring[t - 1][1], *c = ring[t - 1][2];
        // TODO(student): the pipeline. Step t runs 2t - 1 rows behind the newest input row j:
        // set `row`, the row step t computes now, and point a, b, c at step t-1's rows row - 1,
        // row and row + 1 in ring[t - 1] (SLOT(PH, back): the slot of the row `back` rows before
        // j; row j itself is in SLOT(PH, 0) = PH).
        // BEGIN SOLUTION
        row = j - 2 * t + 1;
        a = ring[t - 1][SLOT(PH, 2 * t)], b = ring[t - 1][SLOT(PH, 2 * t - 1)], c = ring[t - 1][SLOT(PH, 2 * t - 2)];
        // END SOLUTION
        const float left = __shfl_up_sync(FULL_MASK, b[3], 1), right = __shfl_down_sync(FULL_MASK, b[0], 1);
        float next[4];
        if (t > steps || row <= 0 || row >= ny - 1) {  // steps past S, y faces, rows outside the grid
#pragma unroll
            for (int k = 0; k < 4; k++) next[k] = b[k];
        } else {
#pragma unroll
            for (int k = 0; k < 4; k++) {
                next[k] = b[k];
                // TODO(student): next[k] = the new value of column k, or b[k] where keep[k] (an
                // x face): b[k] + D * (up a[k] + down c[k] + left (b[k-1], or `left` from the
                // lane before for k = 0) + right (b[k+1], or `right` for k = 3) - 4 b[k]).
                // BEGIN SOLUTION
                const float l = k > 0 ? b[k - 1] : left, r = k < 3 ? b[k + 1] : right;
                const float sum = (a[k] + c[k]) + (l + r);
                const float x = fmaf(D, fmaf(-4.f, b[k], sum), b[k]);
                next[k] = keep[k] ? b[k] : x;
                // END SOLUTION
            }
        }
        if (t < TB_T) {
            // TODO(student): keep step t's new row for step t + 1: into ring[t], in the slot of
            // the row it is (`row`, 2t - 1 rows before j), where step t + 1 will look for it.
            // BEGIN SOLUTION
#pragma unroll
            for (int k = 0; k < 4; k++) ring[t][SLOT(PH, 2 * t - 1)][k] = next[k];
            // END SOLUTION
        } else if (row >= y0 && row < y1 && store_lane) {
            float *dst = v + (size_t)row * nx + xl;
            if (vec) {
                if (col_in[0]) *(float4 *)dst = make_float4(next[0], next[1], next[2], next[3]);
            } else {
#pragma unroll
                for (int k = 0; k < 4; k++)
                    if (col_in[k]) dst[k] = next[k];
            }
        }
    }
}

// One warp streams rows y0 .. y1-1 of one strip.
__device__ __forceinline__ void tb2_strip(const float *__restrict__ u, float *__restrict__ v, int nx, int ny, float D,
                                          int steps, int strip, int y0, int y1)
{
    static_assert(TB_T % 4 == 0, "each lane's 4 columns are all valid or all not");
    constexpr int VALID = TB_W - 2 * TB_T;
    const int lane = threadIdx.x & 31, xl = strip * VALID - TB_T + 4 * lane;
    bool keep[4], col_in[4];
#pragma unroll
    for (int k = 0; k < 4; k++) {
        col_in[k] = xl + k >= 0 && xl + k < nx;
        keep[k] = xl + k == 0 || xl + k == nx - 1;
    }
    const bool vec = (nx & 3) == 0, store_lane = lane >= TB_T / 4 && lane < 32 - TB_T / 4;
    float ring[TB_T][3][4], ahead[3][4];
#pragma unroll
    for (int t = 0; t < TB_T; t++)
#pragma unroll
        for (int s = 0; s < 3; s++)
#pragma unroll
            for (int k = 0; k < 4; k++) ring[t][s][k] = 0.f;
    const int jbeg = y0 - TB_T, jload = y1 + TB_T, jend = y1 + 2 * TB_T - 1;
#pragma unroll
    for (int s = 0; s < 3; s++) {
        const int jr = jbeg + s;
        const bool row_ok = jr >= 0 && jr < ny;
#pragma unroll
        for (int k = 0; k < 4; k++) ahead[s][k] = row_ok && col_in[k] ? u[(size_t)jr * nx + xl + k] : 0.f;
    }
    for (int j = jbeg; j < jend; j += 3) {
        tb2_row<0>(u, v, ring, ahead, keep, col_in, vec, store_lane, j, jload, y0, y1, nx, ny, xl, D, steps);
        if (j + 1 < jend) tb2_row<1>(u, v, ring, ahead, keep, col_in, vec, store_lane, j + 1, jload, y0, y1, nx, ny, xl, D, steps);
        if (j + 2 < jend) tb2_row<2>(u, v, ring, ahead, keep, col_in, vec, store_lane, j + 2, jload, y0, y1, nx, ny, xl, D, steps);
    }
}

// The work is the sequence of (strip, row) pairs, strip after strip; warp w streams the run of
// `run` pairs from w * run: every warp gets the same number of rows, whatever the strip count.
__global__ void __launch_bounds__(32 * TB_WARPS) heat_tb2(const float *__restrict__ u, float *__restrict__ v, int nx,
                                                        int ny, float D, int steps, int strips, long long run)
{
    const long long total = (long long)strips * ny;
    long long s = (blockIdx.x * (long long)TB_WARPS + (threadIdx.x >> 5)) * run;
    const long long end = min(s + run, total);
    while (s < end) {
        const int strip = (int)(s / ny), y0 = (int)(s % ny), y1 = (int)min((long long)ny, y0 + (end - s));
        tb2_strip(u, v, nx, ny, D, steps, strip, y0, y1);
        s += y1 - y0;
    }
}

// 3D. The same pipeline along z with a tile of TX x TY points in x and y: warp w owns PY rows of
// the tile, each lane V consecutive x points of them, and per step a ring of 3 planes. The x
// neighbours come by shuffles, the y neighbours from the thread's own rows except for its first
// and last row, whose outer neighbours the warps above and below publish in shared memory one
// plane ahead (double buffered: one barrier per plane). After T steps the tile is right on its
// (TX-2T) x (TY-2T) middle. Here step t runs t planes behind the input, not 2t - 1 as in 2D:
// the block waits at a barrier every plane anyway, and the skewed pipeline measured slower.

constexpr int T3 = 4, V3 = 2, PY3 = 3, W3 = 16;  // steps per pass, x points per lane, rows per warp, warps
constexpr int TX3 = 32 * V3, TY3 = W3 * PY3, VX3 = TX3 - 2 * T3, VY3 = TY3 - 2 * T3;
constexpr size_t SMEM3 = (size_t)2 * T3 * W3 * 2 * TX3 * sizeof(float);  // [buffer][step][warp][first/last][x]

// This lane's V3 values in the shared row of (buffer, step, warp, first = 0 / last = 1).
__device__ __forceinline__ float *shared_row(float *xb, int buf, int step, int warp, int side)
{
    return xb + (((size_t)(buf * T3 + step) * W3 + warp) * 2 + side) * TX3 + V3 * (threadIdx.x & 31);
}

template <int PH>
__device__ __forceinline__ void tb3_plane(const float *__restrict__ u, float *__restrict__ v, float *xb,
                                          float (&ring)[T3][3][PY3][V3], float (&ahead)[3][PY3][V3],
                                          const bool (&keep)[PY3][V3], const bool (&col_in)[V3], const bool (&row_in)[PY3],
                                          int x0, int yt, int j, int jend, int z0, int z1, int nx, int ny,
                                          int nz, int xl, int yw, float D, int steps)
{
    const int warp = threadIdx.x >> 5, cur = j & 1, nxt = cur ^ 1;
    const size_t plane = (size_t)nx * ny;
#pragma unroll
    for (int r = 0; r < PY3; r++)
#pragma unroll
        for (int k = 0; k < V3; k++) ring[0][PH][r][k] = ahead[PH][r][k];
    {
        const int jr = j + 3;
        const bool z_ok = jr >= 0 && jr < nz && jr < jend;
#pragma unroll
        for (int r = 0; r < PY3; r++) {
            const float *src = u + (size_t)(z_ok ? jr : 0) * plane + (size_t)(row_in[r] ? yw + r : 0) * nx + xl;
#pragma unroll
            for (int k = 0; k < V3; k++) ahead[PH][r][k] = z_ok && row_in[r] && col_in[k] ? __ldg(src + k) : 0.f;
        }
    }
#pragma unroll
    for (int k = 0; k < V3; k++) {
        shared_row(xb, nxt, 0, warp, 0)[k] = ring[0][PH][0][k];
        shared_row(xb, nxt, 0, warp, 1)[k] = ring[0][PH][PY3 - 1][k];
    }
#pragma unroll
    for (int t = 1; t <= T3; t++) {
        const int pz = j - t;
        float(&a)[PY3][V3] = ring[t - 1][SLOT(PH, t + 1)];
        float(&b)[PY3][V3] = ring[t - 1][SLOT(PH, t)];
        float(&c)[PY3][V3] = ring[t - 1][SLOT(PH, t - 1)];
        const float *above = shared_row(xb, cur, t - 1, warp > 0 ? warp - 1 : warp, 1);
        const float *below = shared_row(xb, cur, t - 1, warp < W3 - 1 ? warp + 1 : warp, 0);
        float up[V3], down[V3], next[PY3][V3];
#pragma unroll
        for (int k = 0; k < V3; k++) up[k] = above[k], down[k] = below[k];
        const bool update = t <= steps && pz > 0 && pz < nz - 1;
#pragma unroll
        for (int r = 0; r < PY3; r++) {
            const float left = __shfl_up_sync(FULL_MASK, b[r][V3 - 1], 1), right = __shfl_down_sync(FULL_MASK, b[r][0], 1);
#pragma unroll
            for (int k = 0; k < V3; k++) {
                next[r][k] = b[r][k];  // faces, points outside the grid, steps past S
                // TODO(student): if update and not keep[r][k], next[r][k] = b[r][k] + D * (the
                // six neighbours - 6 b[r][k]): z from a and c; x from b[r][k -+ 1] or left/right;
                // y from b[r -+ 1][k] or, for the first and last row, up[k] and down[k].
                // BEGIN SOLUTION
                const float west = k > 0 ? b[r][k - 1] : left, east = k < V3 - 1 ? b[r][k + 1] : right;
                const float north = r > 0 ? b[r - 1][k] : up[k], south = r < PY3 - 1 ? b[r + 1][k] : down[k];
                const float sum = (a[r][k] + c[r][k]) + (west + east) + (north + south);
                if (update && !keep[r][k]) next[r][k] = fmaf(D, fmaf(-6.f, b[r][k], sum), b[r][k]);
                // END SOLUTION
            }
        }
        if (t < T3) {
#pragma unroll
            for (int r = 0; r < PY3; r++)
#pragma unroll
                for (int k = 0; k < V3; k++) ring[t][SLOT(PH, t)][r][k] = next[r][k];
#pragma unroll
            for (int k = 0; k < V3; k++) {
                shared_row(xb, nxt, t, warp, 0)[k] = next[0][k];
                shared_row(xb, nxt, t, warp, 1)[k] = next[PY3 - 1][k];
            }
        } else if (pz >= z0 && pz < z1) {
#pragma unroll
            for (int r = 0; r < PY3; r++) {
                float *dst = v + (size_t)pz * plane + (size_t)(yw + r) * nx + xl;
                // The tile's own points, tested here, not kept as 6 flags: those cost registers (spills)
#pragma unroll
                for (int k = 0; k < V3; k++)
                    if (row_in[r] && col_in[k] && xl + k >= x0 + T3 && xl + k < x0 + TX3 - T3 && yw + r >= yt + T3 &&
                        yw + r < yt + TY3 - T3)
                        dst[k] = next[r][k];
            }
        }
    }
    __syncthreads();  // this plane's shared rows are read at the next plane; the last ones are free
}

// The block streams planes z0 .. z1-1 of tile (tx, ty).
__device__ __forceinline__ void tb3_tile(const float *__restrict__ u, float *__restrict__ v, float *xb, int nx, int ny,
                                         int nz, float D, int steps, int tx, int ty, int z0, int z1)
{
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int x0 = tx * VX3 - T3, yt = ty * VY3 - T3;
    const int xl = x0 + V3 * lane, yw = yt + warp * PY3;
    bool keep[PY3][V3], col_in[V3], row_in[PY3];
#pragma unroll
    for (int k = 0; k < V3; k++) col_in[k] = xl + k >= 0 && xl + k < nx;
#pragma unroll
    for (int r = 0; r < PY3; r++) {
        const int y = yw + r;
        row_in[r] = y >= 0 && y < ny;
#pragma unroll
        for (int k = 0; k < V3; k++) {
            const int x = xl + k;
            keep[r][k] = x == 0 || x == nx - 1 || y == 0 || y == ny - 1;
        }
    }
    float ring[T3][3][PY3][V3], ahead[3][PY3][V3];
#pragma unroll
    for (int t = 0; t < T3; t++)
#pragma unroll
        for (int s = 0; s < 3; s++)
#pragma unroll
            for (int r = 0; r < PY3; r++)
#pragma unroll
                for (int k = 0; k < V3; k++) ring[t][s][r][k] = 0.f;
    // The tile's outermost rows read shared rows nobody wrote: zeros keep them finite.
    for (int i = threadIdx.x; i < (int)(SMEM3 / sizeof(float)); i += 32 * W3) xb[i] = 0.f;
    const int jbeg = z0 - T3, jend = z1 + T3;
    const size_t plane = (size_t)nx * ny;
#pragma unroll
    for (int s = 0; s < 3; s++) {
        const int jr = jbeg + s;
        const bool z_ok = jr >= 0 && jr < nz;
#pragma unroll
        for (int r = 0; r < PY3; r++)
#pragma unroll
            for (int k = 0; k < V3; k++)
                ahead[s][r][k] = z_ok && row_in[r] && col_in[k] ? u[(size_t)jr * plane + (size_t)(yw + r) * nx + xl + k] : 0.f;
    }
    __syncthreads();
    for (int j = jbeg; j < jend; j += 3) {
        tb3_plane<0>(u, v, xb, ring, ahead, keep, col_in, row_in, x0, yt, j, jend, z0, z1, nx, ny, nz, xl, yw, D, steps);
        if (j + 1 < jend) tb3_plane<1>(u, v, xb, ring, ahead, keep, col_in, row_in, x0, yt, j + 1, jend, z0, z1, nx, ny, nz, xl, yw, D, steps);
        if (j + 2 < jend) tb3_plane<2>(u, v, xb, ring, ahead, keep, col_in, row_in, x0, yt, j + 2, jend, z0, z1, nx, ny, nz, xl, yw, D, steps);
    }
}

// As in 2D: block b streams the run of `run` (tile, plane) pairs from b * run, tile after tile.
__global__ void __launch_bounds__(32 * W3) heat_tb3(const float *__restrict__ u, float *__restrict__ v, int nx, int ny,
                                                  int nz, float D, int steps, int tiles_x, int tiles, long long run)
{
    extern __shared__ float xb[];
    const long long total = (long long)tiles * nz;
    long long s = blockIdx.x * run;
    const long long end = min(s + run, total);
    while (s < end) {
        const int tile = (int)(s / nz), z0 = (int)(s % nz), z1 = (int)min((long long)nz, z0 + (end - s));
        tb3_tile(u, v, xb, nx, ny, nz, D, steps, tile % tiles_x, tile / tiles_x, z0, z1);
        s += z1 - z0;
    }
}

// How the work is cut: one wave, every resident warp (2D) or block (3D) of every SM streaming
// an equal run of rows (planes), but no more runs than rows / T (rounded up), so that runs are
// about one pass's T rows long or longer: below that a warp spends more on filling its pipeline
// than on its rows. Small grids thus get fewer warps.
// (On an H100, runs of 4 T rows or more measured 25% slower at 1024², 7% faster at 2048² and
// the same from 4096² up.)

struct tb_grid {
    int units_x, units;   // strips (2D) or tiles in x and in all (3D)
    int workers;          // warps (2D) or blocks (3D)
    long long run;        // rows (planes) each streams
};

// Blocks of each kernel one SM holds at once, asked once: the occupancy query costs more host
// time than a pass of a small problem takes on the GPU.
static int tb_blocks_per_sm(int dims)
{
    static int per_sm[2];
    if (!per_sm[dims - 2]) {
        if (dims == 2) CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm[0], heat_tb2, 32 * TB_WARPS, 0));
        else CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm[1], heat_tb3, 32 * W3, SMEM3));
    }
    return per_sm[dims - 2];
}

static struct tb_grid tb_plan(const struct problem *p)
{
    struct tb_grid g;
    long long slots = (long long)tb_blocks_per_sm(p->dims) * p->sm_count, rows;
    int depth;
    if (p->dims == 2) {
        g.units_x = g.units = (int)ceil_div(p->n[0], TB_W - 2 * TB_T);
        slots *= TB_WARPS, rows = p->n[1], depth = TB_T;
    } else {
        g.units_x = (int)ceil_div(p->n[0], VX3);
        g.units = g.units_x * (int)ceil_div(p->n[1], VY3);
        rows = p->n[2], depth = T3;
    }
    long long total = g.units * rows, most = (total + depth - 1) / depth;
    long long workers = slots < most ? slots : most;
    if (workers < 1) workers = 1;
    g.run = (total + workers - 1) / workers;
    g.workers = (int)((total + g.run - 1) / g.run);
    return g;
}

static void tb_pass(const struct problem *p, const struct context *ctx, const float *src, float *dst, int steps)
{
    struct tb_grid g = tb_plan(p);
    if (p->dims == 2)
        heat_tb2<<<ceil_div(g.workers, TB_WARPS), 32 * TB_WARPS, 0, ctx->stream>>>(src, dst, (int)p->n[0], (int)p->n[1],
                                                                                  diffusion(p), steps, g.units, g.run);
    else
        heat_tb3<<<g.workers, 32 * W3, SMEM3, ctx->stream>>>(src, dst, (int)p->n[0], (int)p->n[1], (int)p->n[2],
                                                            diffusion(p), steps, g.units_x, g.units, g.run);
}

extern "C" void launch_tb(const struct problem *p, const struct context *ctx)
{
    run_passes(p, ctx, p->dims == 2 ? TB_T : T3, tb_pass);
}

extern "C" const char *refuse_tb(const struct problem *p)
{
    if (p->dims == 3) {
        if (SMEM3 > p->smem_optin) return "the shared rows of the 3D kernel do not fit in this GPU's shared memory";
    }
    return refuse_big(p);
}

// Per step: a pass reads the strip (tile) with its overlap of T on each side and each run with
// T more rows (planes) at each end, writes each point once, and does T steps.
extern "C" void model_tb(const struct problem *p, double *r, double *w)
{
    struct tb_grid g = tb_plan(p);
    double run = (double)g.run;
    if (p->dims == 2) {
        double x = (double)TB_W / (TB_W - 2 * TB_T), y = (run + 2 * TB_T) / run;
        *r = x * y / TB_T;
        *w = 1.0 / TB_T;
    } else {
        double xy = (double)TX3 * TY3 / ((double)VX3 * VY3), z = (run + 2 * T3) / run;
        *r = xy * z / T3;
        *w = 1.0 / T3;
    }
}

// Before any timing: the 3D kernel's shared rows (above 48 KB a kernel must opt in).
extern "C" void setup_kernels(const struct problem *p)
{
    if (SMEM3 <= p->smem_optin)
        CUDA_CHECK(cudaFuncSetAttribute(heat_tb3, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)SMEM3));
}
