// SPDX-License-Identifier: MIT
// Lab 5b's fastest kernel, queue4_128x16: 003's register queue along z with float4 quads and a ring
// of shared planes with mbarriers. Given code: lab 5b measures it beside the kernels its student
// writes (the handout's optional part reads it), and lab 8 carries the same design over to the
// wave (wave_queue4.cuh). Read it; do not edit it. Include it once per kernels file (it brings
// star.cuh: the weights c_star, refuse_grid).
// Host side: queue4_launch, queue4_refuse, queue4_model (the lab's launch_, refuse_ and model_
// of queue4_128x16) and queue4_setup (in setup_kernels, after star_setup).
#ifndef STAR_QUEUE4_CUH
#define STAR_QUEUE4_CUH

#include "quad.cuh"  // async.cuh too
#include "star.cuh"

// The same single pass, cut down to fewer instructions and shared-memory loads per point: a
// thread owns a quad of 4 x points (float4) in PY adjacent rows, so one 16-byte shared load
// serves 4 points and the rows of a thread share their y neighbours. The output tile is 128x16
// at every order; what changes with the order is the register queue, 4 * PY * (2R + 2)
// registers (2R + 1 where STAGED, below): up to order 6 a thread takes 4 rows (32x4
// threads), at order 8 two (32x8 threads, two blocks an SM at 128 registers: 16 warps, where 4
// rows took 229 registers and had 8; 2.6% faster on an H100), beyond that one row (32x16
// threads). A grid with strips (below) keeps 4 rows at order 8: its kernel, with the strips'
// code, took 168 registers with 2 rows and one block an SM, and 513^3 ran 13% slower.
//
// No __syncthreads in the loop: a barrier holds every warp of the block to the slowest one, once
// per plane, and then all of them want the shared-memory pipe at once. Instead the planes go round
// a ring of RING shared buffers, each with an mbarrier (a barrier object in shared memory whose
// arrive and wait are separate instructions). At plane z a thread stores its tile rows of plane z+1
// (from its queue, which holds up to plane z+R) and arrives on that plane's barrier, then waits
// only until everyone has stored plane z; so a warp may run ahead of the slowest. Above order 8
// (POLL) the wait polls (test_wait) where sm_90 code would use try_wait, which may suspend the
// thread for a while before it answers: on an H100, order 12 was 3.4% faster polling at 512^3 (no
// change at 376^3) and order 10 0.3-0.9% faster, while order 8 at 512^3 was 0.5-0.9% slower and
// lab 8 0.1-0.4%. Why only there is not known (orders 10 and 12 run one block of 512 threads an SM,
// order 8 two of 256, lab 8 one of 256 at the time; its one block of 512 since 90abd9d has not
// been measured polling). The halo quads skip the registers: cp.async copies them
// AHEAD = 3 planes ahead, round a ring of AHEAD + 3 = 6 buffers (lab 5b's question 3 asks why that
// many). Where 6 do not fit a block's shared memory (a GPU of 64 KB a block), the kernel copies the
// halo one plane ahead round a ring of 4: the same code with AHEAD = 1. At order 12, where a block
// can have 166 KB (an H100 opts in to 227 KB), AHEAD = 5 round a ring of 8, and the stage below 4
// planes early: its one block of 512 threads an SM has only its own copies in flight, and two
// planes more of them were 8% faster on an H100 (at order 8, two blocks an SM, AHEAD = 5 was 3%
// slower). Where 142 KB fit but not 166 (an A100's 163 KB), AHEAD = 4: 5% faster than 3 on an H100.
//
// At orders 8 and 12 (STAGED) the queue's newest plane skips the registers too. A load into the
// queue stalls the thread at the end of the same plane, when the queue shifts and moves the
// register still waiting for memory. So cp.async copies the thread's own quads LEAD planes
// before they are needed into a small stage in shared memory, and the thread reads them from
// there: 7% faster at order 12 on an H200 (where the stage fits: 119 KB of shared memory a
// block; a GPU that gives a block less, 99 KB say, runs order 12 without it). At order 8 the
// stage pays only with the ring placed by quad.cuh's ring_base (before it, the stage's copies
// crossed their 32-byte sectors, L2 sent them twice, and the kernel was 8-12% slower). Where two
// blocks of 92.5 KB fit an SM (an H100), the halo goes 3 planes ahead round a ring of 6 and the
// stage 1 plane early (LEAD 1, not AHEAD - 1): make bench on an H100, 343.0 Gpoints/s at 512^3
// against 329.8 with the halo 2 planes ahead (+4.0%), faster at all eight sizes (+0.8 to +4.7%),
// and 0.16 DRAM bytes a point fewer at 512^3 (4.32). Presumably the fewer planes pass between a
// tile's copy of its own rows and its neighbours' copies of them as halo, the more of them L2
// still holds. Elsewhere the halo goes 2 planes ahead round a ring of 5, 80 KB, two blocks an SM
// on an A100: faster on an H100 than the ring of 6 without the stage at six sizes of make bench
// (512^3 +1.5%, 376^3 +3.2%, up to +7.1%) but 3% slower at 640x640x400 and 800^3, where it read
// 0.3 and 0.6 DRAM bytes a point more. A GPU of 99 KB a block runs it one block an SM, as it
// runs the ring of 6 (not measured there). Not at order 10 (4.5% slower, measured before
// ring_base) nor at orders 2 and 4, where the stage's shared memory costs a block per SM (7%
// slower). Nor, at order 8, the own quads 2 planes early (a stage of 3): 4-7% slower, with
// 0.3-0.45 DRAM bytes a point more.

constexpr int QUAD_W = 128, QUAD_H = 16;  // the output tile

template <int R, bool WITH_STAGE = false, int PLANES_AHEAD = 3, bool STRIPS = false, int STAGE_LEAD = PLANES_AHEAD - 1>
struct Quad {
    static constexpr int AHEAD = PLANES_AHEAD, RING = AHEAD + 3;  // halo lead, shared planes
    static constexpr int LEAD = STAGE_LEAD, STAGE = LEAD + 1;  // STAGED: own quads copied LEAD planes early; buffers
    static constexpr int BY = R > 4 ? 16 : R == 4 && !STRIPS ? 8 : 4, PY = QUAD_H / BY;  // threads in y, rows per thread
    static constexpr int XQ = (R + 3) / 4, QW = 32 + 2 * XQ;       // halo quads each side, row in quads
    static constexpr int H = QUAD_H, ROWS = H + 2 * R, NT = 32 * BY;
    static constexpr int HALO = 2 * R * 32 + H * 2 * XQ, HS = (HALO + NT - 1) / NT;  // quads
    static constexpr bool STAGED = WITH_STAGE;
    static constexpr bool POLL = R > 4;  // the ring's wait polls (above: faster at orders 10, 12)
    static constexpr int Q = STAGED ? 2 * R + 1 : 2 * R + 2;  // planes z-R .. z+R (and z+R+1, in flight)
    static constexpr size_t SMEM = ((size_t)RING * ROWS * QW + (STAGED ? (size_t)STAGE * PY * NT : 0) + 2) * sizeof(float4);
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
template <int R, bool STAGED = false, bool STRIPS = false, int PLANES_AHEAD = 3, int LEAD_PLANES = PLANES_AHEAD - 1>
__global__ void __launch_bounds__(Quad<R, false, 3, STRIPS>::NT, R == 4 && !STRIPS ? 2 : 1) star_queue4(const float *__restrict__ in, float *__restrict__ out,
                                                          int nx, int ny, int nz, int pitch, int zchunk, int strips,
                                                          bool odd_down)
{
    using C = Quad<R, STAGED, PLANES_AHEAD, STRIPS, LEAD_PLANES>;
    constexpr int PY = C::PY, QW = C::QW, XQ = C::XQ, HS = C::HS, Q = C::Q, PLANE = C::ROWS * QW;
    constexpr int RING = C::RING, AHEAD = C::AHEAD, LEAD = C::LEAD, STAGE = C::STAGE;
    extern __shared__ float4 dyn[];  // RING planes of ROWS x QW quads, then (STAGED) the stage (quad.cuh: ring_base)
    float4 *const ring = ring_base<XQ>(dyn);
    __shared__ unsigned long long full[RING];  // full[b]: every thread has stored its part of buffer b
    const int tx = threadIdx.x, ty = threadIdx.y, t = ty * 32 + tx;
    float4 *const stage = stage_base<XQ>(ring, RING * PLANE);  // STAGED: own row p of plane z0+R+j in slot j % STAGE
    auto staged = [stage, t](int j, int p) { return stage + ((j % STAGE) * PY + p) * C::NT + t; };
    const int x0 = blockIdx.x * QUAD_W, yb = blockIdx.y * C::H, x = x0 + 4 * tx, y0 = yb + ty * PY;
    const int zlo = blockIdx.z * zchunk, zhi = min(zlo + zchunk, nz);
    const size_t plane_up = (size_t)pitch * ny;
    // STRIPS, up to order 8: this block's tile is the last of its row (it writes the strip right of
    // it) or of its column (the strip below it); above, a block past the tiles copies them.
    constexpr bool RING_STRIPS = STRIPS && R <= RING_STRIPS_MAX_R;
    const int right = strips & 15, below = strips >> 4;
    if constexpr (STRIPS && !RING_STRIPS) {
        const int xm = nx - right, ym = ny - below;  // tiles: x < xm, y < ym
        const bool past_x = right && blockIdx.x == gridDim.x - 1, past_y = below && blockIdx.y == gridDim.y - 1;
        if (past_x || past_y) {  // a block past the tiles: the strips of its tile row (or column), then done
            const int xa = past_x ? xm : x0, nq = past_x ? 2 : min(32, ((nx - x0 + 3) / 4 + 1) & ~1);
            copy_box<C::NT>(in, out, pitch, plane_up, xa, nq, past_y ? ym : yb, past_y ? ny : min(yb + C::H, ym), zlo, zhi);
            return;
        }
    }
    // odd_down: an odd chunk walks down z (queue4_chunk says when). That is the same loop over the
    // grid mirrored in z: every condition on z below is symmetric, so only the planes' stride, the
    // first plane and the chunk's range change.
    const bool down = odd_down && (blockIdx.z & 1);
    const ptrdiff_t plane = down ? -(ptrdiff_t)plane_up : (ptrdiff_t)plane_up;
    const float *const in_up = in;
    float *const out_up = out;
    if (down) in += (ptrdiff_t)(nz - 1) * plane_up, out += (ptrdiff_t)(nz - 1) * plane_up;
    const int z0 = down ? nz - zhi : zlo, z1 = down ? nz - zlo : zhi;
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
    const float *cin = in + (ptrdiff_t)y0 * pitch + x + (ptrdiff_t)(z0 - R) * plane;
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
    // for (z0-AHEAD .. z0-1). At plane z the thread needs the halo of z+1, in the group of plane
    // z+1-AHEAD, and its own quads of z+R, in the group of z-LEAD: LEAD <= AHEAD - 1 makes the
    // second the newer, so a wait for it (all but the LEAD newest groups) covers both.
    static_assert(!C::STAGED || (LEAD >= 1 && LEAD <= AHEAD - 1), "plane z's wait covers the halo of z+1 and own quads of z+R");
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
    float *o = out + (ptrdiff_t)y0 * pitch + x + (ptrdiff_t)z0 * plane;
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
            async_landed<LEAD>();  // this thread's own quads of z+R and (older) halo quads of plane z+1 are in
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
        mbar_wait<C::POLL>(&full[step % RING], (step / RING) & 1);
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
                    v[j] = c_star[0] * w[m];
#pragma unroll
                    for (int i = 1; i <= R; i++) {
                        const float *a = (const float *)&rows[R + p - i], *b = (const float *)&rows[R + p + i];
                        const float *d = (const float *)&q[p][R - i], *u = (const float *)&q[p][R + i];
                        v[j] += c_star[i] * (w[m - i] + w[m + i] + a[j] + b[j] + d[j] + u[j]);
                    }
                    v[j] = copy[p][j] ? w[m] : v[j];
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
        copy_box<C::NT>(in_up, out_up, pitch, plane_up, nx - right, 2, ny - below, ny, zlo, zhi);
}

// ---- queue4's tail: a thin remainder of the grid, one point per thread ----
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

// The kernel a launch of radius R runs: staged where the stage fits (orders 8, 12; Quad's comment), the
// strips' instantiation where the grid has strips (star_queue4's comment).
typedef void queue4_fn(const float *, float *, int, int, int, int, int, int, bool);
struct queue4_kernel {
    queue4_fn *fn;
    size_t smem;
    int by;  // the block is 32 x by threads
};

template <int R, bool STAGED, int AHEAD = 3, int LEAD = AHEAD - 1>
static struct queue4_kernel queue4_of(bool strips)
{
    using S = Quad<R, STAGED, AHEAD, true, LEAD>;
    using N = Quad<R, STAGED, AHEAD, false, LEAD>;
    if (strips) return {star_queue4<R, STAGED, true, AHEAD, LEAD>, S::SMEM, S::BY};
    return {star_queue4<R, STAGED, false, AHEAD, LEAD>, N::SMEM, N::BY};
}

template <int R>
static struct queue4_kernel queue4_pick(const struct problem *p, bool strips)
{
    if constexpr (R > 5) {  // the halo 5 planes ahead (166 KB: an H100), 4 (142 KB: an A100) or 3 (119 KB)
        if (Quad<R, true, 5>::SMEM <= p->smem_optin) return queue4_of<R, true, 5>(strips);
        if (Quad<R, true, 4>::SMEM <= p->smem_optin) return queue4_of<R, true, 4>(strips);
        if (Quad<R, true>::SMEM <= p->smem_optin) return queue4_of<R, true>(strips);
    }
    // order 8: the stage 1 plane early; the halo 3 planes ahead where two blocks of that fit an SM
    // (92.5 KB: an H100), else 2 round a ring of 5 (80 KB: an A100 holds two of those)
    if constexpr (R == 4) {
        if (2 * Quad<R, true, 3, false, 1>::SMEM <= p->smem_optin) return queue4_of<R, true, 3, 1>(strips);
        if (Quad<R, true, 2>::SMEM <= p->smem_optin) return queue4_of<R, true, 2>(strips);
    }
    if (Quad<R>::SMEM <= p->smem_optin) return queue4_of<R, false>(strips);
    // a GPU with less shared memory a block: the halo one plane ahead, a ring of 4
    return queue4_of<R, false, 1>(strips);
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
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k.fn, 32 * k.by, k.smem));
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
// *odd_down (where not NULL): whether odd chunks walk down z. Two z chunks of a tile share 2R
// planes, read at the end of one and (its queue's fill) at the start of the other; the second
// read comes from L2 only if the two are close in time. Blocks start in launch order, block
// i + slots when block i ends, so chunk c + 1 of a tile starts tiles/slots of a block's time after
// chunk c. Walking up, c + 1 reads the shared planes 1 - tiles/slots before c does; with odd
// chunks walking down, c and c + 1 both end there (and c + 1 and c + 2 both start there),
// tiles/slots apart. So a small grid (tiles < 0.4 slots) walks odd chunks down: on an H100,
// 376^3 +3.9% at order 8 (DRAM reads 4.33 bytes a point, as at 512^3) and +3.2% at order 2,
// 512^3 +0.6% at order 2; from 0.45 up it cost 0.3-2% (512^3 at orders 8 and 12, 800x800x400).
static int queue4_chunk(const struct problem *p, int r, bool *odd_down)
{
    const size_t nz = p->n[2], key[6] = {p->n[0], p->n[1], nz, (size_t)r, (size_t)p->sm_count, p->smem_optin};
    static size_t last[6], last_zc;  // the key of the last answer
    static bool last_down;
    bool same = last_zc != 0;
    for (int i = 0; i < 6; i++) same = same && last[i] == key[i];
    if (!same) {
        size_t xm, ym;
        queue4_extent(p, &xm, &ym);
        const size_t tiles = (size_t)ceil_div(xm, QUAD_W) * ceil_div(ym, QUAD_H);
        const size_t slots = (size_t)queue4_resident(p, r) * p->sm_count;
        for (int i = 0; i < 6; i++) last[i] = key[i];
        last_zc = quad_zchunk(tiles, nz, slots, r);
        last_down = 5 * tiles < 2 * slots;
    }
    if (odd_down) *odd_down = last_down;
    return (int)last_zc;
}

template <int R>
static void launch_queue4_r(const struct problem *p, const struct context *ctx)
{
    bool odd_down;
    const int zc = queue4_chunk(p, R, &odd_down), nx = (int)p->n[0], ny = (int)p->n[1], nz = (int)p->n[2];
    const int pitch = (int)p->pitch;
    size_t xm, ym;
    queue4_extent(p, &xm, &ym);
    const int strips = queue4_strips(p, xm, ym);
    const bool past = strips && R > RING_STRIPS_MAX_R;  // a column and a row of blocks past the tiles copy them
    const dim3 grid(ceil_div(xm, QUAD_W) + (past && (strips & 15)), ceil_div(ym, QUAD_H) + (past && (strips >> 4)),
                    ceil_div(p->n[2], zc));
    const struct queue4_kernel k = queue4_pick<R>(p, strips != 0);
    k.fn<<<grid, dim3(32, k.by), k.smem, ctx->stream>>>(ctx->in[0], ctx->out[0], nx, ny, nz, pitch, zc, strips, odd_down);
    size_t tail = (p->n[0] - xm) * p->n[1] + xm * (p->n[1] - ym);  // the points outside x < xm, y < ym
    if (tail && !strips)
        star_tail<R><<<dim3(ceil_div(tail, 256), (unsigned)(nz < 65535 ? nz : 65535)), 256, 0, ctx->stream>>>(
            ctx->in[0], ctx->out[0], nx, ny, nz, pitch, (int)xm, (int)ym);
}

static inline void queue4_launch(const struct problem *p, const struct context *ctx)
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

static inline const char *queue4_refuse(const struct problem *p)
{
    int r = star_radius(p);
    if (queue4_least_smem(r) > p->smem_optin) return "a ring of 4 shared planes does not fit in this GPU's shared memory";
    size_t xm, ym;  // the tail's grid needs no test: at most 8 ny + 4 nx points, 256 a block
    queue4_extent(p, &xm, &ym);
    const bool past_y = r > RING_STRIPS_MAX_R && (queue4_strips(p, xm, ym) >> 4);  // a row of blocks past the tiles
    return refuse_grid(p, ceil_div(ym, QUAD_H) + past_y, ceil_div(p->n[2], queue4_chunk(p, r, NULL)));
}

// What the kernel loads: per plane of its chunk the 128x16 tile and halos of whole quads (k rows
// of 128, 8*XQ columns of 16), and the tile for k more planes to fill the queue.
static inline void queue4_model(const struct problem *p, double *r, double *w)
{
    int rad = star_radius(p);
    double n = QUAD_W, m = QUAD_H, k = 2 * rad, xq = (rad + 3) / 4, zc = queue4_chunk(p, rad, NULL);
    *r = (n * m * (zc + k) + (k * n + 8 * xq * m) * zc) / (n * m * zc);
    *w = 1;
}

// The shared memory of a kernel of queue4 (above 48 KB a kernel must opt in), where it fits.
template <int R, bool STAGED, int AHEAD = 3, int LEAD = AHEAD - 1>
static void allow_smem(const struct problem *p)
{
    constexpr size_t smem = Quad<R, STAGED, AHEAD, false, LEAD>::SMEM;
    if (smem > p->smem_optin) return;
    CUDA_CHECK(cudaFuncSetAttribute(star_queue4<R, STAGED, false, AHEAD, LEAD>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CUDA_CHECK(cudaFuncSetAttribute(star_queue4<R, STAGED, true, AHEAD, LEAD>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
}

// Before any timing: every kernel's shared memory (the weights are star.cuh's star_setup).
static inline void queue4_setup(const struct problem *p)
{
    allow_smem<1, false>(p);
    allow_smem<2, false>(p);
    allow_smem<3, false>(p);
    allow_smem<4, false>(p);
    allow_smem<5, false>(p);
    allow_smem<6, false>(p);
    allow_smem<6, true>(p);  // order 12's stage
    allow_smem<6, true, 4>(p);
    allow_smem<6, true, 5>(p);
    allow_smem<4, true, 3, 1>(p);  // and at order 8, the halo 3 ahead and the stage 1 early
    allow_smem<4, true, 2>(p);  // or the halo 2 ahead
    allow_smem<1, false, 1>(p);  // a ring of 4, for GPUs with less shared memory a block
    allow_smem<2, false, 1>(p);
    allow_smem<3, false, 1>(p);
    allow_smem<4, false, 1>(p);
    allow_smem<5, false, 1>(p);
    allow_smem<6, false, 1>(p);
}
#endif
