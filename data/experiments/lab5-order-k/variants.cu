// SPDX-License-Identifier: MIT
// Experimental order-k kernels of the session that built lab 5's queue4_128x16 (NOTES.md says
// what each measured). Builds against the course harness as a lab 5 program:
//   make program SRC=data/experiments/lab5-order-k OUT=/tmp/lab5-order-k
// The lab's own variants (queue_16x16 ...) are in solutions/lab5_register_tiling.
#include "star.cuh"

// The harness wants a read-redundancy model; these experiments have none.
static void no_model(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = 0;
    *w = 1;
}

// ---- 4. colq: order-k stencil, float4 columns with the z queue in registers, no shared memory ----
// PF: also prefetch the block's halo rows and columns into L1 (the p* variants).
template <int R, int BY, int PY, int D, int PF>
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
        if (PF && zn < nz) {
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

// z chunks: about `per_sm` blocks per SM, never shorter than 4R planes.
static int zchunk_n(const struct problem *p, size_t tiles, int r, int per_sm)
{
    size_t want = per_sm * (size_t)p->sm_count, chunks = (want + tiles - 1) / tiles;
    size_t zc = (p->n[2] + chunks - 1) / chunks, min_zc = 4 * (size_t)r;
    if (zc < min_zc) zc = min_zc;
    return (int)(zc < p->n[2] ? zc : p->n[2]);
}

template <int BY, int PY, int D, int PERSM, int PF>
static void launch_colq(const struct problem *p, const struct grids *g)
{
    size_t tiles = (size_t)ceil_div(p->n[0], 128) * ceil_div(p->n[1], BY * PY);
    int r = star_radius(p), zc = zchunk_n(p, tiles, r, PERSM);
    dim3 block(32, BY), grid(ceil_div(p->n[0], 128), ceil_div(p->n[1], BY * PY), ceil_div(p->n[2], zc));
    const int nx = (int)p->n[0], ny = (int)p->n[1], nz = (int)p->n[2];
    switch (r) {
    case 1: star_colq<1, BY, PY, D, PF><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 2: star_colq<2, BY, PY, D, PF><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 3: star_colq<3, BY, PY, D, PF><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 4: star_colq<4, BY, PY, D, PF><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 5: star_colq<5, BY, PY, D, PF><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
    case 6: star_colq<6, BY, PY, D, PF><<<grid, block>>>(g->in, g->out, nx, ny, nz, zc); break;
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

static const struct variant VARIANTS[] = {
    {"c8_1_2_8", "", launch_colq<8, 1, 2, 8, 0>, refuse_colq<8, 1, 2, 8>, no_model, 0},
    {"c8_1_2_16", "", launch_colq<8, 1, 2, 16, 0>, refuse_colq<8, 1, 2, 16>, no_model, 0},
    {"c16_1_2_8", "", launch_colq<16, 1, 2, 8, 0>, refuse_colq<16, 1, 2, 8>, no_model, 0},
    {"c4_2_1_16", "", launch_colq<4, 2, 1, 16, 0>, refuse_colq<4, 2, 1, 16>, no_model, 0},
    {"c8_1_1_8", "", launch_colq<8, 1, 1, 8, 0>, refuse_colq<8, 1, 1, 8>, no_model, 0},
    {"c8_2_1_8", "", launch_colq<8, 2, 1, 8, 0>, refuse_colq<8, 2, 1, 8>, no_model, 0},
    {"c4_1_2_16", "", launch_colq<4, 1, 2, 16, 0>, refuse_colq<4, 1, 2, 16>, no_model, 0},
    {"c16_1_3_8", "", launch_colq<16, 1, 3, 8, 0>, refuse_colq<16, 1, 3, 8>, no_model, 0},
    {"c16_1_2_4", "", launch_colq<16, 1, 2, 4, 0>, refuse_colq<16, 1, 2, 4>, no_model, 0},
    {"c4_2_2_16", "", launch_colq<4, 2, 2, 16, 0>, refuse_colq<4, 2, 2, 16>, no_model, 0},
    {"c16_1_1_8", "", launch_colq<16, 1, 1, 8, 0>, refuse_colq<16, 1, 1, 8>, no_model, 0},
    {"d16_1_2_8_1", "", launch_colq2<16, 1, 2, 8, 1>, refuse_colq<16, 1, 2, 8>, no_model, 0},
    {"d16_1_2_8_2", "", launch_colq2<16, 1, 2, 8, 2>, refuse_colq<16, 1, 2, 8>, no_model, 0},
    {"d16_1_2_8_4", "", launch_colq2<16, 1, 2, 8, 4>, refuse_colq<16, 1, 2, 8>, no_model, 0},
    {"d8_1_2_8_2", "", launch_colq2<8, 1, 2, 8, 2>, refuse_colq<8, 1, 2, 8>, no_model, 0},
    {"d4_2_1_16_2", "", launch_colq2<4, 2, 1, 16, 2>, refuse_colq<4, 2, 1, 16>, no_model, 0},
    {"d8_1_1_8_2", "", launch_colq2<8, 1, 1, 8, 2>, refuse_colq<8, 1, 1, 8>, no_model, 0},
    {"d16_1_1_8_2", "", launch_colq2<16, 1, 1, 8, 2>, refuse_colq<16, 1, 1, 8>, no_model, 0},
    {"d8_2_1_8_2", "", launch_colq2<8, 2, 1, 8, 2>, refuse_colq<8, 2, 1, 8>, no_model, 0},
    {"d4_1_2_16_2", "", launch_colq2<4, 1, 2, 16, 2>, refuse_colq<4, 1, 2, 16>, no_model, 0},
    {"q16_2_8_2", "", launch_q4<16, 2, 8, 2>, refuse_colq<16, 1, 2, 8>, no_model, 0},
    {"q16_1_8_2", "", launch_q4<16, 1, 8, 2>, refuse_colq<16, 1, 1, 8>, no_model, 0},
    {"q8_2_8_2", "", launch_q4<8, 2, 8, 2>, refuse_colq<8, 1, 2, 8>, no_model, 0},
    {"q8_1_8_2", "", launch_q4<8, 1, 8, 2>, refuse_colq<8, 1, 1, 8>, no_model, 0},
    {"q16_2_4_2", "", launch_q4<16, 2, 4, 2>, refuse_colq<16, 1, 2, 4>, no_model, 0},
    {"q16_3_8_2", "", launch_q4<16, 3, 8, 2>, refuse_colq<16, 1, 3, 8>, no_model, 0},
    {"q8_2_16_2", "", launch_q4<8, 2, 16, 2>, refuse_colq<8, 1, 2, 16>, no_model, 0},
    {"q16_2_8_1", "", launch_q4<16, 2, 8, 1>, refuse_colq<16, 1, 2, 8>, no_model, 0},
    {"q8_2_8_1", "", launch_q4<8, 2, 8, 1>, refuse_colq<8, 1, 2, 8>, no_model, 0},
    {"q8_1_8_1", "", launch_q4<8, 1, 8, 1>, refuse_colq<8, 1, 1, 8>, no_model, 0},
    {"q16_1_8_1", "", launch_q4<16, 1, 8, 1>, refuse_colq<16, 1, 1, 8>, no_model, 0},
    {"q16_2_16_1", "", launch_q4<16, 2, 16, 1>, refuse_colq<16, 1, 2, 16>, no_model, 0},
    {"q16_2_4_1", "", launch_q4<16, 2, 4, 1>, refuse_colq<16, 1, 2, 4>, no_model, 0},
    {"q16_3_8_1", "", launch_q4<16, 3, 8, 1>, refuse_colq<16, 1, 3, 8>, no_model, 0},
    {"q8_3_8_1", "", launch_q4<8, 3, 8, 1>, refuse_colq<8, 1, 3, 8>, no_model, 0},
    {"b4_4_1_16", "", launch_q4b<4, 4, 1, 16>, refuse_colq<4, 4, 1, 16>, no_model, 0},
    {"b4_4_1_8", "", launch_q4b<4, 4, 1, 8>, refuse_colq<4, 4, 1, 8>, no_model, 0},
    {"b4_4_1_4", "", launch_q4b<4, 4, 1, 4>, refuse_colq<4, 4, 1, 4>, no_model, 0},
    {"b4_4_2_16", "", launch_q4b<4, 4, 2, 16>, refuse_colq<4, 4, 2, 16>, no_model, 0},
    {"b16_1_2_8", "", launch_q4b<16, 1, 2, 8>, refuse_colq<16, 1, 2, 8>, no_model, 0},
    {"b16_1_2_4", "", launch_q4b<16, 1, 2, 4>, refuse_colq<16, 1, 2, 4>, no_model, 0},
    {"b16_1_2_16", "", launch_q4b<16, 1, 2, 16>, refuse_colq<16, 1, 2, 16>, no_model, 0},
    {"b16_1_1_4", "", launch_q4b<16, 1, 1, 4>, refuse_colq<16, 1, 1, 4>, no_model, 0},
    {"b8_2_1_4", "", launch_q4b<8, 2, 1, 4>, refuse_colq<8, 2, 1, 4>, no_model, 0},
    {"b4_2_1_16", "", launch_q4b<4, 2, 1, 16>, refuse_colq<4, 2, 1, 16>, no_model, 0},
    {"p16_1_2_8", "", launch_colq<16, 1, 2, 8, 1>, refuse_colq<16, 1, 2, 8>, no_model, 0},
    {"p8_1_2_8", "", launch_colq<8, 1, 2, 8, 1>, refuse_colq<8, 1, 2, 8>, no_model, 0},
    {"p4_2_1_16", "", launch_colq<4, 2, 1, 16, 1>, refuse_colq<4, 2, 1, 16>, no_model, 0},
    {"p8_1_1_8", "", launch_colq<8, 1, 1, 8, 1>, refuse_colq<8, 1, 1, 8>, no_model, 0},
    {"p16_1_1_8", "", launch_colq<16, 1, 1, 8, 1>, refuse_colq<16, 1, 1, 8>, no_model, 0},
    {"p16_1_2_4", "", launch_colq<16, 1, 2, 4, 1>, refuse_colq<16, 1, 2, 4>, no_model, 0},
    {"r16_1_1_8", "", launch_q4r<16, 1, 1, 8>, refuse_colq<16, 1, 1, 8>, no_model, 0},
    {"r8_1_1_8", "", launch_q4r<8, 1, 1, 8>, refuse_colq<8, 1, 1, 8>, no_model, 0},
    {"r4_2_1_16", "", launch_q4r<4, 2, 1, 16>, refuse_colq<4, 2, 1, 16>, no_model, 0},
    {"r8_2_1_8", "", launch_q4r<8, 2, 1, 8>, refuse_colq<8, 2, 1, 8>, no_model, 0},
    {"r4_4_1_16", "", launch_q4r<4, 4, 1, 16>, refuse_colq<4, 4, 1, 16>, no_model, 0},
    {"r16_1_1_4", "", launch_q4r<16, 1, 1, 4>, refuse_colq<16, 1, 1, 4>, no_model, 0},
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
