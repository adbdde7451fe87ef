// SPDX-License-Identifier: MIT
// Lab 5 (register_tiling), the kernels: keep the values a thread alone needs in registers (004), then
// generalize to order-k star stencils with 003's single pass along z: each thread owns a column
// of the output tile and keeps the k/2 planes behind and in front of the current one in a
// register queue; only the current plane, which neighbours share, goes to shared memory.
// Build and run: make lab5 && ./lab5 [--order K]     (make sol5 && ./sol5 for the solution)
// The problem (lab.c): ctx->in[0] is the input, ctx->out[0] the output; launch on ctx->stream.
// Rows are padded (lab.h): point (x, y, z) is element x + pitch * (y + ny * z), pitch = p->pitch,
// a multiple of 64 floats, so every row starts 256-byte aligned.
#include "quad.cuh"  // async.cuh too
#include "star.cuh"

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
        out[z * plane + col[p]] = v;
    }
    // TODO(student): shift the queue one plane forward (the newest value comes from pf), take
    // the next halo from hpf, and reissue both prefetches for the plane two steps ahead.
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

// ---- 4. queue4_128x16: the register queue with 16-byte quads ----
// The same single pass, cut down to fewer instructions and shared-memory loads per point: a
// thread owns a quad of 4 x points (float4) in PY adjacent rows, so one 16-byte shared load
// serves 4 points and the rows of a thread share their y neighbours. The output tile is 128x16
// at every order; what changes with the order is the register queue, 4 * PY * (2R + 2)
// registers (2R + 1 at order 12 when STAGED, below): up to order 8 a thread takes 4 rows (32x4
// threads), beyond that one row (32x16 threads).
//
// No __syncthreads in the loop: a barrier holds every warp of the block to the slowest one, once
// per plane, and then all of them want the shared-memory pipe at once. Instead the planes go
// round a ring of RING shared buffers, each with an mbarrier (a barrier object in shared memory
// whose arrive and wait are separate instructions). At plane z a thread stores its tile rows of
// plane z+1 (from its queue, which holds up to plane z+R) and arrives on that plane's barrier, then
// waits only until everyone has stored plane z; so a warp may run ahead of the slowest. The halo
// quads skip the registers: cp.async copies them AHEAD = 3 planes ahead, round a ring of AHEAD + 3
// = 6 buffers (the handout's question 5 asks why that many). Where 6 do not fit a block's shared
// memory (a GPU of 64 KB a block), the kernel copies the halo one plane ahead round a ring of 4:
// the same code with AHEAD = 1.
//
// At order 12 (STAGED) the queue's newest plane skips the registers too. A load into the queue
// stalls the thread at the end of the same plane, when the queue shifts and moves the register
// still waiting for memory. So cp.async copies the thread's own quads LEAD planes before they are
// needed into a small stage in shared memory, and the thread reads them from there: 7% faster at
// order 12 on an H200 (where the stage fits: 119 KB of shared memory a block; a GPU that gives a
// block less, 99 KB say, runs the kernel without it). Not below: at order 10 it measured 4.5%
// slower, at order 8 no faster, and at orders 2 and 4 the stage's shared memory costs a block per
// SM (7% slower).

constexpr int QUAD_W = 128, QUAD_H = 16;  // the output tile

template <int R, bool WITH_STAGE = false, int PLANES_AHEAD = 3>
struct Quad {
    static constexpr int AHEAD = PLANES_AHEAD, RING = AHEAD + 3;  // halo lead, shared planes
    static constexpr int LEAD = AHEAD - 1, STAGE = LEAD + 1;  // STAGED: own quads copied LEAD planes early; buffers
    static constexpr int BY = R <= 4 ? 4 : 16, PY = QUAD_H / BY;  // threads in y, rows per thread
    static constexpr int XQ = (R + 3) / 4, QW = 32 + 2 * XQ;       // halo quads each side, row in quads
    static constexpr int H = QUAD_H, ROWS = H + 2 * R, NT = 32 * BY;
    static constexpr int HALO = 2 * R * 32 + H * 2 * XQ, HS = (HALO + NT - 1) / NT;  // quads
    static constexpr bool STAGED = WITH_STAGE;
    static constexpr int Q = STAGED ? 2 * R + 1 : 2 * R + 2;  // planes z-R .. z+R (and z+R+1, in flight)
    static constexpr size_t SMEM = ((size_t)RING * ROWS * QW + (STAGED ? (size_t)STAGE * PY * NT : 0)) * sizeof(float4);
};

// The ring's split barriers and asynchronous copies are common/device/async.cuh's (mbar_*, async_*).

// The strips right of the last tile column and below the last tile row, when at most R wide (then
// queue4_extent leaves them out of the tiles), hold only points within R of a face: copies of the
// input, which the ring already holds as the last tiles' halo. Up to order 8 those tiles write them
// from the ring, a float4 a lane (STRIPS, below), and copy_box the corner, which no ring holds,
// after the loop (513^3 went from 0.93 to 0.96 of 512^3 at orders 2 and 8 on an H200, against
// copying the strips). Above order 8 an extra column and row of blocks past the tiles copy them
// (copy_box): there the same stores in the loop made order 12 20% slower in every grid with strips,
// and leaner ones still 2-5%, though they run in one block in 32 (the compiler's schedule of the
// whole loop, 512-thread blocks). copy_box copies quads x in [xa, xa + 4 nq) of rows [ya, yb) and
// planes [z0, z1), 8 quads a thread in flight at a time (a loop of load-then-store would wait for
// memory once a quad). Both write whole 32-byte sectors, the rest of each in the row's padding (the
// pitch a multiple of 32): a partial sector costs DRAM a read before its write.
constexpr int RING_STRIPS_MAX_R = 4;

template <int NT>
__device__ void copy_box(const float *__restrict__ in, float *__restrict__ out, int pitch, size_t plane, int xa, int nq,
                         int ya, int yb, int z0, int z1)
{
    constexpr int K = 8;
    const int t = threadIdx.y * 32 + threadIdx.x, h = yb - ya, n = nq * h * (z1 - z0);
    for (int i0 = t; i0 < n; i0 += K * NT) {
        size_t at[K];
        float4 v[K];
#pragma unroll
        for (int k = 0; k < K; k++) {
            const int i = i0 + k * NT, r = i / nq;
            at[k] = (size_t)(z0 + r / h) * plane + (size_t)(ya + r % h) * pitch + xa + 4 * (i % nq);
            if (i < n) v[k] = *(const float4 *)(in + at[k]);
        }
#pragma unroll
        for (int k = 0; k < K; k++)
            if (i0 + k * NT < n) *(float4 *)(out + at[k]) = v[k];
    }
}

// strips (STRIPS): the strips' widths, right | below << 4. An instantiation of its own, so that the
// kernel for grids without strips has none of their code (with it, order 12 lost 1% at 512^3).
template <int R, bool STAGED = false, bool STRIPS = false, int PLANES_AHEAD = 3>
__global__ void __launch_bounds__(Quad<R>::NT) star_queue4(const float *__restrict__ in, float *__restrict__ out,
                                                          int nx, int ny, int nz, int pitch, int zchunk, int strips)
{
    using C = Quad<R, STAGED, PLANES_AHEAD>;
    constexpr int PY = C::PY, QW = C::QW, XQ = C::XQ, HS = C::HS, Q = C::Q, PLANE = C::ROWS * QW;
    constexpr int RING = C::RING, AHEAD = C::AHEAD, LEAD = C::LEAD, STAGE = C::STAGE;
    extern __shared__ float4 ring[];  // RING planes of ROWS x QW quads, then (STAGED) the stage
    __shared__ unsigned long long full[RING];  // full[b]: every thread has stored its part of buffer b
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx;
    float4 *const stage = ring + RING * PLANE;  // STAGED: own row p of plane z0+R+j in slot j % STAGE
    auto staged = [stage, t](int j, int p) { return stage + ((j % STAGE) * PY + p) * C::NT + t; };
    const int x0 = blockIdx.x * QUAD_W, yb = blockIdx.y * C::H, x = x0 + 4 * tx, y0 = yb + ty * PY;
    const int z0 = blockIdx.z * zchunk, z1 = min(z0 + zchunk, nz);
    const size_t plane = (size_t)pitch * ny;
    // STRIPS, up to order 8: this block's tile is the last of its row (it writes the strip right of
    // it) or of its column (the strip below it); above, a block past the tiles copies them.
    constexpr bool RING_STRIPS = STRIPS && R <= RING_STRIPS_MAX_R;
    const int right = strips & 15, below = strips >> 4;
    if constexpr (STRIPS && !RING_STRIPS) {
        const int xm = nx - right, ym = ny - below;  // tiles: x < xm, y < ym
        const bool past_x = right && blockIdx.x == gridDim.x - 1, past_y = below && blockIdx.y == gridDim.y - 1;
        if (past_x || past_y) {  // a block past the tiles: the strips of its tile row (or column), then done
            const int xa = past_x ? xm : x0, nq = past_x ? 2 : min(32, ((nx - x0 + 3) / 4 + 1) & ~1);
            copy_box<C::NT>(in, out, pitch, plane, xa, nq, past_y ? ym : yb, past_y ? ny : min(yb + C::H, ym), z0, z1);
            return;
        }
    }
    const bool strip_x = RING_STRIPS && right && blockIdx.x == gridDim.x - 1;
    const bool strip_y = RING_STRIPS && below && blockIdx.y == gridDim.y - 1;
    if (t < RING) mbar_init(&full[t], C::NT);
    bool mine[PY], copy[PY][4];  // row p is in the grid; point j of row p is within R of a face
#pragma unroll
    for (int p = 0; p < PY; p++) {
        mine[p] = x < nx && y0 + p < ny;
#pragma unroll
        for (int j = 0; j < 4; j++)
            copy[p][j] = x + j < R || x + j >= nx - R || y0 + p < R || y0 + p >= ny - R;
    }
    // Halo quad h: first the R rows above and below the tile (2R rows of 32 quads), then XQ
    // quads left and right of each of its H rows. Quads outside the grid are never loaded:
    // only points that copy the input would read them (nor is the padding a quad may end in).
    int hslot[HS];
    const float *hp[HS];
    quad_halo<R, C>(t, x0, yb, nx, ny, pitch, plane, z0, in, hslot, hp);
    // q[p][i] = row y0+p at plane z-R+i; the queue is filled up to plane z0+R before the loop
    // (STAGED: to z0+R-1; plane z+R comes from the stage at plane z).
    const float *cin = in + (size_t)y0 * pitch + x + (size_t)(z0 - R) * plane;
    float4 q[PY][Q];
#pragma unroll
    for (int i = 0; i < Q - 1; i++, cin += plane)
#pragma unroll
        for (int p = 0; p < PY; p++)
            if (mine[p] && z0 - R + i >= 0 && z0 - R + i < nz) q[p][i] = *(const float4 *)(cin + p * pitch);
    const int zq = min(z1 + R, nz);  // the queue needs the planes before zq
    const int own = (R + ty * PY) * QW + XQ + tx;  // this thread's first quad in a plane
    __syncthreads();  // the barriers are initialised
    // Plane z goes to buffer (z - z0) % RING: its halo by cp.async AHEAD planes ahead, its tile
    // from the queue one plane ahead. The halos of the first AHEAD planes start before the loop;
    // STAGED, the group of each also holds own quads of plane z+R+LEAD for the plane z it stands
    // for (z0-AHEAD .. z0-1), so that one wait covers both.
    static_assert(LEAD == AHEAD - 1, "plane z's wait covers the halo of z+1 and own quads of z+R");
    for (int i = 0; i < AHEAD; i++) {
        if (z0 + i < z1)
            quad_copy_halo(ring + i * PLANE, hslot, hp, i * plane);
        if constexpr (C::STAGED) {
            const int j = i + LEAD - AHEAD, zs = z0 + R + j;  // cin is at plane z0+R
            if (j >= 0 && zs < zq)
#pragma unroll
                for (int p = 0; p < PY; p++)
                    if (mine[p]) async_copy16(staged(j, p), cin + j * plane + p * pitch);
        }
        async_commit();  // one group per plane, empty or not, so that async_landed counts planes
    }
#pragma unroll
    for (int k = 0; k < HS; k++) hp[k] += AHEAD * plane;
    if constexpr (C::STAGED) cin += LEAD * plane;  // own quads of plane z+R+LEAD
    async_landed<AHEAD - 1>();  // this thread's halo quads of plane z0 are in
#pragma unroll
    for (int p = 0; p < PY; p++) ring[own + p * QW] = q[p][R];
    mbar_arrive(&full[0]);
    float *o = out + (size_t)y0 * pitch + x + (size_t)z0 * plane;
#pragma unroll 1
    for (int z = z0; z < z1; z++, cin += plane, o += plane) {
        const int step = z - z0;
        // Issue the loads (STAGED: copies) for later planes first, then publish plane z+1, then
        // wait for plane z.
        if constexpr (!C::STAGED)
#pragma unroll
            for (int p = 0; p < PY; p++)
                if (mine[p] && z + 1 < z1 && z + R + 1 < nz) q[p][Q - 1] = *(const float4 *)(cin + p * pitch);
        if (z + AHEAD < z1) quad_copy_halo(ring + ((step + AHEAD) % RING) * PLANE, hslot, hp, 0);
        if constexpr (C::STAGED)
            if (z + R + LEAD < zq)
#pragma unroll
                for (int p = 0; p < PY; p++)
                    if (mine[p]) async_copy16(staged(step + LEAD, p), cin + p * pitch);
        async_commit();
#pragma unroll
        for (int k = 0; k < HS; k++) hp[k] += plane;
        if constexpr (C::STAGED) {
            async_landed<AHEAD - 1>();  // this thread's halo quads of plane z+1 and own quads of z+R are in
#pragma unroll
            for (int p = 0; p < PY; p++) q[p][Q - 1] = *staged(step, p);
        }
        if (z + 1 < z1) {
            float4 *next = ring + ((step + 1) % RING) * PLANE;
            if constexpr (!C::STAGED) async_landed<AHEAD - 1>();  // this thread's halo quads of plane z+1 are in
#pragma unroll
            for (int p = 0; p < PY; p++) next[own + p * QW] = q[p][R + 1];
            mbar_arrive(&full[(step + 1) % RING]);
        }
        mbar_wait(&full[step % RING], (step / RING) & 1);
        const float4 *c = ring + (step % RING) * PLANE + own;  // this thread's first quad of plane z
        if (z >= R && z < nz - R) {
            float4 rows[PY + 2 * R];  // rows y0-R .. y0+PY-1+R of this quad column
#pragma unroll
            for (int r = 0; r < PY + 2 * R; r++) rows[r] = r < R || r >= R + PY ? c[(r - R) * QW] : q[r - R][R];
#pragma unroll
            for (int p = 0; p < PY; p++) {
                float w[4 * (2 * XQ + 1)];  // x window: quads x-4XQ .. x+3+4XQ of row p
#pragma unroll
                for (int k = -XQ; k <= XQ; k++) {
                    float4 v = k == 0 ? q[p][R] : c[p * QW + k];
                    if ((k == XQ || k == -XQ) && R - 4 * (XQ - 1) <= 2) {  // 8 bytes suffice
                        float2 h = *(const float2 *)((const float *)(c + p * QW + k) + (k < 0 ? 2 : 0));
                        v = k < 0 ? make_float4(0.f, 0.f, h.x, h.y) : make_float4(h.x, h.y, 0.f, 0.f);
                    }
                    w[4 * (k + XQ) + 0] = v.x;
                    w[4 * (k + XQ) + 1] = v.y;
                    w[4 * (k + XQ) + 2] = v.z;
                    w[4 * (k + XQ) + 3] = v.w;
                }
                float v[4];
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const int m = 4 * XQ + j;  // the point in w
                    // TODO(student): v[j] = the input w[m] if copy[p][j], else the stencil:
                    // c_star[0]*w[m] + sum over i = 1..R of c_star[i] * (w[m-i] + w[m+i] + the
                    // y neighbours, component j of rows[R+p-i] and rows[R+p+i], + the z
                    // neighbours, component j of q[p][R-i] and q[p][R+i]).
                }
                if (mine[p]) *(float4 *)(o + p * pitch) = make_float4(v[0], v[1], v[2], v[3]);
            }
        } else {  // the first and last R planes copy the input
#pragma unroll
            for (int p = 0; p < PY; p++)
                if (mine[p]) *(float4 *)(o + p * pitch) = q[p][R];
        }
        if constexpr (RING_STRIPS) {
            // The right strip: lanes 2p and 2p + 1 of each warp write row p's sector, the quad at
            // xm = x0 + 128 and the next (the ring's, or padding); the strip below: warp r its row r.
            if (strip_x && tx < 2 * PY && y0 + tx / 2 < ny) {
                const int p = tx / 2, k = tx % 2;
                const bool in_grid = k < XQ && x0 + QUAD_W + 4 * k < nx;  // else padding
                const float4 v = in_grid ? c[p * QW + 32 + k - tx] : make_float4(0.f, 0.f, 0.f, 0.f);
                *(float4 *)(o + p * pitch + 4 * (32 + k - tx)) = v;
            }
            if (strip_y && ty < below && x < ((nx + 7) & ~7)) {
                const float4 v = x < nx ? c[(C::H + ty - ty * PY) * QW] : make_float4(0.f, 0.f, 0.f, 0.f);
                *(float4 *)(o + (size_t)(C::H + ty - ty * PY) * pitch) = v;
            }
        }
#pragma unroll
        for (int p = 0; p < PY; p++)
#pragma unroll
            for (int i = 0; i < Q - 1; i++) q[p][i] = q[p][i + 1];
    }
    if (strip_x && strip_y)  // the corner, right of the strip below
        copy_box<C::NT>(in, out, pitch, plane, nx - right, 2, ny - below, ny, z0, z1);
}

// ---- 4b. queue4's tail: a thin remainder of the grid, one point per thread ----
// A tile of queue4 costs the same whether it holds 128 x points or one: every warp of it runs
// the whole loop (at nx = 513 a fifth tile column would make the kernel 25% slower for 0.2%
// more points). So queue4 covers whole tiles, and the thin strips left over (at most TAIL_X
// columns on the right, TAIL_Y rows at the bottom) that its own blocks do not copy (wider than
// R) this kernel takes: the points with x >= xm (every y), then those with y >= ym and x < xm,
// counted x fastest, one per thread for every z, every neighbour a load (the strip is a fraction
// of a percent of the grid).

// The tail reads every neighbour (25 loads a point at order 8): it pays for a strip of a few
// columns only (measured at order 8, when it took the strips at most R wide too: 513^3 0.87 of
// 512^3 without it, 0.91 with it; 544x544x400 295 Gpts/s without it, 266 with a tail 32 wide).
// After the kernel, a strip one column wide still costs it a sector read and written per point.
constexpr int TAIL_X = 8, TAIL_Y = 4;

template <int R>
__global__ void __launch_bounds__(256) star_tail(const float *__restrict__ in, float *__restrict__ out, int nx, int ny,
                                                 int nz, int pitch, int xm, int ym)
{
    const size_t right = (size_t)(nx - xm) * ny, t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    int x, y;
    if (t < right) {
        x = xm + (int)(t % (size_t)(nx - xm)), y = (int)(t / (size_t)(nx - xm));
    } else {
        const size_t u = t - right;
        if (xm == 0 || u >= (size_t)xm * (ny - ym)) return;
        x = (int)(u % xm), y = ym + (int)(u / xm);
    }
    const size_t plane = (size_t)pitch * ny, sy = pitch;
    for (int z = blockIdx.y; z < nz; z += gridDim.y) {
        const size_t s = z * plane + y * sy + x;
        float v = in[s];
        if (!near_face(x, y, z, nx, ny, nz, R)) {
            v *= c_star[0];
#pragma unroll
            for (int i = 1; i <= R; i++)
                v += c_star[i] * (in[s - i] + in[s + i] + in[s - i * sy] + in[s + i * sy] + in[s - i * plane] + in[s + i * plane]);
        }
        out[s] = v;
    }
}

// The part of the grid queue4's tiles cover, x < *xm and y < *ym: whole tiles where the rest is a
// thin strip, else all of it (partial tiles at the edges). A strip at most R wide holds only points
// within R of a face, copies of the input, which the kernel writes (see copy_box's comment; nx =
// 513: column 512, row 512); a wider one, up to TAIL_X columns or TAIL_Y rows, goes to the tail. At
// order 2 only a strip 1 wide is left out, never one for the tail: there the kernel waits for
// DRAM more than it issues, a partial tile costs less and the tail's strip (uncoalesced, after
// the kernel) more than it saves.
static void queue4_extent(const struct problem *p, size_t *xm, size_t *ym)
{
    const size_t nx = p->n[0], ny = p->n[1], rx = nx % QUAD_W, ry = ny % QUAD_H, r = star_radius(p);
    const size_t wx = r > 1 ? TAIL_X : 1, wy = r > 1 ? TAIL_Y : 1;  // the widest strips left out
    *xm = nx >= QUAD_W && rx <= wx ? nx - rx : nx;
    *ym = ny >= QUAD_H && ry <= wy ? ny - ry : ny;
}

// The strips' widths, right | below << 4, where the kernel writes them (both at most R
// wide); 0 where there are none or the tail takes them.
static int queue4_strips(const struct problem *p, size_t xm, size_t ym)
{
    const size_t sx = p->n[0] - xm, sy = p->n[1] - ym, r = star_radius(p);
    return sx <= r && sy <= r ? (int)(sx | sy << 4) : 0;
}

// The kernel a launch of radius R runs: staged where the stage fits (order 12; Quad's comment), the
// strips' instantiation where the grid has strips (star_queue4's comment).
typedef void queue4_fn(const float *, float *, int, int, int, int, int, int);
struct queue4_kernel {
    queue4_fn *fn;
    size_t smem;
};

template <int R>
static struct queue4_kernel queue4_pick(const struct problem *p, bool strips)
{
    if constexpr (R > 5)
        if (Quad<R, true>::SMEM <= p->smem_optin)
            return {strips ? star_queue4<R, true, true> : star_queue4<R, true, false>, Quad<R, true>::SMEM};
    if (Quad<R>::SMEM <= p->smem_optin)
        return {strips ? star_queue4<R, false, true> : star_queue4<R, false, false>, Quad<R>::SMEM};
    // a GPU with less shared memory a block: the halo one plane ahead, a ring of 4
    return {strips ? star_queue4<R, false, true, 1> : star_queue4<R, false, false, 1>, Quad<R, false, 1>::SMEM};
}

// The blocks of that kernel one SM holds at once, from the occupancy calculator (registers, shared
// memory, threads). Its shared memory is allowed first: refuse_ asks before setup_kernels runs.
template <int R>
static int queue4_resident_r(const struct problem *p)
{
    size_t xm, ym;
    queue4_extent(p, &xm, &ym);
    const struct queue4_kernel k = queue4_pick<R>(p, queue4_strips(p, xm, ym) != 0);
    int n = 0;
    CUDA_CHECK(cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)k.smem));
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k.fn, Quad<R>::NT, k.smem));
    return n > 0 ? n : 1;
}

static int queue4_resident(const struct problem *p, int r)
{
    switch (r) {
    case 1: return queue4_resident_r<1>(p);
    case 2: return queue4_resident_r<2>(p);
    case 3: return queue4_resident_r<3>(p);
    case 4: return queue4_resident_r<4>(p);
    case 5: return queue4_resident_r<5>(p);
    default: return queue4_resident_r<6>(p);
    }
}

// z chunks: quad.cuh's wave model (quad_zchunk). The answer is kept for the next launch of the
// same problem: the occupancy calculator is asked once, and a long grid (nz = 10^5) would loop
// 10^4 times.
static int queue4_chunk(const struct problem *p, int r)
{
    const size_t nz = p->n[2], key[6] = {p->n[0], p->n[1], nz, (size_t)r, (size_t)p->sm_count, p->smem_optin};
    static size_t last[6], last_zc;  // the key of the last answer
    bool same = last_zc != 0;
    for (int i = 0; i < 6; i++) same = same && last[i] == key[i];
    if (same) return (int)last_zc;
    size_t xm, ym;
    queue4_extent(p, &xm, &ym);
    const size_t tiles = (size_t)ceil_div(xm, QUAD_W) * ceil_div(ym, QUAD_H);
    const size_t best = quad_zchunk(tiles, nz, (size_t)queue4_resident(p, r) * p->sm_count, r);
    for (int i = 0; i < 6; i++) last[i] = key[i];
    last_zc = best;
    return (int)best;
}

template <int R>
static void launch_queue4_r(const struct problem *p, const struct context *ctx)
{
    const int zc = queue4_chunk(p, R), nx = (int)p->n[0], ny = (int)p->n[1], nz = (int)p->n[2], pitch = (int)p->pitch;
    size_t xm, ym;
    queue4_extent(p, &xm, &ym);
    const int strips = queue4_strips(p, xm, ym);
    const bool past = strips && R > RING_STRIPS_MAX_R;  // a column and a row of blocks past the tiles copy them
    const dim3 grid(ceil_div(xm, QUAD_W) + (past && (strips & 15)), ceil_div(ym, QUAD_H) + (past && (strips >> 4)),
                    ceil_div(p->n[2], zc));
    const struct queue4_kernel k = queue4_pick<R>(p, strips != 0);
    k.fn<<<grid, dim3(32, Quad<R>::BY), k.smem, ctx->stream>>>(ctx->in[0], ctx->out[0], nx, ny, nz, pitch, zc, strips);
    size_t tail = (p->n[0] - xm) * p->n[1] + xm * (p->n[1] - ym);  // the points outside x < xm, y < ym
    if (tail && !strips)
        star_tail<R><<<dim3(ceil_div(tail, 256), (unsigned)(nz < 65535 ? nz : 65535)), 256, 0, ctx->stream>>>(
            ctx->in[0], ctx->out[0], nx, ny, nz, pitch, (int)xm, (int)ym);
}

extern "C" void launch_queue4_128x16(const struct problem *p, const struct context *ctx)
{
    switch (star_radius(p)) {  // the radius is a template parameter: the queue must be registers
    case 1: launch_queue4_r<1>(p, ctx); break;
    case 2: launch_queue4_r<2>(p, ctx); break;
    case 3: launch_queue4_r<3>(p, ctx); break;
    case 4: launch_queue4_r<4>(p, ctx); break;
    case 5: launch_queue4_r<5>(p, ctx); break;
    case 6: launch_queue4_r<6>(p, ctx); break;
    }
}

// The least shared memory queue4 runs with at radius r: a ring of 4 planes.
static size_t queue4_least_smem(int r)
{
    switch (r) {
    case 1: return Quad<1, false, 1>::SMEM;
    case 2: return Quad<2, false, 1>::SMEM;
    case 3: return Quad<3, false, 1>::SMEM;
    case 4: return Quad<4, false, 1>::SMEM;
    case 5: return Quad<5, false, 1>::SMEM;
    default: return Quad<6, false, 1>::SMEM;
    }
}

extern "C" const char *refuse_queue4_128x16(const struct problem *p)
{
    int r = star_radius(p);
    if (queue4_least_smem(r) > p->smem_optin) return "a ring of 4 shared planes does not fit in this GPU's shared memory";
    size_t xm, ym;  // the tail's grid needs no test: at most 8 ny + 4 nx points, 256 a block
    queue4_extent(p, &xm, &ym);
    const bool past_y = r > RING_STRIPS_MAX_R && (queue4_strips(p, xm, ym) >> 4);  // a row of blocks past the tiles
    return refuse_grid(p, ceil_div(ym, QUAD_H) + past_y, ceil_div(p->n[2], queue4_chunk(p, r)));
}

// What the kernel loads: per plane of its chunk the 128x16 tile and halos of whole quads (k rows
// of 128, 8*XQ columns of 16), and the tile for k more planes to fill the queue.
extern "C" void model_queue4_128x16(const struct problem *p, double *r, double *w)
{
    int rad = star_radius(p);
    double n = QUAD_W, m = QUAD_H, k = 2 * rad, xq = (rad + 3) / 4, zc = queue4_chunk(p, rad);
    *r = (n * m * (zc + k) + (k * n + 8 * xq * m) * zc) / (n * m * zc);
    *w = 1;
}

// 003's queue with its two tiles of Table 1.
extern "C" void launch_queue_16x16(const struct problem *p, const struct context *ctx) { launch_queue<16, 16, 1>(p, ctx); }
extern "C" const char *refuse_queue_16x16(const struct problem *p) { return refuse_queue<16, 16, 1>(p); }
extern "C" void model_queue_16x16(const struct problem *p, double *r, double *w) { redundancy_queue<16, 16, 1>(p, r, w); }
extern "C" void launch_queue_32x32(const struct problem *p, const struct context *ctx) { launch_queue<32, 16, 2>(p, ctx); }
extern "C" const char *refuse_queue_32x32(const struct problem *p) { return refuse_queue<32, 16, 2>(p); }
extern "C" void model_queue_32x32(const struct problem *p, double *r, double *w) { redundancy_queue<32, 16, 2>(p, r, w); }

// The shared memory of a kernel of queue4 (above 48 KB a kernel must opt in), where it fits.
template <int R, bool STAGED, int AHEAD = 3>
static void allow_smem(const struct problem *p)
{
    constexpr size_t smem = Quad<R, STAGED, AHEAD>::SMEM;
    if (smem > p->smem_optin) return;
    CUDA_CHECK(cudaFuncSetAttribute(star_queue4<R, STAGED, false, AHEAD>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CUDA_CHECK(cudaFuncSetAttribute(star_queue4<R, STAGED, true, AHEAD>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
}

// Before any timing: the weights, and every kernel's shared memory.
extern "C" void setup_kernels(const struct problem *p)
{
    star_setup(p);
    allow_smem<1, false>(p);
    allow_smem<2, false>(p);
    allow_smem<3, false>(p);
    allow_smem<4, false>(p);
    allow_smem<5, false>(p);
    allow_smem<6, false>(p);
    allow_smem<6, true>(p);  // the stage: order 12 only
    allow_smem<1, false, 1>(p);  // a ring of 4, for GPUs with less shared memory a block
    allow_smem<2, false, 1>(p);
    allow_smem<3, false, 1>(p);
    allow_smem<4, false, 1>(p);
    allow_smem<5, false, 1>(p);
    allow_smem<6, false, 1>(p);
}
