// SPDX-License-Identifier: MIT
// Lab 8's fastest wave step (queue4_128x16: lab 5b's register queue of float4 quads, carried over),
// given code for labs 8 and 9: lab 8 measures it beside the kernels its student writes, and lab 9
// computes every slab with it, so that lab 9's lesson is the exchange and its scaling is measured
// against the best one-GPU step. Read it; edit it only for lab 8's question 5, which measures what
// the warps and the early loads buy, and then put it back. Include it once per kernels file.
//   u_next = 2 u - u_prev + vsq * L8 u   (the 25-point star of order 8; zero on the boundary layer)
// A thread owns a quad of 4 x points (float4) in one row (PY = 1): a block of 512 threads, 16 warps
// at 128 registers a thread (the most 512 threads allow), holds an SM. Two rows a thread: BY = 8,
// as lab 5b does at order 8 where the grid needs no strips (lab 8's question 5). The tile is
// 128x16. The planes go round a ring of RING shared buffers, each with an mbarrier (split arrive
// and wait, so a warp may run ahead of the slowest); the halo quads are copied by cp.async AHEAD
// planes ahead, round a ring of AHEAD + 3 buffers (lab 5b's question 3). The thread's own streams,
// u_prev, vsq and the queue's newest u, come one of two ways (COPY). Where the code has cp.async
// (sm_80 and later) and 136 KB fit a block (an A100, H100, H200), cp.async copies them 2 planes
// ahead into the thread's own slots of shared memory, and reads them from there (a ring of 5).
// Elsewhere they are loaded into registers one plane ahead: a ring of 6 (77 KB), or 4 with
// AHEAD = 1 where 6 do not fit (a GPU of 64 KB a block). QUEUE4_COPY = false takes the registers on every
// GPU. Every row is padded to a multiple of 32 floats (the lab's row_align), so every row starts
// 128-byte aligned and every quad is one aligned float4, loaded, copied and stored whole. The last
// quad of a row may reach into the padding (NaN in the inputs): its lanes there feed only points of
// the boundary layer or past nx (depth < 0: zero), and the latter are stored into the output's
// padding.
#ifndef WAVE_QUEUE4_CUH
#define WAVE_QUEUE4_CUH

#include <stdint.h>

#include "quad.cuh"  // async.cuh too
#include "wave.cuh"  // wave.h, and the weights c_wave

// One step of the points x0 <= x < x1, y0 <= y < y1, z0 <= z < z1 (z: the arrays' planes): read
// u (the current level), u_prev and vsq, write the new level into next. next may be u_prev itself
// (in place: a point reads its own old value before writing it), so neither has __restrict__.
// Rows are pitch elements apart: point (x, y, z) is element x + pitch * (y + ny * z) of the
// arrays, and the arrays' plane z is the grid's plane zg + z (lab 9: its slab's first plane; u's
// planes next to the slab, its ghost planes, are read). nz is the grid's. src is the source
// point's element (SIZE_MAX: none), amp what the step adds there.
struct wave_step {
    const float *u, *up, *vsq;
    float *next;
    int nx, pitch, ny, nz, zg, sponge;
    size_t src;
    float amp;
    int x0, x1, y0, y1, z0, z1;
};

// The leapfrog update of point (x, y, zg + z) given its Laplacian sum; a.amp at the source.
__device__ __forceinline__ float wave_point(const struct wave_step &a, int x, int y, int z, size_t i, float u, float up,
                                            float vsq, float lap)
{
    const int d = wave_depth(x, y, a.zg + z, a.nx, a.ny, a.nz);
    float v = d < 0 ? 0.f : wave_leapfrog(u, up, vsq, lap, d, a.sponge);  // the boundary layer stays zero
    if (d >= 0 && i == a.src) v += a.amp;
    return v;
}

// One point per thread, every neighbour from global memory: the box's points that queue4's whole
// tiles leave over, or a whole slab where the ring does not fit.
__global__ void __launch_bounds__(256) wave_box(struct wave_step a)
{
    const int x = a.x0 + blockIdx.x * blockDim.x + threadIdx.x, y = a.y0 + blockIdx.y * blockDim.y + threadIdx.y;
    const int z = a.z0 + blockIdx.z;
    if (x >= a.x1 || y >= a.y1) return;
    const size_t sy = a.pitch, sz = (size_t)a.pitch * a.ny, i = z * sz + y * sy + x;
    float lap = 0.f;
    if (wave_depth(x, y, a.zg + z, a.nx, a.ny, a.nz) >= 0) {  // only then are the neighbours in the grid
        const float *u = a.u + i;
        lap = c_wave[0] * u[0];
#pragma unroll
        for (int k = 1; k <= WAVE_R; k++)
            lap += c_wave[k] * (u[-k] + u[k] + u[-k * (long)sy] + u[k * (long)sy] + u[-k * (long)sz] + u[k * (long)sz]);
    }
    a.next[i] = wave_point(a, x, y, z, i, a.u[i], a.up[i], a.vsq[i], lap);
}

constexpr int QUAD_W = 128, QUAD_H = 16;

// false: u_prev, vsq and u into registers one plane ahead on every GPU (lab 8's question 5).
constexpr bool QUEUE4_COPY = true;

template <int PLANES_AHEAD = 2, bool COPY_OWN = true>
struct Quad {
    static constexpr int AHEAD = PLANES_AHEAD, RING = AHEAD + 3;  // halo lead, shared planes
    static constexpr bool COPY = COPY_OWN;    // the own streams by cp.async, AHEAD planes ahead
    static constexpr int OWN = AHEAD + 1;     // their slots: planes z .. z + AHEAD
    static constexpr int R = WAVE_R, BY = 16, PY = QUAD_H / BY;  // threads in y, rows per thread
    static constexpr int XQ = 1, QW = 32 + 2 * XQ;              // halo quads each side, row in quads
    static constexpr int H = QUAD_H, ROWS = H + 2 * R, NT = 32 * BY;
    static constexpr int HALO = 2 * R * 32 + H * 2 * XQ, HS = (HALO + NT - 1) / NT;
    static constexpr int Q = 2 * R + 2;  // planes z-R .. z+R+1 (the last one in flight)
    // the ring, quad.cuh's two quads of pad, and (COPY) OWN planes of 3 quads a row of each thread
    static constexpr size_t SMEM = ((size_t)RING * ROWS * QW + 2 + (COPY ? (size_t)OWN * 3 * PY * NT : 0)) * sizeof(float4);
};

// (COPY) Thread t's copies for plane zp of its chunk, into its slots `own` (3 x PY quads, NT
// apart): u_prev and vsq of the plane where it is not boundary, and u of plane zp + R + 1, which
// the queue takes in when the loop reaches plane zp (none past the chunk's last plane or the
// grid's: nothing reads those). i: the element of the thread's first quad in plane zp.
template <class C>
__device__ __forceinline__ void own_copy(const struct wave_step &a, float4 *own, size_t i, bool inner, bool u_next,
                                         const bool (&mine)[C::PY])
{
    const size_t plane = (size_t)a.pitch * a.ny;
#pragma unroll
    for (int p = 0; p < C::PY; p++) {
        if (!mine[p]) continue;
        const size_t ip = i + (size_t)p * a.pitch;
        if (inner) async_copy16(own + p * C::NT, a.up + ip), async_copy16(own + (C::PY + p) * C::NT, a.vsq + ip);
        if (u_next) async_copy16(own + (2 * C::PY + p) * C::NT, a.u + ip + (C::R + 1) * plane);
    }
}

// The whole 128x16 tiles of planes a.z0 .. a.z1 - 1, in z chunks of `zchunk` planes.
template <int PLANES_AHEAD, bool COPY_OWN>
__global__ void __launch_bounds__(Quad<>::NT) wave_queue4(struct wave_step a, int zchunk)
{
    using C = Quad<PLANES_AHEAD, COPY_OWN>;
    constexpr int R = C::R, PY = C::PY, QW = C::QW, XQ = C::XQ, HS = C::HS, Q = C::Q, PLANE = C::ROWS * QW;
    constexpr int RING = C::RING, AHEAD = C::AHEAD, OWN_PLANE = 3 * PY * C::NT;
    extern __shared__ float4 dyn[];            // RING planes of ROWS x QW quads (quad.cuh: ring_base)
    float4 *const ring = ring_base<XQ>(dyn);
    float4 *const slots = stage_base<XQ>(ring, RING * PLANE) + threadIdx.y * 32 + threadIdx.x;  // (COPY) own slots
    __shared__ unsigned long long full[RING];  // full[b]: every thread has stored its part of buffer b
    const int nx = a.nx, pitch = a.pitch, ny = a.ny;
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx;
    const int x0 = blockIdx.x * QUAD_W, yb = blockIdx.y * C::H, x = x0 + 4 * tx, y0 = yb + ty * PY;
    const int z0 = a.z0 + blockIdx.z * zchunk, z1 = min(z0 + zchunk, a.z1);
    // the arrays' planes that lie in the grid (a slab's ghost planes do; those past a face do not)
    const int zin0 = -a.zg, zin1 = a.nz - a.zg;
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
    const float *cin = in + (size_t)y0 * pitch + x + (ptrdiff_t)(z0 - R) * (ptrdiff_t)plane;
    const size_t row0 = (size_t)y0 * pitch + x;
    const int upd0 = R - a.zg, upd1 = a.nz - R - a.zg;  // the planes that are not boundary
    float4 q[PY][Q];  // q[p][i] = row y0+p at plane z-R+i
#pragma unroll
    for (int i = 0; i < Q - 1; i++, cin += plane)
#pragma unroll
        for (int p = 0; p < PY; p++)
            q[p][i] = mine[p] && z0 - R + i >= zin0 && z0 - R + i < zin1 ? *(const float4 *)(cin + p * pitch)
                                                                      : make_float4(0.f, 0.f, 0.f, 0.f);
    const int own = (R + ty * PY) * QW + XQ + tx;  // this thread's first quad in a plane
    __syncthreads();                               // the barriers are initialised
    for (int i = 0; i < AHEAD; i++) {
        const int zp = z0 + i;
        if (zp < z1) {
            quad_copy_halo(ring + i * PLANE, hslot, hp, i * plane);
            if constexpr (C::COPY)
                own_copy<C>(a, slots + (i % C::OWN) * OWN_PLANE, zp * plane + row0, zp >= upd0 && zp < upd1,
                            zp + 1 < z1 && zp + R + 1 < zin1, mine);
        }
        async_commit();  // one group per plane, empty or not, so that async_landed counts planes
    }
#pragma unroll
    for (int k = 0; k < HS; k++) hp[k] += AHEAD * plane;
    async_landed<AHEAD - 1>();
#pragma unroll
    for (int p = 0; p < PY; p++) ring[own + p * QW] = q[p][R];
    mbar_arrive(&full[0]);
    // (not COPY) u_prev and vsq of the next plane, loaded one plane ahead (up_n, vs_n); the plane
    // loop hands them over as up_c, vs_c (lab 8's question 5 measures what that buys).
    float4 up_n[PY], vs_n[PY];
#pragma unroll
    for (int p = 0; p < PY; p++) up_n[p] = vs_n[p] = make_float4(0.f, 0.f, 0.f, 0.f);
    if (!C::COPY && z0 >= upd0 && z0 < upd1)
#pragma unroll
        for (int p = 0; p < PY; p++)
            if (mine[p]) {
                const size_t i = z0 * plane + row0 + (size_t)p * pitch;
                up_n[p] = *(const float4 *)(a.up + i), vs_n[p] = *(const float4 *)(a.vsq + i);
            }
#pragma unroll 1
    for (int z = z0; z < z1; z++, cin += plane) {
        const int step = z - z0;
        float4 up_c[PY], vs_c[PY];
        const float4 *mine_now = slots + (step % C::OWN) * OWN_PLANE;  // (COPY) plane z's slots, landed
        if constexpr (C::COPY) {
#pragma unroll
            for (int p = 0; p < PY; p++) q[p][Q - 1] = mine_now[(2 * PY + p) * C::NT];
        } else {
#pragma unroll
            for (int p = 0; p < PY; p++) up_c[p] = up_n[p], vs_c[p] = vs_n[p];
            if (z + 1 < z1 && z + 1 >= upd0 && z + 1 < upd1)
#pragma unroll
                for (int p = 0; p < PY; p++)
                    if (mine[p]) {
                        const size_t i = (z + 1) * plane + row0 + (size_t)p * pitch;
                        up_n[p] = *(const float4 *)(a.up + i), vs_n[p] = *(const float4 *)(a.vsq + i);
                    }
#pragma unroll
            for (int p = 0; p < PY; p++)
                if (mine[p] && z + 1 < z1 && z + R + 1 < zin1) q[p][Q - 1] = *(const float4 *)(cin + p * pitch);
        }
        if (z + AHEAD < z1) {
            quad_copy_halo(ring + ((step + AHEAD) % RING) * PLANE, hslot, hp, 0);
            const int zp = z + AHEAD;  // into the slots of plane z - 1, which this thread has read
            if constexpr (C::COPY)
                own_copy<C>(a, slots + ((step + AHEAD) % C::OWN) * OWN_PLANE, zp * plane + row0,
                            zp >= upd0 && zp < upd1, zp + 1 < z1 && zp + R + 1 < zin1, mine);
        }
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
        if (z >= upd0 && z < upd1) {
            if constexpr (C::COPY)
#pragma unroll
                for (int p = 0; p < PY; p++) up_c[p] = mine_now[p * C::NT], vs_c[p] = mine_now[(PY + p) * C::NT];
            float4 rows[PY + 2 * R];  // rows y0-R .. y0+PY-1+R of this quad column
#pragma unroll
            for (int r = 0; r < PY + 2 * R; r++) rows[r] = r < R || r >= R + PY ? c[(r - R) * QW] : q[r - R][R];
#pragma unroll
            for (int p = 0; p < PY; p++) {
                if (!mine[p]) continue;
                const size_t i = at + (size_t)p * pitch;
                float w[4 * (2 * XQ + 1)];  // x window: quads x-4 .. x+7 of row p
#pragma unroll
                for (int k = -XQ; k <= XQ; k++) {
                    const float4 v = k == 0 ? q[p][R] : c[p * QW + k];
                    w[4 * (k + XQ) + 0] = v.x, w[4 * (k + XQ) + 1] = v.y, w[4 * (k + XQ) + 2] = v.z, w[4 * (k + XQ) + 3] = v.w;
                }
                const float ups[4] = {up_c[p].x, up_c[p].y, up_c[p].z, up_c[p].w};
                const float vss[4] = {vs_c[p].x, vs_c[p].y, vs_c[p].z, vs_c[p].w};
                float v[4];
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
                    v[j] = wave_point(a, x + j, y0 + p, z, i + j, w[m], ups[j], vss[j], lap);
                }
                *(float4 *)(a.next + i) = make_float4(v[0], v[1], v[2], v[3]);  // lanes past nx: the padding
            }
        } else {  // the first and last R planes of the grid are boundary: zero
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

// ---- the host side ----

// Enough z chunks of `planes` for about per_sm blocks per SM over `tiles` tiles, never chunks
// shorter than 4R planes (each chunk reads 2R extra planes to fill its queue).
static inline int wave_zchunk(const struct problem *p, size_t planes, size_t tiles, int per_sm)
{
    size_t want = per_sm * (size_t)p->sm_count, chunks = (want + tiles - 1) / tiles;
    size_t zc = (planes + chunks - 1) / chunks, min_zc = 4 * WAVE_R;
    if (zc < min_zc) zc = min_zc;
    return (int)(zc < planes ? zc : planes);
}

// A tile column costs the same whether it holds 128 x points or one (every warp runs the whole
// loop): at nx = 513 a fifth column would make the step 25% slower for 0.2% more points. So
// queue4 covers the grid's whole tiles only, and a thin remainder (at most TAIL_X columns on the
// right, TAIL_Y rows at the bottom) goes to wave_box, with blocks shaped to the strip.
constexpr int TAIL_X = 32, TAIL_Y = 4;

// queue4 covers x < *xm, y < *ym: whole tiles where the rest is a thin strip, else all of it.
static inline void queue4_extent(const struct problem *p, size_t *xm, size_t *ym)
{
    size_t nx = p->n[0], ny = p->n[1], rx = nx % QUAD_W, ry = ny % QUAD_H;
    *xm = nx >= QUAD_W && rx <= TAIL_X ? nx - rx : nx;
    *ym = ny >= QUAD_H && ry <= TAIL_Y ? ny - ry : ny;
}

// The queue4 kernel a GPU runs, with the shared memory it asks for a block.
struct wave_queue4_kernel {
    void (*fn)(struct wave_step, int);
    size_t smem;
};

// The own streams by cp.async where this GPU's code has it (the PTX it runs is sm_80's or later:
// what a GPU before sm_80 runs copies synchronously) and their ring fits; else in registers,
// the halo 3 planes ahead, or 1 where that ring does not fit.
static inline struct wave_queue4_kernel queue4_pick(const struct problem *p)
{
    static int has_cp_async = -1;  // the same code at every launch of the process
    if (has_cp_async < 0) {
        struct cudaFuncAttributes fa;
        CUDA_CHECK(cudaFuncGetAttributes(&fa, wave_queue4<2, true>));
        has_cp_async = fa.ptxVersion >= 80;
    }
    if (QUEUE4_COPY && has_cp_async && Quad<2, true>::SMEM <= p->smem_optin) return {wave_queue4<2, true>, Quad<2, true>::SMEM};
    if (Quad<3, false>::SMEM <= p->smem_optin) return {wave_queue4<3, false>, Quad<3, false>::SMEM};
    return {wave_queue4<1, false>, Quad<1, false>::SMEM};  // a ring of 4: a GPU of 64 KB a block
}

// The blocks of queue4 one SM holds at once, from the occupancy calculator, asked once: the
// kernel and its shared memory are the same at every launch of the process.
static inline int queue4_resident(const struct problem *p)
{
    static int n;
    if (n == 0) {
        const struct wave_queue4_kernel k = queue4_pick(p);
        CUDA_CHECK(cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)k.smem));
        CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k.fn, Quad<>::NT, k.smem));
        if (n < 1) n = 1;
    }
    return n;
}

// The z chunk of `planes` planes: quad.cuh's wave model. At 768^3 on an H100 (288 tile columns,
// 132 blocks at once) the rule before it, about 4 blocks per SM, took 2 chunks: 4.4 waves, the
// last a third full.
static inline int queue4_chunk(const struct problem *p, size_t planes)
{
    size_t xm, ym;
    queue4_extent(p, &xm, &ym);
    const size_t tiles = (size_t)ceil_div(xm, QUAD_W) * ceil_div(ym, QUAD_H);
    return (int)quad_zchunk(tiles, planes, (size_t)queue4_resident(p) * p->sm_count, WAVE_R);
}

// Whether the ring of 4 shared planes, the smallest, fits this GPU's shared memory.
static inline int queue4_fits(const struct problem *p) { return Quad<1, false>::SMEM <= p->smem_optin; }

// wave_box on [x0, x1) x [y0, y1) of a's planes, 256 threads a block: bx wide (a power of two, at
// most 256) so that a strip one point wide still fills the warps.
static inline void wave_box_launch(const struct wave_step *a, int x0, int x1, int y0, int y1, cudaStream_t stream)
{
    struct wave_step b = *a;
    b.x0 = x0, b.x1 = x1, b.y0 = y0, b.y1 = y1;
    unsigned bx = 1;
    while (bx < (unsigned)(x1 - x0) && bx < 256) bx *= 2;
    dim3 block(bx, 256 / bx), grid(ceil_div((size_t)(x1 - x0), bx), ceil_div((size_t)(y1 - y0), 256 / bx), (unsigned)(a->z1 - a->z0));
    wave_box<<<grid, block, 0, stream>>>(b);
}

// One step of a's planes (a->z0 .. a->z1 - 1, every x and y) on `stream`, in z chunks of zc
// planes from a->z0: queue4 on the whole tiles, wave_box on the thin remainders; wave_box alone
// where the ring does not fit.
static inline void queue4_launch(const struct problem *p, const struct wave_step *a, int zc, cudaStream_t stream)
{
    if (a->z1 <= a->z0) return;
    if (!queue4_fits(p)) {
        wave_box_launch(a, 0, a->nx, 0, a->ny, stream);
        return;
    }
    size_t xm, ym;
    queue4_extent(p, &xm, &ym);
    dim3 block(32, Quad<>::BY), grid(ceil_div(xm, QUAD_W), ceil_div(ym, QUAD_H), ceil_div((size_t)(a->z1 - a->z0), zc));
    const struct wave_queue4_kernel k = queue4_pick(p);
    k.fn<<<grid, block, k.smem, stream>>>(*a, zc);
    if (xm < p->n[0]) wave_box_launch(a, (int)xm, a->nx, 0, (int)ym, stream);  // the right strip
    if (ym < p->n[1]) wave_box_launch(a, 0, a->nx, (int)ym, a->ny, stream);    // the bottom rows, full width
}

// One step of a's planes, in the chunk that queue4_chunk picks for them.
static inline void queue4_step(const struct problem *p, const struct wave_step *a, cudaStream_t stream)
{
    if (a->z1 > a->z0) queue4_launch(p, a, queue4_chunk(p, (size_t)(a->z1 - a->z0)), stream);
}

// Why queue4_step cannot run `planes` planes of p (grid limits), or NULL.
static inline const char *queue4_refuse(const struct problem *p, size_t planes)
{
    if (p->n[0] > (1u << 30) || p->n[1] > (1u << 30) || p->n[2] > (1u << 30))
        return "every dimension must be at most 2^30 (int coordinates)";
    // wave_box: one plane a block in z, at least 8 rows a block (a strip up to 32 wide)
    // (where the ring does not fit, wave_box takes whole planes, in blocks of 256 x 1 where nx >= 256)
    if (ceil_div(p->n[1], QUAD_H) > 65535 || ceil_div(planes, queue4_chunk(p, planes)) > 65535 || planes > 65535 ||
        ceil_div(p->n[1], 8) > 65535 || (!queue4_fits(p) && p->n[1] > 65535))
        return "too many blocks along y or z for the grid (65535 at most)";
    return NULL;
}

// Values of u read per point updated in chunks of zc planes: per plane of a chunk the 128x16 tile
// and halos of whole quads (k rows of 128, 8 columns of 16), k more planes to fill the queue.
static inline double queue4_reads_zc(double zc)
{
    const double n = QUAD_W, m = QUAD_H, k = 2 * WAVE_R;
    return (n * m * (zc + k) + (k * n + 8 * m) * zc) / (n * m * zc);
}

// The same over `planes` planes, in the chunk queue4_step takes.
static inline double queue4_reads(const struct problem *p, size_t planes) { return queue4_reads_zc(queue4_chunk(p, planes)); }

// Before any timing: the weights, and the ring's shared memory (above 48 KB a kernel must opt in).
static inline void queue4_setup(const struct problem *p)
{
    wave_setup_weights();
    if (queue4_fits(p)) {
        const struct wave_queue4_kernel k = queue4_pick(p);
        CUDA_CHECK(cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)k.smem));
    }
}
#endif
