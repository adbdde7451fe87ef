// SPDX-License-Identifier: MIT
// Lab 5b (register_queue), the kernels: order-k star stencils with 003's single pass along z:
// each thread owns a column of the output tile and keeps the k/2 planes behind and in front of
// the current one in a register queue; only the current plane, which neighbours share, goes to
// shared memory. queue4_128x16, the fastest, is given (common/device/star_queue4.cuh).
// Build and run: make lab5b && ./lab5b [--order K]     (make sol5b && ./sol5b for the solution)
// The problem (lab.c): ctx->in[0] is the input, ctx->out[0] the output; launch on ctx->stream.
// Rows are padded (lab.h): point (x, y, z) is element x + pitch * (y + ny * z), pitch = p->pitch,
// a multiple of 64 floats, so every row starts 256-byte aligned.
#include "star.cuh"
#include "star_queue4.cuh"  // queue4_128x16, given: quad.cuh, async.cuh

// ---- 1. queue: order-k star stencils, 003's single pass with a register queue ----
// Output tile TX x (TY*PY); TX x TY threads, each owning PY columns (PY rows apart by TY).
// At plane z, q[p][i] holds the thread's column p at plane z-R+i (the queue). The current plane
// of the tile and its halo of R on each side go to shared memory; halo values are loaded by
// all threads in turn. Loads are issued two planes ahead (pf_a, pf_b), so that a thread always
// has several loads in flight and never waits for the one it just issued: the z loop is
// unrolled by two, each half consuming the prefetch the other half does not touch.

template <int R, int TX, int TY, int PY>
struct Tile {
    static constexpr int NT = TX * TY, H = TY * PY;
    static constexpr int SW = TX == 16 ? 48 : TX + 2 * R;  // rows 16 banks apart for 16-wide tiles
    static constexpr int HALO = 2 * R * (TX + H);          // halo values per plane
    static constexpr int HS = (HALO + NT - 1) / NT;        // halo values per thread
};

template <int R, int TX, int TY, int PY>
struct Column {  // what one thread carries from plane to plane
    float q[PY][2 * R + 1];
    float halo[Tile<R, TX, TY, PY>::HS];
};

// One plane: publish the current plane, compute, shift the queue, and reissue the prefetch that
// was just consumed two planes ahead.
template <int R, int TX, int TY, int PY>
__device__ __forceinline__ void queue_step(
    const float *__restrict__ in, float *__restrict__ out, float *s, Column<R, TX, TY, PY> &c,
    float (&pf)[PY], float (&hpf)[Tile<R, TX, TY, PY>::HS], const size_t (&col)[PY],
    const bool (&col_ok)[PY], const int (&hidx)[Tile<R, TX, TY, PY>::HS],
    const size_t (&hoff)[Tile<R, TX, TY, PY>::HS], int x, const int (&ys)[PY], int z, int nx,
    int ny, int nz, size_t plane)
{
    using Tl = Tile<R, TX, TY, PY>;
    const int tx = threadIdx.x, ty = threadIdx.y;
    __syncthreads();  // every thread is done reading the previous plane
#pragma unroll
    for (int p = 0; p < PY; p++) s[(ty + p * TY + R) * Tl::SW + tx + R] = c.q[p][R];
#pragma unroll
    for (int k = 0; k < Tl::HS; k++)
        if (hidx[k] >= 0) s[hidx[k]] = c.halo[k];
    __syncthreads();
#pragma unroll
    for (int p = 0; p < PY; p++) {
        if (!col_ok[p]) continue;
        const float *centre = s + (ty + p * TY + R) * Tl::SW + tx + R;
        float v;
        // TODO(student): v = the input on the faces (within R of any face of the grid), else
        // c_star[0]*centre + sum over i = 1..R of c_star[i] * (the 4 in-plane neighbours at
        // distance i from shared memory + the 2 out-of-plane ones from the queue).
        // BEGIN SOLUTION
        if (near_face(x, ys[p], z, nx, ny, nz, R)) {
            v = c.q[p][R];
        } else {
            v = c_star[0] * c.q[p][R];
#pragma unroll
            for (int i = 1; i <= R; i++)
                v += c_star[i] * (centre[-i] + centre[i] + centre[-i * Tl::SW] + centre[i * Tl::SW] +
                                  c.q[p][R - i] + c.q[p][R + i]);
        }
        // END SOLUTION
        out[z * plane + col[p]] = v;
    }
    // TODO(student): shift the queue one plane forward (the newest value comes from pf), take
    // the next halo from hpf, and reissue both prefetches for the plane two steps ahead.
    // BEGIN SOLUTION
#pragma unroll
    for (int p = 0; p < PY; p++) {
#pragma unroll
        for (int i = 0; i < 2 * R; i++) c.q[p][i] = c.q[p][i + 1];
        c.q[p][2 * R] = pf[p];
        int zz = z + R + 3;
        pf[p] = col_ok[p] && zz < nz ? in[zz * plane + col[p]] : 0.f;
    }
#pragma unroll
    for (int k = 0; k < Tl::HS; k++) {
        c.halo[k] = hpf[k];
        hpf[k] = hidx[k] >= 0 && z + 3 < nz ? in[(z + 3) * plane + hoff[k]] : 0.f;
    }
    // END SOLUTION
}

template <int R, int TX, int TY, int PY>
__global__ void __launch_bounds__(TX *TY)
    star_queue(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz, int pitch, int zchunk)
{
    using Tl = Tile<R, TX, TY, PY>;
    __shared__ float s[(Tl::H + 2 * R) * Tl::SW];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * TX + tx;
    const int x0 = blockIdx.x * TX, y0 = blockIdx.y * Tl::H, x = x0 + tx;
    const int z0 = blockIdx.z * zchunk, z1 = min(z0 + zchunk, nz);
    const size_t plane = (size_t)pitch * ny;

    int ys[PY];
    bool col_ok[PY];
    size_t col[PY];
#pragma unroll
    for (int p = 0; p < PY; p++) {
        ys[p] = y0 + ty + p * TY;
        col_ok[p] = x < nx && ys[p] < ny;
        col[p] = col_ok[p] ? (size_t)ys[p] * pitch + x : 0;
    }
    // Halo value h: first the R rows above and below the tile (2R rows of TX), then the R
    // columns left and right of it (H rows of 2R). Values outside the grid are never used
    // (points within R of a face copy the input), so they are not loaded (hidx = -1).
    int hidx[Tl::HS];
    size_t hoff[Tl::HS];
#pragma unroll
    for (int k = 0; k < Tl::HS; k++) {
        int h = t + k * Tl::NT, row, colx;  // position in the (H + 2R) x (TX + 2R) tile
        if (h < 2 * R * TX) {
            int r = h / TX;
            row = r < R ? r : Tl::H + r;
            colx = R + h % TX;
        } else {
            int g = h - 2 * R * TX, kk = g % (2 * R);
            row = R + g / (2 * R);
            colx = kk < R ? kk : TX + kk;
        }
        int gx = x0 + colx - R, gy = y0 + row - R;
        bool ok = h < Tl::HALO && gx >= 0 && gy >= 0 && gx < nx && gy < ny;
        hidx[k] = ok ? row * Tl::SW + colx : -1;
        hoff[k] = ok ? (size_t)gy * pitch + gx : 0;
    }

    Column<R, TX, TY, PY> c;
    float pf_a[PY], pf_b[PY], h_a[Tl::HS], h_b[Tl::HS];
#pragma unroll
    for (int p = 0; p < PY; p++) {
#pragma unroll
        for (int i = 0; i <= 2 * R; i++) {
            int zz = z0 - R + i;
            c.q[p][i] = col_ok[p] && zz >= 0 && zz < nz ? in[zz * plane + col[p]] : 0.f;
        }
        int za = z0 + R + 1, zb = z0 + R + 2;
        pf_a[p] = col_ok[p] && za < nz ? in[za * plane + col[p]] : 0.f;
        pf_b[p] = col_ok[p] && zb < nz ? in[zb * plane + col[p]] : 0.f;
    }
#pragma unroll
    for (int k = 0; k < Tl::HS; k++) {
        bool ok = hidx[k] >= 0;
        c.halo[k] = ok ? in[z0 * plane + hoff[k]] : 0.f;
        h_a[k] = ok && z0 + 1 < nz ? in[(z0 + 1) * plane + hoff[k]] : 0.f;
        h_b[k] = ok && z0 + 2 < nz ? in[(z0 + 2) * plane + hoff[k]] : 0.f;
    }
    for (int z = z0; z < z1; z += 2) {
        queue_step<R, TX, TY, PY>(in, out, s, c, pf_a, h_a, col, col_ok, hidx, hoff, x, ys, z, nx, ny, nz, plane);
        if (z + 1 < z1)
            queue_step<R, TX, TY, PY>(in, out, s, c, pf_b, h_b, col, col_ok, hidx, hoff, x, ys, z + 1, nx, ny, nz, plane);
    }
}

// Enough z chunks for about per_sm blocks per SM, never chunks shorter than 4R planes (each
// chunk re-reads 2R planes to fill its queue).
static int zchunk(const struct problem *p, size_t tiles, int r, int per_sm)
{
    size_t want = per_sm * (size_t)p->sm_count, chunks = (want + tiles - 1) / tiles;
    size_t zc = (p->n[2] + chunks - 1) / chunks, min_zc = 4 * (size_t)r;
    if (zc < min_zc) zc = min_zc;
    return (int)(zc < p->n[2] ? zc : p->n[2]);
}

template <int TX, int TY, int PY>
static void launch_queue(const struct problem *p, const struct context *ctx)
{
    size_t tiles = (size_t)ceil_div(p->n[0], TX) * ceil_div(p->n[1], TY * PY);
    int r = star_radius(p), zc = zchunk(p, tiles, r, 16);
    dim3 block(TX, TY), grid(ceil_div(p->n[0], TX), ceil_div(p->n[1], TY * PY), ceil_div(p->n[2], zc));
    const int nx = (int)p->n[0], ny = (int)p->n[1], nz = (int)p->n[2], pitch = (int)p->pitch;
    switch (r) {  // the radius is a template parameter: the queue must be registers
    case 1: star_queue<1, TX, TY, PY><<<grid, block, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], nx, ny, nz, pitch, zc); break;
    case 2: star_queue<2, TX, TY, PY><<<grid, block, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], nx, ny, nz, pitch, zc); break;
    case 3: star_queue<3, TX, TY, PY><<<grid, block, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], nx, ny, nz, pitch, zc); break;
    case 4: star_queue<4, TX, TY, PY><<<grid, block, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], nx, ny, nz, pitch, zc); break;
    case 5: star_queue<5, TX, TY, PY><<<grid, block, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], nx, ny, nz, pitch, zc); break;
    case 6: star_queue<6, TX, TY, PY><<<grid, block, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], nx, ny, nz, pitch, zc); break;
    }
}

template <int TX, int TY, int PY>
static const char *refuse_queue(const struct problem *p)
{
    size_t tiles = (size_t)ceil_div(p->n[0], TX) * ceil_div(p->n[1], TY * PY);
    return refuse_grid(p, ceil_div(p->n[1], TY * PY), ceil_div(p->n[2], zchunk(p, tiles, star_radius(p), 16)));
}

// 003's model: an n x m output tile reads (n*m + k*n + k*m) values per plane (tile and four
// halos of k/2), and each z chunk reads k extra planes to fill its queue.
template <int TX, int TY, int PY>
static void redundancy_queue(const struct problem *p, double *r, double *w)
{
    double n = TX, m = TY * PY, k = p->order;
    size_t tiles = (size_t)ceil_div(p->n[0], TX) * ceil_div(p->n[1], TY * PY);
    double zc = zchunk(p, tiles, star_radius(p), 16);
    *r = (n * m + k * n + k * m) / (n * m) * (zc + k) / zc;
    *w = 1;
}

// 003's queue with its two tiles of Table 1.
extern "C" void launch_queue_16x16(const struct problem *p, const struct context *ctx) { launch_queue<16, 16, 1>(p, ctx); }
extern "C" const char *refuse_queue_16x16(const struct problem *p) { return refuse_queue<16, 16, 1>(p); }
extern "C" void model_queue_16x16(const struct problem *p, double *r, double *w) { redundancy_queue<16, 16, 1>(p, r, w); }
extern "C" void launch_queue_32x32(const struct problem *p, const struct context *ctx) { launch_queue<32, 16, 2>(p, ctx); }
extern "C" const char *refuse_queue_32x32(const struct problem *p) { return refuse_queue<32, 16, 2>(p); }
extern "C" void model_queue_32x32(const struct problem *p, double *r, double *w) { redundancy_queue<32, 16, 2>(p, r, w); }

// ---- 2. queue4_128x16: given code (star_queue4.cuh), measured beside the kernels above ----
extern "C" void launch_queue4_128x16(const struct problem *p, const struct context *ctx) { queue4_launch(p, ctx); }
extern "C" const char *refuse_queue4_128x16(const struct problem *p) { return queue4_refuse(p); }
extern "C" void model_queue4_128x16(const struct problem *p, double *r, double *w) { queue4_model(p, r, w); }

// Before any timing: the weights, and queue4's shared memory.
extern "C" void setup_kernels(const struct problem *p)
{
    star_setup(p);
    queue4_setup(p);
}
