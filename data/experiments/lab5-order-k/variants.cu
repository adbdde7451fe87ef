// SPDX-License-Identifier: MIT
// Lab 5 (register_tiling): keep the values a thread alone needs in registers (004), then
// generalize to order-k star stencils with 003's single pass along z: each thread owns a column
// of the output tile and keeps the k/2 planes behind and in front of the current one in a
// register queue; only the current plane, which neighbours share, goes to shared memory.
// Build and run: make lab5 && ./lab5 [--order K]     (make sol5 && ./sol5 for the solution)
#include "star.cuh"

// ---- 1. regtile_7pt: 004's register tiling of the 7-point stencil ----
// Like lab 4, but prev and next live in registers: only curr is shared.

constexpr int T = 32, OUT = T - 2, ZCHUNK = 32;

__global__ void __launch_bounds__(T * T) star7_regtile(const float *in, float *out, int nx, int ny, int nz)
{
    __shared__ float curr_s[T][T];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * OUT + tx - 1, y = blockIdx.y * OUT + ty - 1, z0 = blockIdx.z * ZCHUNK;
    const bool in_plane = x >= 0 && y >= 0 && x < nx && y < ny;
    const bool output = in_plane && tx >= 1 && ty >= 1 && tx <= OUT && ty <= OUT;
    const size_t sz = (size_t)nx * ny, s0 = (size_t)y * nx + x;
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

static void launch_regtile(const struct problem *p, const struct grids *g)
{
    dim3 block(T, T), grid(ceil_div(p->n[0], OUT), ceil_div(p->n[1], OUT), ceil_div(p->n[2], ZCHUNK));
    star7_regtile<<<grid, block>>>(g->in, g->out, (int)p->n[0], (int)p->n[1], (int)p->n[2]);
}

static const char *refuse_regtile(const struct problem *p)
{
    if (p->order != 2) return "regtile_7pt is the 7-point stencil (--order 2)";
    return refuse_grid(p, ceil_div(p->n[1], OUT), ceil_div(p->n[2], ZCHUNK));
}

static void redundancy_regtile(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = (double)(T * T) * (ZCHUNK + 2) / ((double)OUT * OUT * ZCHUNK);
    *w = 1;
}

// ---- 2. regcol_z8: registers without shared memory ----
// Each thread computes ZP consecutive z points of one column and keeps the column (planes
// z0-1 .. z0+ZP) in registers; the x and y neighbours are plain loads that the L1 and L2 caches
// serve (lab 2 measured how well). No barrier, and every load is independent of the others, so
// a thread has dozens of loads in flight: on an H100 that matters more than saving cache reads.

template <int ZP>
__global__ void __launch_bounds__(256) star7_regcol(const float *__restrict__ in, float *__restrict__ out,
                                                    int nx, int ny, int nz)
{
    const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y, z0 = blockIdx.z * ZP;
    if (x >= nx || y >= ny) return;
    const size_t plane = (size_t)nx * ny, sy = nx;
    const float *c = in + (size_t)y * nx + x;
    float *o = out + (size_t)y * nx + x;
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
        if (face_xy || z == 0 || z == nz - 1)
            o[s] = col[i];
        else
            o[s] = c_star[0] * col[i] +
                   c_star[1] * (c[s - 1] + c[s + 1] + c[s - sy] + c[s + sy] + col[i - 1] + col[i + 1]);
        // END SOLUTION
    }
}

constexpr int ZP = 8;

static void launch_regcol(const struct problem *p, const struct grids *g)
{
    dim3 block(32, 8), grid(ceil_div(p->n[0], 32), ceil_div(p->n[1], 8), ceil_div(p->n[2], ZP));
    star7_regcol<ZP><<<grid, block>>>(g->in, g->out, (int)p->n[0], (int)p->n[1], (int)p->n[2]);
}

static const char *refuse_regcol(const struct problem *p)
{
    if (p->order != 2) return "regcol_z8 is the 7-point stencil (--order 2)";
    return refuse_grid(p, ceil_div(p->n[1], 8), ceil_div(p->n[2], ZP));
}

// Model: the column is read once per ZP+2 planes; the four in-plane neighbours of every point
// are separate loads.
static void redundancy_regcol(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = 4 + (double)(ZP + 2) / ZP;
    *w = 1;
}

// ---- 2b. regcol4_z4: the same with four x points per thread, float4 loads and stores ----
// A quad of four x points never straddles a row when nx is a multiple of 4, and then every
// float4 is 16-byte aligned; other sizes are refused (the scalar regcol_z8 runs them).

template <int ZP>
__global__ void __launch_bounds__(256) star7_regcol4(const float *__restrict__ in, float *__restrict__ out,
                                                     int nx, int ny, int nz)
{
    const int x = 4 * (blockIdx.x * 32 + threadIdx.x), y = blockIdx.y * 8 + threadIdx.y, z0 = blockIdx.z * ZP;
    if (x >= nx || y >= ny) return;
    const size_t plane = (size_t)nx * ny, sy = nx;
    const float *c = in + (size_t)y * nx + x;
    float *o = out + (size_t)y * nx + x;
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
        // TODO(student): unless y or z is on a face, load the y neighbours as two float4 and
        // the outer x neighbours c[s - 1], c[s + 4] as scalars, and compute the four points
        // (the first and last x of the grid stay copies).
        // BEGIN SOLUTION
        if (y > 0 && y < ny - 1 && z > 0 && z < nz - 1) {
            const float4 a = *(const float4 *)(c + s - sy), b = *(const float4 *)(c + s + sy);
            const float4 m = col[i], d = col[i - 1], u = col[i + 1];
            const float left = x > 0 ? c[s - 1] : 0.f, right = x + 4 < nx ? c[s + 4] : 0.f;
            if (x > 0) v.x = c0 * m.x + c1 * (left + m.y + a.x + b.x + d.x + u.x);
            v.y = c0 * m.y + c1 * (m.x + m.z + a.y + b.y + d.y + u.y);
            v.z = c0 * m.z + c1 * (m.y + m.w + a.z + b.z + d.z + u.z);
            if (x + 4 < nx) v.w = c0 * m.w + c1 * (m.z + right + a.w + b.w + d.w + u.w);
        }
        // END SOLUTION
        *(float4 *)(o + s) = v;
    }
}

constexpr int ZP4 = 4;

static void launch_regcol4(const struct problem *p, const struct grids *g)
{
    dim3 block(32, 8), grid(ceil_div(p->n[0], 128), ceil_div(p->n[1], 8), ceil_div(p->n[2], ZP4));
    star7_regcol4<ZP4><<<grid, block>>>(g->in, g->out, (int)p->n[0], (int)p->n[1], (int)p->n[2]);
}

static const char *refuse_regcol4(const struct problem *p)
{
    if (p->order != 2) return "regcol4_z4 is the 7-point stencil (--order 2)";
    if (p->n[0] % 4) return "nx must be a multiple of 4 (float4 rows)";
    return refuse_grid(p, ceil_div(p->n[1], 8), ceil_div(p->n[2], ZP4));
}

static void redundancy_regcol4(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = 2 + 2.0 / 4 + (double)(ZP4 + 2) / ZP4;  // y: 2 per point, x: 2 per quad, z: the column
    *w = 1;
}

// ---- 3. queue: order-k star stencils, 003's single pass with a register queue ----
// Output tile TX x (TY*PY); TX x TY threads, each owning PY columns (PY rows apart by TY).
// Per plane z a thread holds q[p][0..2R] = its column at planes z-R .. z+R. The current plane
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
    star_queue(const float *__restrict__ in, float *__restrict__ out, int nx, int ny, int nz, int zchunk)
{
    using Tl = Tile<R, TX, TY, PY>;
    __shared__ float s[(Tl::H + 2 * R) * Tl::SW];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * TX + tx;
    const int x0 = blockIdx.x * TX, y0 = blockIdx.y * Tl::H, x = x0 + tx;
    const int z0 = blockIdx.z * zchunk, z1 = min(z0 + zchunk, nz);
    const size_t plane = (size_t)nx * ny;

    int ys[PY];
    bool col_ok[PY];
    size_t col[PY];
#pragma unroll
    for (int p = 0; p < PY; p++) {
        ys[p] = y0 + ty + p * TY;
        col_ok[p] = x < nx && ys[p] < ny;
        col[p] = col_ok[p] ? (size_t)ys[p] * nx + x : 0;
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
        hoff[k] = ok ? (size_t)gy * nx + gx : 0;
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

// Enough z chunks for about 16 blocks per SM, never chunks shorter than 4R planes (each chunk
// re-reads 2R planes to fill its queue).
static int zchunk(const struct problem *p, size_t tiles, int r)
{
    size_t want = 16 * (size_t)p->sm_count, chunks = (want + tiles - 1) / tiles;
    size_t zc = (p->n[2] + chunks - 1) / chunks, min_zc = 4 * (size_t)r;
    if (zc < min_zc) zc = min_zc;
    return (int)(zc < p->n[2] ? zc : p->n[2]);
}

template <int TX, int TY, int PY>
static void launch_queue(const struct problem *p, const struct grids *g)
{
    size_t tiles = (size_t)ceil_div(p->n[0], TX) * ceil_div(p->n[1], TY * PY);
    int r = star_radius(p), zc = zchunk(p, tiles, r);
    dim3 block(TX, TY), grid(ceil_div(p->n[0], TX), ceil_div(p->n[1], TY * PY), ceil_div(p->n[2], zc));
    const int nx = (int)p->n[0], ny = (int)p->n[1], nz = (int)p->n[2];
    switch (r) {  // the radius is a template parameter: the queue must be registers
    case 1: star_queue<1, TX, TY, PY><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 2: star_queue<2, TX, TY, PY><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 3: star_queue<3, TX, TY, PY><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 4: star_queue<4, TX, TY, PY><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 5: star_queue<5, TX, TY, PY><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 6: star_queue<6, TX, TY, PY><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    }
}

template <int TX, int TY, int PY>
static const char *refuse_queue(const struct problem *p)
{
    size_t tiles = (size_t)ceil_div(p->n[0], TX) * ceil_div(p->n[1], TY * PY);
    return refuse_grid(p, ceil_div(p->n[1], TY * PY), ceil_div(p->n[2], zchunk(p, tiles, star_radius(p))));
}

// 003's model: an n x m output tile reads (n*m + k*n + k*m) values per plane (tile and four
// halos of k/2), and each z chunk reads k extra planes to fill its queue.
template <int TX, int TY, int PY>
static void redundancy_queue(const struct problem *p, double *r, double *w)
{
    double n = TX, m = TY * PY, k = p->order;
    size_t tiles = (size_t)ceil_div(p->n[0], TX) * ceil_div(p->n[1], TY * PY);
    double zc = zchunk(p, tiles, star_radius(p));
    *r = (n * m + k * n + k * m) / (n * m) * (zc + k) / zc;
    *w = 1;
}

// ---- 4. colq: order-k stencil, float4 columns with the z queue in registers, no shared memory ----
template <int R, int BY, int PY, int D>
__global__ void __launch_bounds__(32 * BY) star_colq(const float *__restrict__ in, float *__restrict__ out,
                                                     int nx, int ny, int nz, int zchunk)
{
    constexpr int XQ = (R + 3) / 4, Q = 2 * R + 1 + D, W = 4 * (2 * XQ + 1);
    const int x = 4 * (blockIdx.x * 32 + threadIdx.x), y0 = (blockIdx.y * BY + threadIdx.y) * PY;
    const int z0 = blockIdx.z * zchunk, z1 = min(z0 + zchunk, nz);
    if (x >= nx || y0 >= ny) return;
    const size_t plane = (size_t)nx * ny;
    const float *c = in + (size_t)y0 * nx + x;
    float *o = out + (size_t)y0 * nx + x;
    bool row_in[PY + 2 * R], row_out[PY];  // window row exists; own row is interior in y
#pragma unroll
    for (int r = 0; r < PY + 2 * R; r++) row_in[r] = y0 - R + r >= 0 && y0 - R + r < ny;
#pragma unroll
    for (int p = 0; p < PY; p++) row_out[p] = y0 + p >= R && y0 + p < ny - R;
    bool edge[4];
#pragma unroll
    for (int j = 0; j < 4; j++) edge[j] = x + j < R || x + j >= nx - R;

    float4 q[PY][Q];  // q[p][i] = row y0+p at plane z-R+i
#pragma unroll
    for (int p = 0; p < PY; p++)
#pragma unroll
        for (int i = 0; i < Q - 1; i++) {
            int zz = z0 - R + i;
            q[p][i] = row_in[R + p] && zz >= 0 && zz < nz ? *(const float4 *)(c + p * nx + zz * plane)
                                                           : make_float4(0, 0, 0, 0);
        }
    for (int z = z0; z < z1; z++) {
        const int zn = z + R + D;
        const size_t s = z * plane;
#pragma unroll
        for (int p = 0; p < PY; p++)
            q[p][Q - 1] = row_in[R + p] && zn < nz ? *(const float4 *)(c + p * nx + zn * plane)
                                                    : make_float4(0, 0, 0, 0);
        if (z >= R && z < nz - R) {
            float4 rw[PY + 2 * R];
#pragma unroll
            for (int r = 0; r < PY + 2 * R; r++)
                if (r < R || r >= R + PY)
                    rw[r] = row_in[r] ? *(const float4 *)(c + s + (r - R) * nx) : make_float4(0, 0, 0, 0);
                else
                    rw[r] = q[r - R][R];
#pragma unroll
            for (int p = 0; p < PY; p++) {
                float w[W];
#pragma unroll
                for (int k = -XQ; k <= XQ; k++) {
                    float4 v = k == 0 ? q[p][R]
                             : x + 4 * k >= 0 && x + 4 * k < nx ? *(const float4 *)(c + s + p * nx + 4 * k)
                                                                : make_float4(0, 0, 0, 0);
                    w[4 * (k + XQ) + 0] = v.x; w[4 * (k + XQ) + 1] = v.y;
                    w[4 * (k + XQ) + 2] = v.z; w[4 * (k + XQ) + 3] = v.w;
                }
                float res[4];
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const int m = 4 * XQ + j;
                    float v = c_star[0] * w[m];
#pragma unroll
                    for (int i = 1; i <= R; i++) {
                        const float *a = (const float *)&rw[R + p - i], *b = (const float *)&rw[R + p + i];
                        const float *d = (const float *)&q[p][R - i], *u = (const float *)&q[p][R + i];
                        v += c_star[i] * (w[m - i] + w[m + i] + a[j] + b[j] + d[j] + u[j]);
                    }
                    res[j] = edge[j] || !row_out[p] ? w[m] : v;
                }
                if (y0 + p < ny) *(float4 *)(o + s + p * nx) = make_float4(res[0], res[1], res[2], res[3]);
            }
        } else {
#pragma unroll
            for (int p = 0; p < PY; p++)
                if (y0 + p < ny) *(float4 *)(o + s + p * nx) = q[p][R];
        }
#pragma unroll
        for (int p = 0; p < PY; p++)
#pragma unroll
            for (int i = 0; i < Q - 1; i++) q[p][i] = q[p][i + 1];
    }
}

// z chunks: about `per_sm` blocks per SM, never shorter than 4R planes.
static int zchunk_n(const struct problem *p, size_t tiles, int r, int per_sm)
{
    size_t want = per_sm * (size_t)p->sm_count, chunks = (want + tiles - 1) / tiles;
    size_t zc = (p->n[2] + chunks - 1) / chunks, min_zc = 4 * (size_t)r;
    if (zc < min_zc) zc = min_zc;
    return (int)(zc < p->n[2] ? zc : p->n[2]);
}

template <int BY, int PY, int D, int PERSM>
static void launch_colq(const struct problem *p, const struct grids *g)
{
    size_t tiles = (size_t)ceil_div(p->n[0], 128) * ceil_div(p->n[1], BY * PY);
    int r = star_radius(p), zc = zchunk_n(p, tiles, r, PERSM);
    dim3 block(32, BY), grid(ceil_div(p->n[0], 128), ceil_div(p->n[1], BY * PY), ceil_div(p->n[2], zc));
    const int nx = (int)p->n[0], ny = (int)p->n[1], nz = (int)p->n[2];
    switch (r) {
    case 1: star_colq<1, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 2: star_colq<2, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 3: star_colq<3, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 4: star_colq<4, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 5: star_colq<5, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 6: star_colq<6, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    }
}

template <int BY, int PY, int D, int PERSM>
static const char *refuse_colq(const struct problem *p)
{
    if (p->n[0] % 4) return "nx must be a multiple of 4 (float4 rows)";
    size_t tiles = (size_t)ceil_div(p->n[0], 128) * ceil_div(p->n[1], BY * PY);
    return refuse_grid(p, ceil_div(p->n[1], BY * PY), ceil_div(p->n[2], zchunk_n(p, tiles, star_radius(p), PERSM)));
}

// v2: no zeroing, no clamping: in the interior-z path every neighbour address lies inside the
// array (it wraps into the next row or plane), and such values only feed points that copy.
template <int R, int BY, int PY, int D, int U>
__global__ void __launch_bounds__(32 * BY) star_colq2(const float *__restrict__ in, float *__restrict__ out,
                                                      int nx, int ny, int nz, int zchunk)
{
    constexpr int XQ = (R + 3) / 4, Q = 2 * R + 1 + D, W = 4 * (2 * XQ + 1);
    const int x = 4 * (blockIdx.x * 32 + threadIdx.x), y0 = (blockIdx.y * BY + threadIdx.y) * PY;
    const int z0 = blockIdx.z * zchunk, z1 = min(z0 + zchunk, nz);
    if (x >= nx || y0 >= ny) return;
    const size_t plane = (size_t)nx * ny;
    bool copy[PY][4], store[PY];
#pragma unroll
    for (int p = 0; p < PY; p++) {
        store[p] = y0 + p < ny;
#pragma unroll
        for (int j = 0; j < 4; j++)
            copy[p][j] = x + j < R || x + j >= nx - R || y0 + p < R || y0 + p >= ny - R;
    }
    const float *c = in + (size_t)y0 * nx + x + (size_t)(z0 - R) * plane;  // plane z0 - R
    float *o = out + (size_t)y0 * nx + x + (size_t)z0 * plane;
    float4 q[PY][Q];
#pragma unroll
    for (int p = 0; p < PY; p++)
#pragma unroll
        for (int i = 0; i < Q - 1; i++) {
            int zz = z0 - R + i;
            if (store[p] && zz >= 0 && zz < nz) q[p][i] = *(const float4 *)(c + p * nx + i * plane);
        }
    const float *cn = c + (Q - 1) * plane;  // the plane the next load brings
    const float *cz = c + R * plane;        // plane z
#pragma unroll U
    for (int z = z0; z < z1; z++) {
#pragma unroll
        for (int p = 0; p < PY; p++)
            if (store[p] && z + R + D < nz) q[p][Q - 1] = *(const float4 *)(cn + p * nx);
        if (z >= R && z < nz - R) {
            float4 rw[PY + 2 * R];
#pragma unroll
            for (int r = 0; r < PY + 2 * R; r++)
                rw[r] = r < R || r >= R + PY ? *(const float4 *)(cz + (r - R) * nx) : q[r - R][R];
#pragma unroll
            for (int p = 0; p < PY; p++) {
                float w[W];
#pragma unroll
                for (int k = -XQ; k <= XQ; k++) {
                    float4 v = k == 0 ? q[p][R] : *(const float4 *)(cz + p * nx + 4 * k);
                    w[4 * (k + XQ) + 0] = v.x; w[4 * (k + XQ) + 1] = v.y;
                    w[4 * (k + XQ) + 2] = v.z; w[4 * (k + XQ) + 3] = v.w;
                }
                float res[4];
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const int m = 4 * XQ + j;
                    float v = c_star[0] * w[m];
#pragma unroll
                    for (int i = 1; i <= R; i++) {
                        const float *a = (const float *)&rw[R + p - i], *b = (const float *)&rw[R + p + i];
                        const float *d = (const float *)&q[p][R - i], *u = (const float *)&q[p][R + i];
                        v += c_star[i] * (w[m - i] + w[m + i] + a[j] + b[j] + d[j] + u[j]);
                    }
                    res[j] = copy[p][j] ? w[m] : v;
                }
                if (store[p]) *(float4 *)(o + p * nx) = make_float4(res[0], res[1], res[2], res[3]);
            }
        } else {
#pragma unroll
            for (int p = 0; p < PY; p++)
                if (store[p]) *(float4 *)(o + p * nx) = q[p][R];
        }
#pragma unroll
        for (int p = 0; p < PY; p++)
#pragma unroll
            for (int i = 0; i < Q - 1; i++) q[p][i] = q[p][i + 1];
        cn += plane;
        cz += plane;
        o += plane;
    }
}

template <int BY, int PY, int D, int PERSM, int U>
static void launch_colq2(const struct problem *p, const struct grids *g)
{
    size_t tiles = (size_t)ceil_div(p->n[0], 128) * ceil_div(p->n[1], BY * PY);
    int r = star_radius(p), zc = zchunk_n(p, tiles, r, PERSM);
    dim3 block(32, BY), grid(ceil_div(p->n[0], 128), ceil_div(p->n[1], BY * PY), ceil_div(p->n[2], zc));
    const int nx = (int)p->n[0], ny = (int)p->n[1], nz = (int)p->n[2];
    switch (r) {
    case 1: star_colq2<1, BY, PY, D, U><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 2: star_colq2<2, BY, PY, D, U><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 3: star_colq2<3, BY, PY, D, U><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 4: star_colq2<4, BY, PY, D, U><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 5: star_colq2<5, BY, PY, D, U><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 6: star_colq2<6, BY, PY, D, U><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    }
}

// v3: 003's design with float4: the plane in shared memory (double buffered, one barrier per
// plane), the z queue in registers, loads issued D planes ahead.
template <int R, int BY, int D, int U>
__global__ void __launch_bounds__(32 * BY) star_q4(const float *__restrict__ in, float *__restrict__ out,
                                                   int nx, int ny, int nz, int zchunk)
{
    constexpr int XQ = (R + 3) / 4, QW = 32 + 2 * XQ, ROWS = BY + 2 * R, NT = 32 * BY;
    constexpr int HALO = 2 * R * 32 + BY * 2 * XQ, HS = (HALO + NT - 1) / NT, Q = 2 * R + 1 + D;
    __shared__ float4 s[2][ROWS][QW];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx;
    const int x0 = blockIdx.x * 128, y0 = blockIdx.y * BY, x = x0 + 4 * tx, y = y0 + ty;
    const int z0 = blockIdx.z * zchunk, z1 = min(z0 + zchunk, nz);
    const size_t plane = (size_t)nx * ny;
    const bool mine = x < nx && y < ny;
    bool copy[4];
#pragma unroll
    for (int j = 0; j < 4; j++) copy[j] = x + j < R || x + j >= nx - R || y < R || y >= ny - R;
    int hslot[HS];
    size_t hoff[HS];
#pragma unroll
    for (int k = 0; k < HS; k++) {
        int h = t + k * NT, row, col;
        if (h < 2 * R * 32) {
            int r = h / 32;
            row = r < R ? r : BY + r;
            col = XQ + h % 32;
        } else {
            int g = h - 2 * R * 32, kk = g % (2 * XQ);
            row = R + g / (2 * XQ);
            col = kk < XQ ? kk : 32 + kk;
        }
        int gx = x0 + 4 * (col - XQ), gy = y0 + row - R;
        bool ok = h < HALO && gx >= 0 && gy >= 0 && gx < nx && gy < ny;
        hslot[k] = ok ? row * QW + col : -1;
        hoff[k] = ok ? (size_t)gy * nx + gx : 0;
    }
    const float *cin = in + (size_t)y * nx + x;
    float4 q[Q], hq[D + 1][HS];
#pragma unroll
    for (int i = 0; i < Q - 1; i++) {
        int zz = z0 - R + i;
        if (mine && zz >= 0 && zz < nz) q[i] = *(const float4 *)(cin + zz * plane);
    }
#pragma unroll
    for (int d = 0; d < D; d++)
#pragma unroll
        for (int k = 0; k < HS; k++)
            if (hslot[k] >= 0 && z0 + d < nz) hq[d][k] = *(const float4 *)(in + hoff[k] + (z0 + d) * plane);
    float4 *sb = &s[0][0][0];
#pragma unroll U
    for (int z = z0; z < z1; z++) {
        if (mine && z + R + D < nz) q[Q - 1] = *(const float4 *)(cin + (z + R + D) * plane);
#pragma unroll
        for (int k = 0; k < HS; k++)
            if (hslot[k] >= 0 && z + D < nz) hq[D][k] = *(const float4 *)(in + hoff[k] + (z + D) * plane);
        float4 *c = sb + (R + ty) * QW + XQ + tx;
        *c = q[R];
#pragma unroll
        for (int k = 0; k < HS; k++)
            if (hslot[k] >= 0) sb[hslot[k]] = hq[0][k];
        __syncthreads();
        if (mine) {
            float4 res = q[R];
            if (z >= R && z < nz - R) {
                float w[4 * (2 * XQ + 1)];
#pragma unroll
                for (int k = -XQ; k <= XQ; k++) {
                    float4 v = k == 0 ? q[R] : c[k];
                    w[4 * (k + XQ) + 0] = v.x; w[4 * (k + XQ) + 1] = v.y;
                    w[4 * (k + XQ) + 2] = v.z; w[4 * (k + XQ) + 3] = v.w;
                }
                float4 a[R], b[R];
#pragma unroll
                for (int i = 1; i <= R; i++) { a[i - 1] = c[-i * QW]; b[i - 1] = c[i * QW]; }
                float v[4];
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const int m = 4 * XQ + j;
                    v[j] = c_star[0] * w[m];
#pragma unroll
                    for (int i = 1; i <= R; i++) {
                        const float *pa = (const float *)&a[i - 1], *pb = (const float *)&b[i - 1];
                        const float *pd = (const float *)&q[R - i], *pu = (const float *)&q[R + i];
                        v[j] += c_star[i] * (w[m - i] + w[m + i] + pa[j] + pb[j] + pd[j] + pu[j]);
                    }
                }
                res = make_float4(copy[0] ? res.x : v[0], copy[1] ? res.y : v[1], copy[2] ? res.z : v[2],
                                  copy[3] ? res.w : v[3]);
            }
            *(float4 *)(out + (size_t)y * nx + x + z * plane) = res;
        }
#pragma unroll
        for (int i = 0; i < Q - 1; i++) q[i] = q[i + 1];
#pragma unroll
        for (int d = 0; d < D; d++)
#pragma unroll
            for (int k = 0; k < HS; k++) hq[d][k] = hq[d + 1][k];
        sb = sb == &s[0][0][0] ? &s[1][0][0] : &s[0][0][0];
    }
}

template <int BY, int D, int PERSM, int U>
static void launch_q4(const struct problem *p, const struct grids *g)
{
    size_t tiles = (size_t)ceil_div(p->n[0], 128) * ceil_div(p->n[1], BY);
    int r = star_radius(p), zc = zchunk_n(p, tiles, r, PERSM);
    dim3 block(32, BY), grid(ceil_div(p->n[0], 128), ceil_div(p->n[1], BY), ceil_div(p->n[2], zc));
    const int nx = (int)p->n[0], ny = (int)p->n[1], nz = (int)p->n[2];
    switch (r) {
    case 1: star_q4<1, BY, D, U><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 2: star_q4<2, BY, D, U><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 3: star_q4<3, BY, D, U><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 4: star_q4<4, BY, D, U><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 5: star_q4<5, BY, D, U><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 6: star_q4<6, BY, D, U><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    }
}

// v4: v3 with PY adjacent rows per thread (y neighbours shared), pointer increments.
template <int R, int BY, int PY, int D>
__global__ void __launch_bounds__(32 * BY) star_q4b(const float *__restrict__ in, float *__restrict__ out,
                                                    int nx, int ny, int nz, int zchunk)
{
    constexpr int XQ = (R + 3) / 4, QW = 32 + 2 * XQ, H = BY * PY, ROWS = H + 2 * R, NT = 32 * BY;
    constexpr int HALO = 2 * R * 32 + H * 2 * XQ, HS = (HALO + NT - 1) / NT, Q = 2 * R + 1 + D;
    __shared__ float4 s[2][ROWS][QW];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx;
    const int x0 = blockIdx.x * 128, yb = blockIdx.y * H, x = x0 + 4 * tx, y0 = yb + ty * PY;
    const int z0 = blockIdx.z * zchunk, z1 = min(z0 + zchunk, nz);
    const size_t plane = (size_t)nx * ny;
    bool mine[PY], copy[PY][4];
#pragma unroll
    for (int p = 0; p < PY; p++) {
        mine[p] = x < nx && y0 + p < ny;
#pragma unroll
        for (int j = 0; j < 4; j++)
            copy[p][j] = x + j < R || x + j >= nx - R || y0 + p < R || y0 + p >= ny - R;
    }
    int hslot[HS];
    const float *hp[HS];
#pragma unroll
    for (int k = 0; k < HS; k++) {
        int h = t + k * NT, row, col;
        if (h < 2 * R * 32) {
            int r = h / 32;
            row = r < R ? r : H + r;
            col = XQ + h % 32;
        } else {
            int g = h - 2 * R * 32, kk = g % (2 * XQ);
            row = R + g / (2 * XQ);
            col = kk < XQ ? kk : 32 + kk;
        }
        int gx = x0 + 4 * (col - XQ), gy = yb + row - R;
        bool ok = h < HALO && gx >= 0 && gy >= 0 && gx < nx && gy < ny;
        hslot[k] = ok ? row * QW + col : -1;
        hp[k] = in + (ok ? (size_t)gy * nx + gx + (size_t)z0 * plane : 0);
    }
    const float *cin = in + (size_t)y0 * nx + x + (size_t)(z0 - R) * plane;
    float4 q[PY][Q], hq[D + 1][HS];
#pragma unroll
    for (int i = 0; i < Q - 1; i++) {
        int zz = z0 - R + i;
#pragma unroll
        for (int p = 0; p < PY; p++)
            if (mine[p] && zz >= 0 && zz < nz) q[p][i] = *(const float4 *)(cin + p * nx);
        cin += plane;
    }
#pragma unroll
    for (int d = 0; d < D; d++)
#pragma unroll
        for (int k = 0; k < HS; k++) {
            if (hslot[k] >= 0 && z0 + d < nz) hq[d][k] = *(const float4 *)hp[k];
            hp[k] += plane;
        }
    float *o = out + (size_t)y0 * nx + x + (size_t)z0 * plane;
    float4 *sb = &s[0][0][0];
#pragma unroll 1
    for (int z = z0; z < z1; z++) {
#pragma unroll
        for (int p = 0; p < PY; p++)
            if (mine[p] && z + R + D < nz) q[p][Q - 1] = *(const float4 *)(cin + p * nx);
        cin += plane;
#pragma unroll
        for (int k = 0; k < HS; k++) {
            if (hslot[k] >= 0 && z + D < nz) hq[D][k] = *(const float4 *)hp[k];
            hp[k] += plane;
        }
        float4 *c = sb + (R + ty * PY) * QW + XQ + tx;
#pragma unroll
        for (int p = 0; p < PY; p++) c[p * QW] = q[p][R];
#pragma unroll
        for (int k = 0; k < HS; k++)
            if (hslot[k] >= 0) sb[hslot[k]] = hq[0][k];
        __syncthreads();
        if (z >= R && z < nz - R) {
            float4 rw[PY + 2 * R];
#pragma unroll
            for (int r = 0; r < PY + 2 * R; r++) rw[r] = r < R || r >= R + PY ? c[(r - R) * QW] : q[r - R][R];
#pragma unroll
            for (int p = 0; p < PY; p++) {
                float w[4 * (2 * XQ + 1)];
#pragma unroll
                for (int k = -XQ; k <= XQ; k++) {
                    float4 v;
                    if (k == 0)
                        v = q[p][R];
                    else if ((k == XQ || k == -XQ) && R - 4 * (XQ - 1) <= 2) {  // two floats suffice
                        if (k < 0) {
                            float2 h = *(const float2 *)((const float *)(c + p * QW + k) + 2);
                            v = make_float4(0.f, 0.f, h.x, h.y);
                        } else {
                            float2 h = *(const float2 *)(c + p * QW + k);
                            v = make_float4(h.x, h.y, 0.f, 0.f);
                        }
                    } else
                        v = c[p * QW + k];
                    w[4 * (k + XQ) + 0] = v.x; w[4 * (k + XQ) + 1] = v.y;
                    w[4 * (k + XQ) + 2] = v.z; w[4 * (k + XQ) + 3] = v.w;
                }
                float v[4];
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const int m = 4 * XQ + j;
                    v[j] = c_star[0] * w[m];
#pragma unroll
                    for (int i = 1; i <= R; i++) {
                        const float *pa = (const float *)&rw[R + p - i], *pb = (const float *)&rw[R + p + i];
                        const float *pd = (const float *)&q[p][R - i], *pu = (const float *)&q[p][R + i];
                        v[j] += c_star[i] * (w[m - i] + w[m + i] + pa[j] + pb[j] + pd[j] + pu[j]);
                    }
                    v[j] = copy[p][j] ? w[m] : v[j];
                }
                if (mine[p]) *(float4 *)(o + p * nx) = make_float4(v[0], v[1], v[2], v[3]);
            }
        } else {
#pragma unroll
            for (int p = 0; p < PY; p++)
                if (mine[p]) *(float4 *)(o + p * nx) = q[p][R];
        }
        o += plane;
#pragma unroll
        for (int p = 0; p < PY; p++)
#pragma unroll
            for (int i = 0; i < Q - 1; i++) q[p][i] = q[p][i + 1];
#pragma unroll
        for (int d = 0; d < D; d++)
#pragma unroll
            for (int k = 0; k < HS; k++) hq[d][k] = hq[d + 1][k];
        sb = sb == &s[0][0][0] ? &s[1][0][0] : &s[0][0][0];
    }
}

template <int BY, int PY, int D, int PERSM>
static void launch_q4b(const struct problem *p, const struct grids *g)
{
    size_t tiles = (size_t)ceil_div(p->n[0], 128) * ceil_div(p->n[1], BY * PY);
    int r = star_radius(p), zc = zchunk_n(p, tiles, r, PERSM);
    dim3 block(32, BY), grid(ceil_div(p->n[0], 128), ceil_div(p->n[1], BY * PY), ceil_div(p->n[2], zc));
    const int nx = (int)p->n[0], ny = (int)p->n[1], nz = (int)p->n[2];
    switch (r) {
    case 1: star_q4b<1, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 2: star_q4b<2, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 3: star_q4b<3, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 4: star_q4b<4, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 5: star_q4b<5, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 6: star_q4b<6, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    }
}

// v5: v4 with the queue rotated by renaming: the z loop is unrolled by the queue length Q, so
// slot (ph + i) % Q is a compile-time register and no value moves. D odd so that the halo
// prefetch ring (D + 1) and the two shared buffers divide Q = 2R + D + 1.
template <int R, int BY, int PY, int D>
__global__ void __launch_bounds__(32 * BY) star_q4r(const float *__restrict__ in, float *__restrict__ out,
                                                    int nx, int ny, int nz, int zchunk)
{
    constexpr int XQ = (R + 3) / 4, QW = 32 + 2 * XQ, H = BY * PY, ROWS = H + 2 * R, NT = 32 * BY;
    constexpr int HALO = 2 * R * 32 + H * 2 * XQ, HS = (HALO + NT - 1) / NT, Q = 2 * R + 1 + D;
    static_assert(Q % (D + 1) == 0 && Q % 2 == 0, "the rings must divide the queue");
    __shared__ float4 s[2][ROWS][QW];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx;
    const int x0 = blockIdx.x * 128, yb = blockIdx.y * H, x = x0 + 4 * tx, y0 = yb + ty * PY;
    const int z0 = blockIdx.z * zchunk, z1 = min(z0 + zchunk, nz);
    const size_t plane = (size_t)nx * ny;
    bool mine[PY], copy[PY][4];
#pragma unroll
    for (int p = 0; p < PY; p++) {
        mine[p] = x < nx && y0 + p < ny;
#pragma unroll
        for (int j = 0; j < 4; j++)
            copy[p][j] = x + j < R || x + j >= nx - R || y0 + p < R || y0 + p >= ny - R;
    }
    int hslot[HS];
    const float *hp[HS];
#pragma unroll
    for (int k = 0; k < HS; k++) {
        int h = t + k * NT, row, col;
        if (h < 2 * R * 32) {
            int r = h / 32;
            row = r < R ? r : H + r;
            col = XQ + h % 32;
        } else {
            int g = h - 2 * R * 32, kk = g % (2 * XQ);
            row = R + g / (2 * XQ);
            col = kk < XQ ? kk : 32 + kk;
        }
        int gx = x0 + 4 * (col - XQ), gy = yb + row - R;
        bool ok = h < HALO && gx >= 0 && gy >= 0 && gx < nx && gy < ny;
        hslot[k] = ok ? row * QW + col : -1;
        hp[k] = in + (ok ? (size_t)gy * nx + gx + (size_t)z0 * plane : 0);
    }
    const float *cin = in + (size_t)y0 * nx + x + (size_t)(z0 - R) * plane;
    float4 q[PY][Q], hq[D + 1][HS];
#pragma unroll
    for (int i = 0; i < Q - 1; i++) {
        int zz = z0 - R + i;
#pragma unroll
        for (int p = 0; p < PY; p++)
            if (mine[p] && zz >= 0 && zz < nz) q[p][i] = *(const float4 *)(cin + p * nx);
        cin += plane;
    }
#pragma unroll
    for (int d = 0; d < D; d++)
#pragma unroll
        for (int k = 0; k < HS; k++) {
            if (hslot[k] >= 0 && z0 + d < nz) hq[d][k] = *(const float4 *)hp[k];
            hp[k] += plane;
        }
    float *o = out + (size_t)y0 * nx + x + (size_t)z0 * plane;
#pragma unroll 1
    for (int zb = z0; zb < z1; zb += Q) {
#pragma unroll
        for (int ph = 0; ph < Q; ph++) {
            const int z = zb + ph;
            if (z >= z1) break;
#define QS(p, i) q[p][(ph + (i)) % Q]
#define HQ(d, k) hq[(ph + (d)) % (D + 1)][k]
#pragma unroll
            for (int p = 0; p < PY; p++)
                if (mine[p] && z + R + D < nz) QS(p, Q - 1) = *(const float4 *)(cin + p * nx);
            cin += plane;
#pragma unroll
            for (int k = 0; k < HS; k++) {
                if (hslot[k] >= 0 && z + D < nz) HQ(D, k) = *(const float4 *)hp[k];
                hp[k] += plane;
            }
            float4 *sb = &s[ph % 2][0][0], *c = sb + (R + ty * PY) * QW + XQ + tx;
#pragma unroll
            for (int p = 0; p < PY; p++) c[p * QW] = QS(p, R);
#pragma unroll
            for (int k = 0; k < HS; k++)
                if (hslot[k] >= 0) sb[hslot[k]] = HQ(0, k);
            __syncthreads();
            if (z >= R && z < nz - R) {
                float4 rw[PY + 2 * R];
#pragma unroll
                for (int r = 0; r < PY + 2 * R; r++) rw[r] = r < R || r >= R + PY ? c[(r - R) * QW] : QS(r - R, R);
#pragma unroll
                for (int p = 0; p < PY; p++) {
                    float w[4 * (2 * XQ + 1)];
#pragma unroll
                    for (int k = -XQ; k <= XQ; k++) {
                        float4 v = k == 0 ? QS(p, R) : c[p * QW + k];
                        w[4 * (k + XQ) + 0] = v.x; w[4 * (k + XQ) + 1] = v.y;
                        w[4 * (k + XQ) + 2] = v.z; w[4 * (k + XQ) + 3] = v.w;
                    }
                    float v[4];
#pragma unroll
                    for (int j = 0; j < 4; j++) {
                        const int m = 4 * XQ + j;
                        v[j] = c_star[0] * w[m];
#pragma unroll
                        for (int i = 1; i <= R; i++) {
                            const float *pa = (const float *)&rw[R + p - i], *pb = (const float *)&rw[R + p + i];
                            const float *pd = (const float *)&QS(p, R - i), *pu = (const float *)&QS(p, R + i);
                            v[j] += c_star[i] * (w[m - i] + w[m + i] + pa[j] + pb[j] + pd[j] + pu[j]);
                        }
                        v[j] = copy[p][j] ? w[m] : v[j];
                    }
                    if (mine[p]) *(float4 *)(o + p * nx) = make_float4(v[0], v[1], v[2], v[3]);
                }
            } else {
#pragma unroll
                for (int p = 0; p < PY; p++)
                    if (mine[p]) *(float4 *)(o + p * nx) = QS(p, R);
            }
            o += plane;
#undef QS
#undef HQ
        }
    }
}

template <int BY, int PY, int D, int PERSM>
static void launch_q4r(const struct problem *p, const struct grids *g)
{
    size_t tiles = (size_t)ceil_div(p->n[0], 128) * ceil_div(p->n[1], BY * PY);
    int r = star_radius(p), zc = zchunk_n(p, tiles, r, PERSM);
    dim3 block(32, BY), grid(ceil_div(p->n[0], 128), ceil_div(p->n[1], BY * PY), ceil_div(p->n[2], zc));
    const int nx = (int)p->n[0], ny = (int)p->n[1], nz = (int)p->n[2];
    switch (r) {
    case 1: star_q4r<1, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 2: star_q4r<2, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 3: star_q4r<3, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 4: star_q4r<4, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 5: star_q4r<5, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 6: star_q4r<6, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    }
}

// v6: min blocks adjacent rows per thread (y neighbours shared), pointer increments.
template <int R, int BY, int PY, int D, int MINB>
__global__ void __launch_bounds__(32 * BY, MINB) star_q4m(const float *__restrict__ in, float *__restrict__ out,
                                                    int nx, int ny, int nz, int zchunk)
{
    constexpr int XQ = (R + 3) / 4, QW = 32 + 2 * XQ, H = BY * PY, ROWS = H + 2 * R, NT = 32 * BY;
    constexpr int HALO = 2 * R * 32 + H * 2 * XQ, HS = (HALO + NT - 1) / NT, Q = 2 * R + 1 + D;
    __shared__ float4 s[2][ROWS][QW];
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx;
    const int x0 = blockIdx.x * 128, yb = blockIdx.y * H, x = x0 + 4 * tx, y0 = yb + ty * PY;
    const int z0 = blockIdx.z * zchunk, z1 = min(z0 + zchunk, nz);
    const size_t plane = (size_t)nx * ny;
    bool mine[PY], copy[PY][4];
#pragma unroll
    for (int p = 0; p < PY; p++) {
        mine[p] = x < nx && y0 + p < ny;
#pragma unroll
        for (int j = 0; j < 4; j++)
            copy[p][j] = x + j < R || x + j >= nx - R || y0 + p < R || y0 + p >= ny - R;
    }
    int hslot[HS];
    const float *hp[HS];
#pragma unroll
    for (int k = 0; k < HS; k++) {
        int h = t + k * NT, row, col;
        if (h < 2 * R * 32) {
            int r = h / 32;
            row = r < R ? r : H + r;
            col = XQ + h % 32;
        } else {
            int g = h - 2 * R * 32, kk = g % (2 * XQ);
            row = R + g / (2 * XQ);
            col = kk < XQ ? kk : 32 + kk;
        }
        int gx = x0 + 4 * (col - XQ), gy = yb + row - R;
        bool ok = h < HALO && gx >= 0 && gy >= 0 && gx < nx && gy < ny;
        hslot[k] = ok ? row * QW + col : -1;
        hp[k] = in + (ok ? (size_t)gy * nx + gx + (size_t)z0 * plane : 0);
    }
    const float *cin = in + (size_t)y0 * nx + x + (size_t)(z0 - R) * plane;
    float4 q[PY][Q], hq[D + 1][HS];
#pragma unroll
    for (int i = 0; i < Q - 1; i++) {
        int zz = z0 - R + i;
#pragma unroll
        for (int p = 0; p < PY; p++)
            if (mine[p] && zz >= 0 && zz < nz) q[p][i] = *(const float4 *)(cin + p * nx);
        cin += plane;
    }
#pragma unroll
    for (int d = 0; d < D; d++)
#pragma unroll
        for (int k = 0; k < HS; k++) {
            if (hslot[k] >= 0 && z0 + d < nz) hq[d][k] = *(const float4 *)hp[k];
            hp[k] += plane;
        }
    float *o = out + (size_t)y0 * nx + x + (size_t)z0 * plane;
    float4 *sb = &s[0][0][0];
#pragma unroll 1
    for (int z = z0; z < z1; z++) {
#pragma unroll
        for (int p = 0; p < PY; p++)
            if (mine[p] && z + R + D < nz) q[p][Q - 1] = *(const float4 *)(cin + p * nx);
        cin += plane;
#pragma unroll
        for (int k = 0; k < HS; k++) {
            if (hslot[k] >= 0 && z + D < nz) hq[D][k] = *(const float4 *)hp[k];
            hp[k] += plane;
        }
        float4 *c = sb + (R + ty * PY) * QW + XQ + tx;
#pragma unroll
        for (int p = 0; p < PY; p++) c[p * QW] = q[p][R];
#pragma unroll
        for (int k = 0; k < HS; k++)
            if (hslot[k] >= 0) sb[hslot[k]] = hq[0][k];
        __syncthreads();
        if (z >= R && z < nz - R) {
            float4 rw[PY + 2 * R];
#pragma unroll
            for (int r = 0; r < PY + 2 * R; r++) rw[r] = r < R || r >= R + PY ? c[(r - R) * QW] : q[r - R][R];
#pragma unroll
            for (int p = 0; p < PY; p++) {
                float w[4 * (2 * XQ + 1)];
#pragma unroll
                for (int k = -XQ; k <= XQ; k++) {
                    float4 v = k == 0 ? q[p][R] : c[p * QW + k];
                    w[4 * (k + XQ) + 0] = v.x; w[4 * (k + XQ) + 1] = v.y;
                    w[4 * (k + XQ) + 2] = v.z; w[4 * (k + XQ) + 3] = v.w;
                }
                float v[4];
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const int m = 4 * XQ + j;
                    v[j] = c_star[0] * w[m];
#pragma unroll
                    for (int i = 1; i <= R; i++) {
                        const float *pa = (const float *)&rw[R + p - i], *pb = (const float *)&rw[R + p + i];
                        const float *pd = (const float *)&q[p][R - i], *pu = (const float *)&q[p][R + i];
                        v[j] += c_star[i] * (w[m - i] + w[m + i] + pa[j] + pb[j] + pd[j] + pu[j]);
                    }
                    v[j] = copy[p][j] ? w[m] : v[j];
                }
                if (mine[p]) *(float4 *)(o + p * nx) = make_float4(v[0], v[1], v[2], v[3]);
            }
        } else {
#pragma unroll
            for (int p = 0; p < PY; p++)
                if (mine[p]) *(float4 *)(o + p * nx) = q[p][R];
        }
        o += plane;
#pragma unroll
        for (int p = 0; p < PY; p++)
#pragma unroll
            for (int i = 0; i < Q - 1; i++) q[p][i] = q[p][i + 1];
#pragma unroll
        for (int d = 0; d < D; d++)
#pragma unroll
            for (int k = 0; k < HS; k++) hq[d][k] = hq[d + 1][k];
        sb = sb == &s[0][0][0] ? &s[1][0][0] : &s[0][0][0];
    }
}

template <int BY, int PY, int D, int PERSM, int MINB>
static void launch_q4m(const struct problem *p, const struct grids *g)
{
    size_t tiles = (size_t)ceil_div(p->n[0], 128) * ceil_div(p->n[1], BY * PY);
    int r = star_radius(p), zc = zchunk_n(p, tiles, r, PERSM);
    dim3 block(32, BY), grid(ceil_div(p->n[0], 128), ceil_div(p->n[1], BY * PY), ceil_div(p->n[2], zc));
    const int nx = (int)p->n[0], ny = (int)p->n[1], nz = (int)p->n[2];
    switch (r) {
    case 1: star_q4m<1, BY, PY, D, MINB><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 2: star_q4m<2, BY, PY, D, MINB><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 3: star_q4m<3, BY, PY, D, MINB><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 4: star_q4m<4, BY, PY, D, MINB><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 5: star_q4m<5, BY, PY, D, MINB><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 6: star_q4m<6, BY, PY, D, MINB><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    }
}

// ---- colp: colq + L1 prefetch of the block's halo rows and columns order-k stencil, float4 columns with the z queue in registers, no shared memory ----
template <int R, int BY, int PY, int D>
__global__ void __launch_bounds__(32 * BY) star_colp(const float *__restrict__ in, float *__restrict__ out,
                                                     int nx, int ny, int nz, int zchunk)
{
    constexpr int XQ = (R + 3) / 4, Q = 2 * R + 1 + D, W = 4 * (2 * XQ + 1);
    const int x = 4 * (blockIdx.x * 32 + threadIdx.x), y0 = (blockIdx.y * BY + threadIdx.y) * PY;
    const int z0 = blockIdx.z * zchunk, z1 = min(z0 + zchunk, nz);
    if (x >= nx || y0 >= ny) return;
    const size_t plane = (size_t)nx * ny;
    const float *c = in + (size_t)y0 * nx + x;
    float *o = out + (size_t)y0 * nx + x;
    bool row_in[PY + 2 * R], row_out[PY];  // window row exists; own row is interior in y
#pragma unroll
    for (int r = 0; r < PY + 2 * R; r++) row_in[r] = y0 - R + r >= 0 && y0 - R + r < ny;
#pragma unroll
    for (int p = 0; p < PY; p++) row_out[p] = y0 + p >= R && y0 + p < ny - R;
    bool edge[4];
#pragma unroll
    for (int j = 0; j < 4; j++) edge[j] = x + j < R || x + j >= nx - R;

    float4 q[PY][Q];  // q[p][i] = row y0+p at plane z-R+i
#pragma unroll
    for (int p = 0; p < PY; p++)
#pragma unroll
        for (int i = 0; i < Q - 1; i++) {
            int zz = z0 - R + i;
            q[p][i] = row_in[R + p] && zz >= 0 && zz < nz ? *(const float4 *)(c + p * nx + zz * plane)
                                                           : make_float4(0, 0, 0, 0);
        }
    for (int z = z0; z < z1; z++) {
        const int zn = z + R + D;
        const size_t s = z * plane;
#pragma unroll
        for (int p = 0; p < PY; p++)
            q[p][Q - 1] = row_in[R + p] && zn < nz ? *(const float4 *)(c + p * nx + zn * plane)
                                                    : make_float4(0, 0, 0, 0);
        if (zn < nz) {
            const float *pz = in + zn * plane + x;
            for (int hr = threadIdx.y; hr < 2 * R; hr += BY) {
                int gy = hr < R ? blockIdx.y * BY * PY - R + hr : blockIdx.y * BY * PY + BY * PY + hr - R;
                if (gy >= 0 && gy < ny) asm volatile("prefetch.global.L1 [%0];" ::"l"(pz + (size_t)gy * nx));
            }
            if (threadIdx.x == 0 && x >= 4)
#pragma unroll
                for (int p = 0; p < PY; p++)
                    if (y0 + p < ny) asm volatile("prefetch.global.L1 [%0];" ::"l"(pz + (size_t)(y0 + p) * nx - 4 * XQ));
            if (threadIdx.x == 31 && x + 4 < nx)
#pragma unroll
                for (int p = 0; p < PY; p++)
                    if (y0 + p < ny) asm volatile("prefetch.global.L1 [%0];" ::"l"(pz + (size_t)(y0 + p) * nx + 4));
        }
        if (z >= R && z < nz - R) {
            float4 rw[PY + 2 * R];
#pragma unroll
            for (int r = 0; r < PY + 2 * R; r++)
                if (r < R || r >= R + PY)
                    rw[r] = row_in[r] ? *(const float4 *)(c + s + (r - R) * nx) : make_float4(0, 0, 0, 0);
                else
                    rw[r] = q[r - R][R];
#pragma unroll
            for (int p = 0; p < PY; p++) {
                float w[W];
#pragma unroll
                for (int k = -XQ; k <= XQ; k++) {
                    float4 v = k == 0 ? q[p][R]
                             : x + 4 * k >= 0 && x + 4 * k < nx ? *(const float4 *)(c + s + p * nx + 4 * k)
                                                                : make_float4(0, 0, 0, 0);
                    w[4 * (k + XQ) + 0] = v.x; w[4 * (k + XQ) + 1] = v.y;
                    w[4 * (k + XQ) + 2] = v.z; w[4 * (k + XQ) + 3] = v.w;
                }
                float res[4];
#pragma unroll
                for (int j = 0; j < 4; j++) {
                    const int m = 4 * XQ + j;
                    float v = c_star[0] * w[m];
#pragma unroll
                    for (int i = 1; i <= R; i++) {
                        const float *a = (const float *)&rw[R + p - i], *b = (const float *)&rw[R + p + i];
                        const float *d = (const float *)&q[p][R - i], *u = (const float *)&q[p][R + i];
                        v += c_star[i] * (w[m - i] + w[m + i] + a[j] + b[j] + d[j] + u[j]);
                    }
                    res[j] = edge[j] || !row_out[p] ? w[m] : v;
                }
                if (y0 + p < ny) *(float4 *)(o + s + p * nx) = make_float4(res[0], res[1], res[2], res[3]);
            }
        } else {
#pragma unroll
            for (int p = 0; p < PY; p++)
                if (y0 + p < ny) *(float4 *)(o + s + p * nx) = q[p][R];
        }
#pragma unroll
        for (int p = 0; p < PY; p++)
#pragma unroll
            for (int i = 0; i < Q - 1; i++) q[p][i] = q[p][i + 1];
    }
}


template <int BY, int PY, int D, int PERSM>
static void launch_colp(const struct problem *p, const struct grids *g)
{
    size_t tiles = (size_t)ceil_div(p->n[0], 128) * ceil_div(p->n[1], BY * PY);
    int r = star_radius(p), zc = zchunk_n(p, tiles, r, PERSM);
    dim3 block(32, BY), grid(ceil_div(p->n[0], 128), ceil_div(p->n[1], BY * PY), ceil_div(p->n[2], zc));
    const int nx = (int)p->n[0], ny = (int)p->n[1], nz = (int)p->n[2];
    switch (r) {
    case 1: star_colp<1, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 2: star_colp<2, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 3: star_colp<3, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 4: star_colp<4, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 5: star_colp<5, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 6: star_colp<6, BY, PY, D><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    }
}

static const struct variant VARIANTS[] = {
    {"regtile_7pt", "004's register tiling: prev/next in registers, 32x32 blocks, order 2 only",
     launch_regtile, refuse_regtile, redundancy_regtile, 0},
    {"regcol_z8", "8 z points per thread, column in registers, x/y neighbours from the caches",
     launch_regcol, refuse_regcol, redundancy_regcol, 0},
    {"regcol4_z4", "4 x points (float4) and 4 z points per thread, nx a multiple of 4",
     launch_regcol4, refuse_regcol4, redundancy_regcol4, 0},
    {"queue_16x16", "003's register queue, 16x16 output tile, 16x16 threads", launch_queue<16, 16, 1>,
     refuse_queue<16, 16, 1>, redundancy_queue<16, 16, 1>, 0},
    {"queue_32x32", "003's register queue, 32x32 output tile, 32x16 threads (2 points each)",
     launch_queue<32, 16, 2>, refuse_queue<32, 16, 2>, redundancy_queue<32, 16, 2>, 0},
    {"c8_1_2_8", "", launch_colq<8, 1, 2, 8>, refuse_colq<8, 1, 2, 8>, redundancy_regcol, 0},
    {"c8_1_2_16", "", launch_colq<8, 1, 2, 16>, refuse_colq<8, 1, 2, 16>, redundancy_regcol, 0},
    {"c16_1_2_8", "", launch_colq<16, 1, 2, 8>, refuse_colq<16, 1, 2, 8>, redundancy_regcol, 0},
    {"c4_2_1_16", "", launch_colq<4, 2, 1, 16>, refuse_colq<4, 2, 1, 16>, redundancy_regcol, 0},
    {"c8_1_1_8", "", launch_colq<8, 1, 1, 8>, refuse_colq<8, 1, 1, 8>, redundancy_regcol, 0},
    {"c8_2_1_8", "", launch_colq<8, 2, 1, 8>, refuse_colq<8, 2, 1, 8>, redundancy_regcol, 0},
    {"c4_1_2_16", "", launch_colq<4, 1, 2, 16>, refuse_colq<4, 1, 2, 16>, redundancy_regcol, 0},
    {"c16_1_3_8", "", launch_colq<16, 1, 3, 8>, refuse_colq<16, 1, 3, 8>, redundancy_regcol, 0},
    {"c16_1_2_4", "", launch_colq<16, 1, 2, 4>, refuse_colq<16, 1, 2, 4>, redundancy_regcol, 0},
    {"c4_2_2_16", "", launch_colq<4, 2, 2, 16>, refuse_colq<4, 2, 2, 16>, redundancy_regcol, 0},
    {"c16_1_1_8", "", launch_colq<16, 1, 1, 8>, refuse_colq<16, 1, 1, 8>, redundancy_regcol, 0},
    {"d16_1_2_8_1", "", launch_colq2<16, 1, 2, 8, 1>, refuse_colq<16, 1, 2, 8>, redundancy_regcol, 0},
    {"d16_1_2_8_2", "", launch_colq2<16, 1, 2, 8, 2>, refuse_colq<16, 1, 2, 8>, redundancy_regcol, 0},
    {"d16_1_2_8_4", "", launch_colq2<16, 1, 2, 8, 4>, refuse_colq<16, 1, 2, 8>, redundancy_regcol, 0},
    {"d8_1_2_8_2", "", launch_colq2<8, 1, 2, 8, 2>, refuse_colq<8, 1, 2, 8>, redundancy_regcol, 0},
    {"d4_2_1_16_2", "", launch_colq2<4, 2, 1, 16, 2>, refuse_colq<4, 2, 1, 16>, redundancy_regcol, 0},
    {"d8_1_1_8_2", "", launch_colq2<8, 1, 1, 8, 2>, refuse_colq<8, 1, 1, 8>, redundancy_regcol, 0},
    {"d16_1_1_8_2", "", launch_colq2<16, 1, 1, 8, 2>, refuse_colq<16, 1, 1, 8>, redundancy_regcol, 0},
    {"d8_2_1_8_2", "", launch_colq2<8, 2, 1, 8, 2>, refuse_colq<8, 2, 1, 8>, redundancy_regcol, 0},
    {"d4_1_2_16_2", "", launch_colq2<4, 1, 2, 16, 2>, refuse_colq<4, 1, 2, 16>, redundancy_regcol, 0},
    {"q16_2_8_2", "", launch_q4<16, 2, 8, 2>, refuse_colq<16, 1, 2, 8>, redundancy_regcol, 0},
    {"q16_1_8_2", "", launch_q4<16, 1, 8, 2>, refuse_colq<16, 1, 1, 8>, redundancy_regcol, 0},
    {"q8_2_8_2", "", launch_q4<8, 2, 8, 2>, refuse_colq<8, 1, 2, 8>, redundancy_regcol, 0},
    {"q8_1_8_2", "", launch_q4<8, 1, 8, 2>, refuse_colq<8, 1, 1, 8>, redundancy_regcol, 0},
    {"q16_2_4_2", "", launch_q4<16, 2, 4, 2>, refuse_colq<16, 1, 2, 4>, redundancy_regcol, 0},
    {"q16_3_8_2", "", launch_q4<16, 3, 8, 2>, refuse_colq<16, 1, 3, 8>, redundancy_regcol, 0},
    {"q8_2_16_2", "", launch_q4<8, 2, 16, 2>, refuse_colq<8, 1, 2, 16>, redundancy_regcol, 0},
    {"q16_2_8_1", "", launch_q4<16, 2, 8, 1>, refuse_colq<16, 1, 2, 8>, redundancy_regcol, 0},
    {"q8_2_8_1", "", launch_q4<8, 2, 8, 1>, refuse_colq<8, 1, 2, 8>, redundancy_regcol, 0},
    {"q8_1_8_1", "", launch_q4<8, 1, 8, 1>, refuse_colq<8, 1, 1, 8>, redundancy_regcol, 0},
    {"q16_1_8_1", "", launch_q4<16, 1, 8, 1>, refuse_colq<16, 1, 1, 8>, redundancy_regcol, 0},
    {"q16_2_16_1", "", launch_q4<16, 2, 16, 1>, refuse_colq<16, 1, 2, 16>, redundancy_regcol, 0},
    {"q16_2_4_1", "", launch_q4<16, 2, 4, 1>, refuse_colq<16, 1, 2, 4>, redundancy_regcol, 0},
    {"q16_3_8_1", "", launch_q4<16, 3, 8, 1>, refuse_colq<16, 1, 3, 8>, redundancy_regcol, 0},
    {"q8_3_8_1", "", launch_q4<8, 3, 8, 1>, refuse_colq<8, 1, 3, 8>, redundancy_regcol, 0},
    {"b4_4_1_16", "", launch_q4b<4, 4, 1, 16>, refuse_colq<4, 4, 1, 16>, redundancy_regcol, 0},
    {"b4_4_1_8", "", launch_q4b<4, 4, 1, 8>, refuse_colq<4, 4, 1, 8>, redundancy_regcol, 0},
    {"b4_4_1_4", "", launch_q4b<4, 4, 1, 4>, refuse_colq<4, 4, 1, 4>, redundancy_regcol, 0},
    {"b4_4_2_16", "", launch_q4b<4, 4, 2, 16>, refuse_colq<4, 4, 2, 16>, redundancy_regcol, 0},
    {"b16_1_2_8", "", launch_q4b<16, 1, 2, 8>, refuse_colq<16, 1, 2, 8>, redundancy_regcol, 0},
    {"b16_1_2_4", "", launch_q4b<16, 1, 2, 4>, refuse_colq<16, 1, 2, 4>, redundancy_regcol, 0},
    {"b16_1_2_16", "", launch_q4b<16, 1, 2, 16>, refuse_colq<16, 1, 2, 16>, redundancy_regcol, 0},
    {"b16_1_1_4", "", launch_q4b<16, 1, 1, 4>, refuse_colq<16, 1, 1, 4>, redundancy_regcol, 0},
    {"b8_2_1_4", "", launch_q4b<8, 2, 1, 4>, refuse_colq<8, 2, 1, 4>, redundancy_regcol, 0},
    {"b4_2_1_16", "", launch_q4b<4, 2, 1, 16>, refuse_colq<4, 2, 1, 16>, redundancy_regcol, 0},
};

static const struct lab LAB = {
    .number = 5,
    .name = "register_tiling",
    .title = "register tiling of the 7-point stencil; order-k stars with a register queue along z",
    .dims = 3,
    .default_n = {512, 512, 512},
    .min_n = {1, 1, 1},
    .default_order = 2,
    .order_ok = star_order_ok,
    STAR_LAB_FIELDS,
    .variants = VARIANTS,
    .n_variants = sizeof VARIANTS / sizeof *VARIANTS,
};

int main(int argc, char **argv) { return lab_main(&LAB, argc, argv); }
