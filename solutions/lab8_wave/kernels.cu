// SPDX-License-Identifier: MIT
// Lab 8 (wave), the kernels: one leapfrog step of the acoustic wave equation per launch,
//   u_next = 2 u - u_prev + vsq * L8 u   (the 25-point star of order 8; zero on the boundary layer)
// and the launches that chain S steps. A step reads three arrays and writes one: at best 16
// bytes per point-step, twice lab 5's stencil. The variants: the naive kernel, 003's tile with a
// register queue at its two tile sizes (Table 2), and lab 5's fastest kernel carried over.
// Build and run: make lab8 && ./lab8        (make sol8 && ./sol8 for the solution)
// The problem (lab.c): ctx->in[0] = u(-dt), ctx->in[1] = u(0), ctx->in[2] = vsq; leave u(S dt) in
// ctx->out[0]; ctx->scratch[0] is a work array. Launch on ctx->stream.
#include <stdint.h>

#include "quad.cuh"  // async.cuh too
#include "wave.cuh"  // wave.h, and the weights c_wave

// ---- what every variant shares: the update of one point, and the chain of S steps ----

// One step: read u (the current level), u_prev and vsq, write the new level into next. next
// may be u_prev itself (in place: a point reads its own old value before writing it), so neither
// has __restrict__. Every field's rows are pitch elements apart (nx rounded up to 32, lab.h):
// point (x, y, z) is element x + pitch * (y + ny * z). src is the source point's element
// (SIZE_MAX: none), amp what the step adds there. The naive kernel updates the points of the box
// x0 <= x < x1, y0 <= y < y1 (the whole plane, or queue4's thin remainder).
struct step_args {
    const float *u, *up, *vsq;
    float *next;
    int nx, pitch, ny, nz, sponge;
    size_t src;
    float amp;
    int x0, x1, y0, y1;
};
typedef void step_fn(const struct problem *p, const struct step_args *a, cudaStream_t stream);

// S steps over two arrays: the first step writes A, the second B, then each step overwrites
// the oldest level, which is the array it writes. A is the output when S is odd, so that the
// last level always lands in ctx->out[0].
static void run_steps(const struct problem *p, const struct context *ctx, step_fn *step)
{
    float *a = p->steps % 2 ? ctx->out[0] : ctx->scratch[0], *b = p->steps % 2 ? ctx->scratch[0] : ctx->out[0];
    struct step_args s = {ctx->in[1], ctx->in[0], ctx->in[2], NULL, (int)p->n[0], (int)p->pitch, (int)p->n[1],
                          (int)p->n[2], (int)p->param[2], p->source ? device_index(p, p->source_at) : SIZE_MAX, 0.f,
                          0, (int)p->n[0], 0, (int)p->n[1]};
    for (int k = 0; k < p->steps; k++) {
        s.next = k % 2 == 0 ? a : b;
        s.amp = p->source ? p->source[k] : 0.f;
        step(p, &s, ctx->stream);
        s.up = s.u;  // the level just read becomes the old one
        s.u = s.next;
    }
}

static const char *refuse_int(const struct problem *p)
{
    // int coordinates, with room for a tile or a z chunk past the last point
    if (p->n[0] > (1u << 30) || p->n[1] > (1u << 30) || p->n[2] > (1u << 30))
        return "every dimension must be at most 2^30 (int coordinates)";
    return NULL;
}

// ---- 1. naive: one point per thread, all 25 neighbours from global memory ----

__global__ void __launch_bounds__(256) wave_naive(struct step_args a)
{
    const int x = a.x0 + blockIdx.x * blockDim.x + threadIdx.x, y = a.y0 + blockIdx.y * blockDim.y + threadIdx.y;
    const int z = blockIdx.z;
    if (x >= a.x1 || y >= a.y1) return;
    const size_t sy = a.pitch, sz = (size_t)a.pitch * a.ny, i = z * sz + y * sy + x;
    const int d = wave_depth(x, y, z, a.nx, a.ny, a.nz);
    float v = 0.f;  // the boundary layer stays zero
    // TODO(student): at depth d >= 0, v = the leapfrog update of point i: lap = c_wave[0] * u[i]
    // + sum over k = 1..WAVE_R of c_wave[k] * (the six neighbours at distance k), then
    // wave_leapfrog(...), plus a.amp at the source point a.src.
    // BEGIN SOLUTION
    if (d >= 0) {
        const float *u = a.u + i;
        float lap = c_wave[0] * u[0];
#pragma unroll
        for (int k = 1; k <= WAVE_R; k++)
            lap += c_wave[k] * (u[-k] + u[k] + u[-k * (long)sy] + u[k * (long)sy] + u[-k * (long)sz] + u[k * (long)sz]);
        v = wave_leapfrog(u[0], a.up[i], a.vsq[i], lap, d, a.sponge);
        if (i == a.src) v += a.amp;
    }
    // END SOLUTION
    a.next[i] = v;
}

static void step_naive(const struct problem *p, const struct step_args *a, cudaStream_t stream)
{
    dim3 block(32, 8), grid(ceil_div(p->n[0], 32), ceil_div(p->n[1], 8), (unsigned)p->n[2]);
    wave_naive<<<grid, block, 0, stream>>>(*a);
}

extern "C" void launch_naive(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, step_naive); }

extern "C" const char *refuse_naive(const struct problem *p)
{
    if (ceil_div(p->n[1], 8) > 65535 || p->n[2] > 65535) return "too many blocks along y or z for the grid (65535 at most)";
    return refuse_int(p);
}

// Every neighbour is a load: 25 of u, u_prev, vsq; one write.
extern "C" void model_naive(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = 6 * WAVE_R + 1 + 2;
    *w = 1;
}

// ---- 2. queue: 003's single pass, the current plane in shared memory, z in registers ----
// A TX x (TY*PY) output tile; TX x TY threads, each owning PY columns (PY rows apart by TY). A
// thread keeps its column at planes z-R .. z+R in registers (the queue); per plane the tile and
// its halo of R on each side go to shared memory (the halo straight from global memory, as in
// 003's Appendix A). u_prev and vsq are read once, at the point.

template <int TX, int TY, int PY>
__global__ void __launch_bounds__(TX *TY) wave_queue(struct step_args a, int zchunk)
{
    constexpr int R = WAVE_R, H = TY * PY, SW = TX + 2 * R;
    __shared__ float s[H + 2 * R][SW];
    const int tx = threadIdx.x, ty = threadIdx.y, nx = a.nx, pitch = a.pitch, ny = a.ny, nz = a.nz;
    const int x0 = blockIdx.x * TX, y0 = blockIdx.y * H, x = x0 + tx;
    const int z0 = blockIdx.z * zchunk, z1 = min(z0 + zchunk, nz);
    const size_t plane = (size_t)pitch * ny;
    const float *__restrict__ u = a.u;

    int ys[PY];
    bool mine[PY];
    float q[PY][2 * R + 1];  // q[p][i]: column (x, ys[p]) at plane z - R + i
#pragma unroll
    for (int p = 0; p < PY; p++) {
        ys[p] = y0 + ty + p * TY;
        mine[p] = x < nx && ys[p] < ny;
#pragma unroll
        for (int i = 1; i <= 2 * R; i++) {
            const int zz = z0 - R + i - 1;
            q[p][i] = mine[p] && zz >= 0 && zz < nz ? u[zz * plane + (size_t)ys[p] * pitch + x] : 0.f;
        }
    }
    // Halo loads of this thread (values outside the grid are never used: a point that computes
    // the stencil lies at least R inside every face).
    const bool hx_lo = x0 - R + tx >= 0 && tx < R, hx_hi = x0 + TX + tx < nx && tx < R;
    for (int z = z0; z < z1; z++) {
        // TODO(student): shift each queue one plane forward and load plane z+R at its front; then,
        // between two barriers, put the current plane (q[p][R]) and the halo of plane z (R rows
        // above and below the tile, R columns left and right of it) in s[][]; then compute each
        // point of the thread's columns: zero on the boundary layer, else the leapfrog update with
        // the x and y neighbours from s and the z neighbours from the queue.
        // BEGIN SOLUTION
        const size_t zp = z * plane;
#pragma unroll
        for (int p = 0; p < PY; p++) {
#pragma unroll
            for (int i = 0; i < 2 * R; i++) q[p][i] = q[p][i + 1];
            q[p][2 * R] = mine[p] && z + R < nz ? u[(z + R) * plane + (size_t)ys[p] * pitch + x] : 0.f;
        }
        __syncthreads();  // everyone is done reading the previous plane
#pragma unroll
        for (int p = 0; p < PY; p++) s[ty + p * TY + R][tx + R] = q[p][R];
        if (ty < R) {
            const int above = y0 - R + ty, below = y0 + H + ty;
            if (x < nx && above >= 0) s[ty][tx + R] = u[zp + (size_t)above * pitch + x];
            if (x < nx && below < ny) s[H + R + ty][tx + R] = u[zp + (size_t)below * pitch + x];
        }
#pragma unroll
        for (int p = 0; p < PY; p++) {
            const int row = ty + p * TY;
            if (y0 + row < ny) {
                const size_t r = zp + (size_t)(y0 + row) * pitch;
                if (hx_lo) s[row + R][tx] = u[r + x0 - R + tx];
                if (hx_hi) s[row + R][tx + TX + R] = u[r + x0 + TX + tx];
            }
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < PY; p++) {
            if (!mine[p]) continue;
            const size_t i = zp + (size_t)ys[p] * pitch + x;
            const int d = wave_depth(x, ys[p], z, nx, ny, nz);
            float v = 0.f;
            if (d >= 0) {
                const int row = ty + p * TY + R, col = tx + R;
                float lap = c_wave[0] * q[p][R];
#pragma unroll
                for (int k = 1; k <= R; k++)
                    lap += c_wave[k] * (s[row][col - k] + s[row][col + k] + s[row - k][col] + s[row + k][col] +
                                        q[p][R - k] + q[p][R + k]);
                v = wave_leapfrog(q[p][R], a.up[i], a.vsq[i], lap, d, a.sponge);
                if (i == a.src) v += a.amp;
            }
            a.next[i] = v;
        }
        // END SOLUTION
    }
}

// Enough z chunks for about per_sm blocks per SM, never chunks shorter than 4R planes (each
// chunk reads 2R extra planes to fill its queue).
static int zchunk(const struct problem *p, size_t tiles, int per_sm)
{
    size_t want = per_sm * (size_t)p->sm_count, chunks = (want + tiles - 1) / tiles;
    size_t zc = (p->n[2] + chunks - 1) / chunks, min_zc = 4 * WAVE_R;
    if (zc < min_zc) zc = min_zc;
    return (int)(zc < p->n[2] ? zc : p->n[2]);
}

template <int TX, int TY, int PY>
static void step_queue(const struct problem *p, const struct step_args *a, cudaStream_t stream)
{
    size_t tiles = (size_t)ceil_div(p->n[0], TX) * ceil_div(p->n[1], TY * PY);
    int zc = zchunk(p, tiles, 16);
    dim3 block(TX, TY), grid(ceil_div(p->n[0], TX), ceil_div(p->n[1], TY * PY), ceil_div(p->n[2], zc));
    wave_queue<TX, TY, PY><<<grid, block, 0, stream>>>(*a, zc);
}

template <int TX, int TY, int PY>
static const char *refuse_queue(const struct problem *p)
{
    size_t tiles = (size_t)ceil_div(p->n[0], TX) * ceil_div(p->n[1], TY * PY);
    if (ceil_div(p->n[1], TY * PY) > 65535 || ceil_div(p->n[2], zchunk(p, tiles, 16)) > 65535)
        return "too many blocks along y or z for the grid (65535 at most)";
    return refuse_int(p);
}

// 003's model: an n x m tile reads (n m + k n + k m) values of u per plane, each z chunk k more
// planes for its queue; plus u_prev and vsq once.
template <int TX, int TY, int PY>
static void model_queue(const struct problem *p, double *r, double *w)
{
    double n = TX, m = TY * PY, k = 2 * WAVE_R;
    size_t tiles = (size_t)ceil_div(p->n[0], TX) * ceil_div(p->n[1], TY * PY);
    double zc = zchunk(p, tiles, 16);
    *r = (n * m + k * n + k * m) / (n * m) + k / zc + 2;
    *w = 1;
}

extern "C" void launch_queue_16x16(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, step_queue<16, 16, 1>); }
extern "C" const char *refuse_queue_16x16(const struct problem *p) { return refuse_queue<16, 16, 1>(p); }
extern "C" void model_queue_16x16(const struct problem *p, double *r, double *w) { model_queue<16, 16, 1>(p, r, w); }
extern "C" void launch_queue_32x32(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, step_queue<32, 16, 2>); }
extern "C" const char *refuse_queue_32x32(const struct problem *p) { return refuse_queue<32, 16, 2>(p); }
extern "C" void model_queue_32x32(const struct problem *p, double *r, double *w) { model_queue<32, 16, 2>(p, r, w); }

// ---- 3. queue4_128x16: lab 5's fastest kernel, carried over ----
// A thread owns a quad of 4 x points (float4) in PY = 2 adjacent rows (lab 5 takes 4: with
// u_prev and vsq that needs more than 255 registers and spills); the tile is 128x16. The
// planes go round a ring of RING shared buffers, each with an mbarrier (split arrive and wait,
// so a warp may run ahead of the slowest); the halo quads are copied by cp.async AHEAD planes
// ahead, round a ring of AHEAD + 3 buffers (lab 5's question 5): 6, or 4 with AHEAD = 1 where 6 do
// not fit a block's shared memory (a GPU of 64 KB a block). u_prev and vsq come as float4, one plane ahead. Any nx: the harness pads every row to a
// multiple of 32 floats (p->pitch), so every row starts 128-byte aligned and every quad is one
// aligned float4, loaded, copied and stored whole. The last quad of a row may reach into the
// padding (NaN in the inputs): its lanes there feed only points of the boundary layer or past nx
// (depth < 0: zero), and the latter are stored into the output's padding, which is allowed.

constexpr int QUAD_W = 128, QUAD_H = 16;

template <int PLANES_AHEAD = 3>
struct Quad {
    static constexpr int AHEAD = PLANES_AHEAD, RING = AHEAD + 3;  // halo lead, shared planes
    static constexpr int R = WAVE_R, BY = 8, PY = QUAD_H / BY;  // threads in y, rows per thread
    static constexpr int XQ = 1, QW = 32 + 2 * XQ;              // halo quads each side, row in quads
    static constexpr int H = QUAD_H, ROWS = H + 2 * R, NT = 32 * BY;
    static constexpr int HALO = 2 * R * 32 + H * 2 * XQ, HS = (HALO + NT - 1) / NT;
    static constexpr int Q = 2 * R + 2;  // planes z-R .. z+R+1 (the last one in flight)
    static constexpr size_t SMEM = (size_t)RING * ROWS * QW * sizeof(float4);
};

template <int PLANES_AHEAD>
__global__ void __launch_bounds__(Quad<>::NT) wave_queue4(struct step_args a, int zchunk)
{
    using C = Quad<PLANES_AHEAD>;
    constexpr int R = C::R, PY = C::PY, QW = C::QW, XQ = C::XQ, HS = C::HS, Q = C::Q, PLANE = C::ROWS * QW;
    constexpr int RING = C::RING, AHEAD = C::AHEAD;
    extern __shared__ float4 ring[];           // RING planes of ROWS x QW quads
    __shared__ unsigned long long full[RING];  // full[b]: every thread has stored its part of buffer b
    const int nx = a.nx, pitch = a.pitch, ny = a.ny, nz = a.nz;
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx;
    const int x0 = blockIdx.x * QUAD_W, yb = blockIdx.y * C::H, x = x0 + 4 * tx, y0 = yb + ty * PY;
    const int z0 = blockIdx.z * zchunk, z1 = min(z0 + zchunk, nz);
    const size_t plane = (size_t)pitch * ny;
    const float *__restrict__ in = a.u;
    if (t < RING) mbar_init(&full[t], C::NT);
    bool mine[PY];
#pragma unroll
    for (int p = 0; p < PY; p++) mine[p] = x < nx && y0 + p < ny;
    // Halo quad h: first the R rows above and below the tile, then XQ quads left and right of
    // each of its rows; quads outside the grid are never loaded (no point that uses the stencil
    // reads them). A quad that straddles nx brings padding (NaN) in its last lanes: they feed
    // only points of the boundary layer (x >= nx - R) or past the row's end, both zero.
    int hslot[HS];
    const float *hp[HS];
    quad_halo<R, C>(t, x0, yb, nx, ny, pitch, plane, z0, in, hslot, hp);
    const float *cin = in + (size_t)y0 * pitch + x + (size_t)(z0 - R) * plane;
    float4 q[PY][Q];  // q[p][i] = row y0+p at plane z-R+i
#pragma unroll
    for (int i = 0; i < Q - 1; i++, cin += plane)
#pragma unroll
        for (int p = 0; p < PY; p++)
            q[p][i] = mine[p] && z0 - R + i >= 0 && z0 - R + i < nz ? *(const float4 *)(cin + p * pitch) : make_float4(0.f, 0.f, 0.f, 0.f);
    const int own = (R + ty * PY) * QW + XQ + tx;  // this thread's first quad in a plane
    __syncthreads();                               // the barriers are initialised
    for (int i = 0; i < AHEAD; i++) {
        if (z0 + i < z1)
            quad_copy_halo(ring + i * PLANE, hslot, hp, i * plane);
        async_commit();  // one group per plane, empty or not, so that async_landed counts planes
    }
#pragma unroll
    for (int k = 0; k < HS; k++) hp[k] += AHEAD * plane;
    async_landed<AHEAD - 1>();
#pragma unroll
    for (int p = 0; p < PY; p++) ring[own + p * QW] = q[p][R];
    mbar_arrive(&full[0]);
    const size_t row0 = (size_t)y0 * pitch + x;
    // u_prev and vsq of the next plane, loaded one plane ahead (up_n, vs_n); the plane loop hands
    // them over as up_c, vs_c.
    float4 up_n[PY], vs_n[PY];
#pragma unroll
    for (int p = 0; p < PY; p++) up_n[p] = vs_n[p] = make_float4(0.f, 0.f, 0.f, 0.f);
    if (z0 >= R && z0 < nz - R)
#pragma unroll
        for (int p = 0; p < PY; p++)
            if (mine[p]) {
                const size_t i = z0 * plane + row0 + (size_t)p * pitch;
                up_n[p] = *(const float4 *)(a.up + i), vs_n[p] = *(const float4 *)(a.vsq + i);
            }
#pragma unroll 1
    for (int z = z0; z < z1; z++, cin += plane) {
        const int step = z - z0;
        [[maybe_unused]] float4 up_c[PY], vs_c[PY];  // unread in the skeleton until its TODO is done
#pragma unroll
        for (int p = 0; p < PY; p++) up_c[p] = up_n[p], vs_c[p] = vs_n[p];
        if (z + 1 < z1 && z + 1 >= R && z + 1 < nz - R)
#pragma unroll
            for (int p = 0; p < PY; p++)
                if (mine[p]) {
                    const size_t i = (z + 1) * plane + row0 + (size_t)p * pitch;
                    up_n[p] = *(const float4 *)(a.up + i), vs_n[p] = *(const float4 *)(a.vsq + i);
                }
#pragma unroll
        for (int p = 0; p < PY; p++)
            if (mine[p] && z + 1 < z1 && z + R + 1 < nz) q[p][Q - 1] = *(const float4 *)(cin + p * pitch);
        if (z + AHEAD < z1) quad_copy_halo(ring + ((step + AHEAD) % RING) * PLANE, hslot, hp, 0);
        async_commit();
#pragma unroll
        for (int k = 0; k < HS; k++) hp[k] += plane;
        if (z + 1 < z1) {
            float4 *next = ring + ((step + 1) % RING) * PLANE;
            async_landed<AHEAD - 1>();
#pragma unroll
            for (int p = 0; p < PY; p++) next[own + p * QW] = q[p][R + 1];
            mbar_arrive(&full[(step + 1) % RING]);
        }
        mbar_wait(&full[step % RING], (step / RING) & 1);
        const float4 *c = ring + (step % RING) * PLANE + own;
        const size_t at = z * plane + row0;
        if (z >= R && z < nz - R) {
            [[maybe_unused]] float4 rows[PY + 2 * R];  // rows y0-R .. y0+PY-1+R of this quad column
#pragma unroll
            for (int r = 0; r < PY + 2 * R; r++) rows[r] = r < R || r >= R + PY ? c[(r - R) * QW] : q[r - R][R];
#pragma unroll
            for (int p = 0; p < PY; p++) {
                if (!mine[p]) continue;
                const size_t i = at + (size_t)p * pitch;
                float v[4] = {0.f, 0.f, 0.f, 0.f};
                // TODO(student): the four points of row p: zero on the boundary layer, else the
                // leapfrog update with the x neighbours from the row's window of shared quads, the
                // y neighbours from rows[], the z neighbours from the queue, u_prev and vsq from
                // up_c[p] and vs_c[p] (loaded a plane ahead); a.amp at the source point.
                // BEGIN SOLUTION
                // u_prev and vsq were loaded a plane ahead: with one block (8 warps) per SM few
                // warps are left to hide a load's latency, so each thread must have its next loads
                // in flight while it computes (at 512^3: 118 Gpts/s loading them at the point,
                // 172 ahead).
                const float4 up4 = up_c[p], vs4 = vs_c[p];
                float w[4 * (2 * XQ + 1)];  // x window: quads x-4 .. x+7 of row p
#pragma unroll
                for (int k = -XQ; k <= XQ; k++) {
                    const float4 v = k == 0 ? q[p][R] : c[p * QW + k];
                    w[4 * (k + XQ) + 0] = v.x;
                    w[4 * (k + XQ) + 1] = v.y;
                    w[4 * (k + XQ) + 2] = v.z;
                    w[4 * (k + XQ) + 3] = v.w;
                }
                const float ups[4] = {up4.x, up4.y, up4.z, up4.w}, vss[4] = {vs4.x, vs4.y, vs4.z, vs4.w};
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const int m = 4 * XQ + j;
                    float lap = c_wave[0] * w[m];
#pragma unroll
                    for (int k = 1; k <= R; k++) {
                        const float *b = (const float *)&rows[R + p - k], *f = (const float *)&rows[R + p + k];
                        const float *d = (const float *)&q[p][R - k], *e = (const float *)&q[p][R + k];
                        lap += c_wave[k] * (w[m - k] + w[m + k] + b[j] + f[j] + d[j] + e[j]);
                    }
                    const int depth = wave_depth(x + j, y0 + p, z, nx, ny, nz);
                    v[j] = depth < 0 ? 0.f : wave_leapfrog(w[m], ups[j], vss[j], lap, depth, a.sponge);
                    if (a.src == i + j) v[j] += a.amp;
                }
                // END SOLUTION
                *(float4 *)(a.next + i) = make_float4(v[0], v[1], v[2], v[3]);  // lanes past nx: the padding
            }
        } else {  // the first and last R planes are boundary: zero
#pragma unroll
            for (int p = 0; p < PY; p++)
                if (mine[p]) *(float4 *)(a.next + at + (size_t)p * pitch) = make_float4(0.f, 0.f, 0.f, 0.f);
        }
#pragma unroll
        for (int p = 0; p < PY; p++)
#pragma unroll
            for (int i = 0; i < Q - 1; i++) q[p][i] = q[p][i + 1];
    }
}

// One block of 256 threads fits an SM (about 200 registers a thread): 4 blocks per SM balance the
// tail without cutting the chunks short (a chunk reads 2R extra planes; at 512^3, 16 per SM
// would make that 26 % more tile reads, 4 per SM 8 %).
// A tile column costs the same whether it holds 128 x points or one (every warp runs the whole
// loop): at nx = 513 a fifth column would make the step 25% slower for 0.2% more points. So
// queue4 covers the grid's whole tiles only, and a thin remainder (at most TAIL_X columns on the
// right, TAIL_Y rows at the bottom) goes to the naive kernel, with blocks shaped to the strip.
constexpr int TAIL_X = 32, TAIL_Y = 4;

// queue4 covers x < *xm, y < *ym: whole tiles where the rest is a thin strip, else all of it.
static void queue4_extent(const struct problem *p, size_t *xm, size_t *ym)
{
    size_t nx = p->n[0], ny = p->n[1], rx = nx % QUAD_W, ry = ny % QUAD_H;
    *xm = nx >= QUAD_W && rx <= TAIL_X ? nx - rx : nx;
    *ym = ny >= QUAD_H && ry <= TAIL_Y ? ny - ry : ny;
}

static int queue4_chunk(const struct problem *p)
{
    size_t xm, ym;
    queue4_extent(p, &xm, &ym);
    return zchunk(p, (size_t)ceil_div(xm, QUAD_W) * ceil_div(ym, QUAD_H), 4);
}

// The naive kernel on the box [x0, x1) x [y0, y1), 256 threads a block: bx wide (a power of two,
// at most 256) so that a strip one point wide still fills the warps.
static void naive_box(const struct problem *p, const struct step_args *a, int x0, int x1, int y0, int y1, cudaStream_t stream)
{
    struct step_args b = *a;
    b.x0 = x0, b.x1 = x1, b.y0 = y0, b.y1 = y1;
    unsigned bx = 1;
    while (bx < (unsigned)(x1 - x0) && bx < 256) bx *= 2;
    dim3 block(bx, 256 / bx), grid(ceil_div((size_t)(x1 - x0), bx), ceil_div((size_t)(y1 - y0), 256 / bx), (unsigned)p->n[2]);
    wave_naive<<<grid, block, 0, stream>>>(b);
}

static void step_queue4(const struct problem *p, const struct step_args *a, cudaStream_t stream)
{
    int zc = queue4_chunk(p);
    size_t xm, ym;
    queue4_extent(p, &xm, &ym);
    dim3 block(32, Quad<>::BY), grid(ceil_div(xm, QUAD_W), ceil_div(ym, QUAD_H), ceil_div(p->n[2], zc));
    if (Quad<3>::SMEM <= p->smem_optin) wave_queue4<3><<<grid, block, Quad<3>::SMEM, stream>>>(*a, zc);
    else wave_queue4<1><<<grid, block, Quad<1>::SMEM, stream>>>(*a, zc);  // a ring of 4: a small GPU
    if (xm < p->n[0]) naive_box(p, a, (int)xm, a->nx, 0, (int)ym, stream);  // the right strip
    if (ym < p->n[1]) naive_box(p, a, 0, a->nx, (int)ym, a->ny, stream);    // the bottom rows, full width
}

extern "C" void launch_queue4_128x16(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, step_queue4); }

extern "C" const char *refuse_queue4_128x16(const struct problem *p)
{
    if (Quad<1>::SMEM > p->smem_optin) return "a ring of 4 shared planes does not fit in this GPU's shared memory";
    size_t xm, ym;
    queue4_extent(p, &xm, &ym);
    // the remainder's naive blocks: one z each, and at least 8 rows (a strip up to 32 wide)
    if (ceil_div(p->n[1], QUAD_H) > 65535 || ceil_div(p->n[2], queue4_chunk(p)) > 65535 ||
        ((xm < p->n[0] || ym < p->n[1]) && (p->n[2] > 65535 || ceil_div(p->n[1], 8) > 65535)))
        return "too many blocks along y or z for the grid (65535 at most)";
    return refuse_int(p);
}

// Per plane of a chunk the 128x16 tile and halos of whole quads (k rows of 128, 8 columns of 16),
// k more planes to fill the queue; u_prev and vsq once.
extern "C" void model_queue4_128x16(const struct problem *p, double *r, double *w)
{
    double n = QUAD_W, m = QUAD_H, k = 2 * WAVE_R, zc = queue4_chunk(p);
    *r = (n * m * (zc + k) + (k * n + 8 * m) * zc) / (n * m * zc) + 2;
    *w = 1;
}

// Before any timing: the weights, and the ring's shared memory (above 48 KB a kernel must opt in).
extern "C" void setup_kernels(const struct problem *p)
{
    wave_setup_weights();
    if (Quad<3>::SMEM <= p->smem_optin)
        CUDA_CHECK(cudaFuncSetAttribute(wave_queue4<3>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)Quad<3>::SMEM));
    if (Quad<1>::SMEM <= p->smem_optin)
        CUDA_CHECK(cudaFuncSetAttribute(wave_queue4<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)Quad<1>::SMEM));
}
