// SPDX-License-Identifier: MIT
// Lab 5 (register_tiling), the kernels: keep the values a thread alone needs in registers (004), then
// generalize to order-k star stencils with 003's single pass along z: each thread owns a column
// of the output tile and keeps the k/2 planes behind and in front of the current one in a
// register queue; only the current plane, which neighbours share, goes to shared memory.
// Build and run: make lab5 && ./lab5 [--order K]     (make sol5 && ./sol5 for the solution)
// The problem (lab.c): ctx->in[0] is the input, ctx->out[0] the output; launch on ctx->stream.
// Rows are padded (lab.h): point (x, y, z) is element x + pitch * (y + ny * z), pitch = p->pitch,
// a multiple of 64 floats, so every row starts 256-byte aligned.
#include "star.cuh"
#include "star_queue4.cuh"  // queue4_128x16, given: quad.cuh, async.cuh

// ---- 1. regtile_7pt: 004's register tiling of the 7-point stencil ----
// Like lab 4, but prev and next live in registers: only curr is shared.

constexpr int T = 32, OUT = T - 2, ZCHUNK = 32;

__global__ void __launch_bounds__(T * T) star7_regtile(const float *in, float *out, int nx, int ny, int nz, int pitch)
{
    __shared__ float curr_s[T][T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * OUT + tx - 1, y = blockIdx.y * OUT + ty - 1, z0 = blockIdx.z * ZCHUNK;
    const bool in_plane = x >= 0 && y >= 0 && x < nx && y < ny;
    const bool output = in_plane && tx >= 1 && ty >= 1 && tx <= OUT && ty <= OUT;
    const size_t sz = (size_t)pitch * ny, s0 = (size_t)y * pitch + x;
    float prev = 0, curr = 0, next = 0;
    if (in_plane && z0 >= 1) prev = in[(z0 - 1) * sz + s0];
    if (in_plane) curr = in[z0 * sz + s0];
    for (int z = z0; z < z0 + ZCHUNK && z < nz; z++) {
        // TODO(student): load next (plane z+1, if it exists) into a register, put curr in
        // curr_s, wait for the block, compute out at plane z with the x and y neighbours from
        // curr_s and prev/next from registers (the input on the faces), wait again (why?),
        // then shift the registers.
        // BEGIN SOLUTION
        if (in_plane && z + 1 < nz) next = in[(z + 1) * sz + s0];
        curr_s[ty][tx] = curr;
        __syncthreads();
        if (output) {
            size_t s = z * sz + s0;
            if (near_face(x, y, z, nx, ny, nz, 1))
                out[s] = curr;
            else
                out[s] = c_star[0] * curr + c_star[1] * (curr_s[ty][tx - 1] + curr_s[ty][tx + 1] +
                                                         curr_s[ty - 1][tx] + curr_s[ty + 1][tx] + prev + next);
        }
        __syncthreads();  // the next iteration overwrites curr_s
        prev = curr;
        curr = next;
        // END SOLUTION
    }
}

extern "C" void launch_regtile_7pt(const struct problem *p, const struct context *ctx)
{
    dim3 block(T, T), grid(ceil_div(p->n[0], OUT), ceil_div(p->n[1], OUT), ceil_div(p->n[2], ZCHUNK));
    star7_regtile<<<grid, block, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], (int)p->n[0], (int)p->n[1], (int)p->n[2],
                                                   (int)p->pitch);
}

extern "C" const char *refuse_regtile_7pt(const struct problem *p)
{
    if (p->order != 2) return "regtile_7pt is the 7-point stencil (--order 2)";
    return refuse_grid(p, ceil_div(p->n[1], OUT), ceil_div(p->n[2], ZCHUNK));
}

extern "C" void model_regtile_7pt(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = (double)(T * T) * (ZCHUNK + 2) / ((double)OUT * OUT * ZCHUNK);
    *w = 1;
}

// ---- 2. regcol_z8: registers without shared memory ----
// Each thread computes ZP consecutive z points of one column and keeps the column (planes
// z0-1 .. z0+ZP) in registers; the x and y neighbours are plain loads from global memory. No
// shared memory, no barrier.

template <int ZP>
__global__ void __launch_bounds__(256) star7_regcol(const float *__restrict__ in, float *__restrict__ out,
                                                    int nx, int ny, int nz, int pitch)
{
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y, z0 = blockIdx.z * ZP;
    if (x >= nx || y >= ny) return;
    const size_t plane = (size_t)pitch * ny, sy = pitch;
    const float *c = in + (size_t)y * pitch + x;
    float *o = out + (size_t)y * pitch + x;
    const bool face_xy = x == 0 || y == 0 || x == nx - 1 || y == ny - 1;
    float col[ZP + 2];  // planes z0-1 .. z0+ZP of this column
#pragma unroll
    for (int i = 0; i < ZP + 2; i++) {
        int z = z0 - 1 + i;
        col[i] = z >= 0 && z < nz ? c[z * plane] : 0.f;
    }
#pragma unroll
    for (int i = 1; i <= ZP; i++) {
        const int z = z0 + i - 1;
        if (z >= nz) break;
        const size_t s = z * plane;
        // TODO(student): o[s] = the input on the faces, else the stencil with the z neighbours
        // from col[] and the x and y neighbours loaded from c[s +- 1] and c[s +- sy].
        // BEGIN SOLUTION
        // The L1 and L2 caches serve the x and y neighbours (lab 2 measured how well). No barrier,
        // and every load is independent of the others, so a thread has dozens of loads in
        // flight: on an H100 that matters more than saving cache reads.
        if (face_xy || z == 0 || z == nz - 1)
            o[s] = col[i];
        else
            o[s] = c_star[0] * col[i] +
                   c_star[1] * (c[s - 1] + c[s + 1] + c[s - sy] + c[s + sy] + col[i - 1] + col[i + 1]);
        // END SOLUTION
    }
}

constexpr int ZP = 8;

extern "C" void launch_regcol_z8(const struct problem *p, const struct context *ctx)
{
    dim3 block(32, 8), grid(ceil_div(p->n[0], 32), ceil_div(p->n[1], 8), ceil_div(p->n[2], ZP));
    star7_regcol<ZP><<<grid, block, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], (int)p->n[0], (int)p->n[1], (int)p->n[2],
                                                      (int)p->pitch);
}

extern "C" const char *refuse_regcol_z8(const struct problem *p)
{
    if (p->order != 2) return "regcol_z8 is the 7-point stencil (--order 2)";
    return refuse_grid(p, ceil_div(p->n[1], 8), ceil_div(p->n[2], ZP));
}

// Model: the column is read once per ZP+2 planes; the four in-plane neighbours of every point
// are separate loads.
extern "C" void model_regcol_z8(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = 4 + (double)(ZP + 2) / ZP;
    *w = 1;
}

// ---- 2b. regcol4_z4: the same with four x points per thread, float4 loads and stores ----
// A thread's quad is four x points of one row, x a multiple of 4: with rows padded to 64 floats
// every quad is a 16-byte aligned float4, whatever nx. The last quad of a row may hold fewer
// than 4 points; the rest of it is padding, which is read but never used, and written (the
// output's padding is free).

template <int ZP>
__global__ void __launch_bounds__(256) star7_regcol4(const float *__restrict__ in, float *__restrict__ out,
                                                     int nx, int ny, int nz, int pitch)
{
    const int x = 4 * (blockIdx.x * 32 + threadIdx.x), y = blockIdx.y * 8 + threadIdx.y, z0 = blockIdx.z * ZP;
    if (x >= nx || y >= ny) return;
    const int n = min(4, nx - x);  // the quad's points in the row
    const size_t plane = (size_t)pitch * ny, sy = pitch;
    const float *c = in + (size_t)y * pitch + x;
    float *o = out + (size_t)y * pitch + x;
    float4 col[ZP + 2];
#pragma unroll
    for (int i = 0; i < ZP + 2; i++) {
        int z = z0 - 1 + i;
        col[i] = z >= 0 && z < nz ? *(const float4 *)(c + z * plane) : make_float4(0, 0, 0, 0);
    }
    const float c0 = c_star[0], c1 = c_star[1];
#pragma unroll
    for (int i = 1; i <= ZP; i++) {
        const int z = z0 + i - 1;
        if (z >= nz) break;
        const size_t s = z * plane;
        float4 v = col[i];  // the faces copy the input
        // TODO(student): unless y or z is on a face, load the y neighbours as two quads (float4)
        // and the outer x neighbours c[s - 1], c[s + 4] as scalars, and compute the quad's
        // points that are not on an x face (x + j > 0 and x + j < nx - 1).
        // BEGIN SOLUTION
        if (y > 0 && y < ny - 1 && z > 0 && z < nz - 1) {
            const float4 a = *(const float4 *)(c + s - sy), b = *(const float4 *)(c + s + sy);
            const float4 m = col[i], d = col[i - 1], u = col[i + 1];
            const float left = x > 0 ? c[s - 1] : 0.f, right = x + 4 < nx ? c[s + 4] : 0.f;
            // x + j < nx - 1 is j < n - 1: with n = 4 only the last point may be on the face
            if (x > 0 && n > 1) v.x = c0 * m.x + c1 * (left + m.y + a.x + b.x + d.x + u.x);
            if (n > 2) v.y = c0 * m.y + c1 * (m.x + m.z + a.y + b.y + d.y + u.y);
            if (n > 3) v.z = c0 * m.z + c1 * (m.y + m.w + a.z + b.z + d.z + u.z);
            if (x + 4 < nx) v.w = c0 * m.w + c1 * (m.z + right + a.w + b.w + d.w + u.w);
        }
        // END SOLUTION
        *(float4 *)(o + s) = v;
    }
}

constexpr int ZP4 = 4;

extern "C" void launch_regcol4_z4(const struct problem *p, const struct context *ctx)
{
    // A block of the last column may hold a single x point; its idle threads leave at once, so
    // it costs less than star_tail would (measured: 0.96 of 512^3 at 513^3 this way, 0.91 with
    // the tail, on an H200).
    dim3 block(32, 8), grid(ceil_div(p->n[0], 128), ceil_div(p->n[1], 8), ceil_div(p->n[2], ZP4));
    star7_regcol4<ZP4><<<grid, block, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], (int)p->n[0], (int)p->n[1], (int)p->n[2],
                                                        (int)p->pitch);
}

extern "C" const char *refuse_regcol4_z4(const struct problem *p)
{
    if (p->order != 2) return "regcol4_z4 is the 7-point stencil (--order 2)";
    return refuse_grid(p, ceil_div(p->n[1], 8), ceil_div(p->n[2], ZP4));
}

extern "C" void model_regcol4_z4(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = 2 + 2.0 / 4 + (double)(ZP4 + 2) / ZP4;  // y: 2 per point, x: 2 per quad, z: the column
    *w = 1;
}

// ---- 3. queue: order-k star stencils, 003's single pass with a register queue ----
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

// queue4_128x16: given code (star_queue4.cuh), measured beside the kernels above.
extern "C" void launch_queue4_128x16(const struct problem *p, const struct context *ctx) { queue4_launch(p, ctx); }
extern "C" const char *refuse_queue4_128x16(const struct problem *p) { return queue4_refuse(p); }
extern "C" void model_queue4_128x16(const struct problem *p, double *r, double *w) { queue4_model(p, r, w); }

// Before any timing: the weights, and queue4's shared memory.
extern "C" void setup_kernels(const struct problem *p)
{
    star_setup(p);
    queue4_setup(p);
}
