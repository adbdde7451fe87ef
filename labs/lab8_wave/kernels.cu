// SPDX-License-Identifier: MIT
// Lab 8 (wave), the kernels: one leapfrog step of the acoustic wave equation per launch,
//   u_next = 2 u - u_prev + vsq * L8 u   (the 25-point star of order 8; zero on the boundary layer)
// and the launches that chain S steps. A step reads three arrays and writes one: at best 16
// bytes per point-step, twice lab 5's stencil. The variants: the naive kernel, 003's tile with a
// register queue at its two tile sizes (Table 2), and lab 5b's fastest kernel carried over.
// Build and run: make lab8 && ./lab8        (make sol8 && ./sol8 for the solution)
// The problem (lab.c): ctx->in[0] = u(-dt), ctx->in[1] = u(0), ctx->in[2] = vsq; leave u(S dt) in
// ctx->out[0]; ctx->scratch[0] is a work array. Launch on ctx->stream.
#include "wave_queue4.cuh"  // queue4_128x16, given: wave.cuh's weights, struct wave_step

// ---- what every variant shares: the update of one point, and the chain of S steps ----

// A step's arguments are wave_queue4.cuh's struct wave_step: u (the current level), u_prev and
// vsq in, the new level into next (which may be u_prev itself: in place), rows pitch elements
// apart (nx rounded up to 32, lab.h), the source's element src (SIZE_MAX: none) and what the step
// adds there, amp. The naive kernel updates the points of the box x0 <= x < x1, y0 <= y < y1
// (here the whole plane; the arrays are the whole grid, so zg = 0).
typedef void step_fn(const struct problem *p, const struct wave_step *a, cudaStream_t stream);

// S steps over two arrays: the first step writes A, the second B, then each step overwrites
// the oldest level, which is the array it writes. A is the output when S is odd, so that the
// last level always lands in ctx->out[0].
static void run_steps(const struct problem *p, const struct context *ctx, step_fn *step)
{
    float *a = p->steps % 2 ? ctx->out[0] : ctx->scratch[0], *b = p->steps % 2 ? ctx->scratch[0] : ctx->out[0];
    struct wave_step s = {ctx->in[1], ctx->in[0], ctx->in[2], NULL, (int)p->n[0], (int)p->pitch, (int)p->n[1],
                          (int)p->n[2], 0, (int)p->param[WAVE_SPONGE], p->source ? device_index(p, p->source_at) : SIZE_MAX,
                          0.f, 0, (int)p->n[0], 0, (int)p->n[1], 0, (int)p->n[2]};
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

__global__ void __launch_bounds__(256) wave_naive(struct wave_step a)
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
    a.next[i] = v;
}

static void step_naive(const struct problem *p, const struct wave_step *a, cudaStream_t stream)
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
__global__ void __launch_bounds__(TX *TY) wave_queue(struct wave_step a, int zchunk)
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
    }
}

// z chunks for about 16 blocks per SM (wave_zchunk, in wave_queue4.cuh: never shorter than 4R planes)
template <int TX, int TY, int PY>
static int queue_chunk(const struct problem *p)
{
    return wave_zchunk(p, p->n[2], (size_t)ceil_div(p->n[0], TX) * ceil_div(p->n[1], TY * PY), 16);
}

template <int TX, int TY, int PY>
static void step_queue(const struct problem *p, const struct wave_step *a, cudaStream_t stream)
{
    int zc = queue_chunk<TX, TY, PY>(p);
    dim3 block(TX, TY), grid(ceil_div(p->n[0], TX), ceil_div(p->n[1], TY * PY), ceil_div(p->n[2], zc));
    wave_queue<TX, TY, PY><<<grid, block, 0, stream>>>(*a, zc);
}

template <int TX, int TY, int PY>
static const char *refuse_queue(const struct problem *p)
{
    if (ceil_div(p->n[1], TY * PY) > 65535 || ceil_div(p->n[2], queue_chunk<TX, TY, PY>(p)) > 65535)
        return "too many blocks along y or z for the grid (65535 at most)";
    return refuse_int(p);
}

// 003's model: an n x m tile reads (n m + k n + k m) values of u per plane, each z chunk k more
// planes for its queue; plus u_prev and vsq once.
template <int TX, int TY, int PY>
static void model_queue(const struct problem *p, double *r, double *w)
{
    double n = TX, m = TY * PY, k = 2 * WAVE_R;
    double zc = queue_chunk<TX, TY, PY>(p);
    *r = (n * m + k * n + k * m) / (n * m) + k / zc + 2;
    *w = 1;
}

extern "C" void launch_queue_16x16(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, step_queue<16, 16, 1>); }
extern "C" const char *refuse_queue_16x16(const struct problem *p) { return refuse_queue<16, 16, 1>(p); }
extern "C" void model_queue_16x16(const struct problem *p, double *r, double *w) { model_queue<16, 16, 1>(p, r, w); }
extern "C" void launch_queue_32x32(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, step_queue<32, 16, 2>); }
extern "C" const char *refuse_queue_32x32(const struct problem *p) { return refuse_queue<32, 16, 2>(p); }
extern "C" void model_queue_32x32(const struct problem *p, double *r, double *w) { model_queue<32, 16, 2>(p, r, w); }

// ---- 3. queue4_128x16: lab 5b's fastest kernel, carried over (given: wave_queue4.cuh) ----

extern "C" void launch_queue4_128x16(const struct problem *p, const struct context *ctx) { run_steps(p, ctx, queue4_step); }

extern "C" const char *refuse_queue4_128x16(const struct problem *p)
{
    if (!queue4_fits(p)) return "a ring of 4 shared planes does not fit in this GPU's shared memory";
    return queue4_refuse(p, p->n[2]);
}

// u_prev and vsq once, one write; the tile's reads of u in wave_queue4.cuh.
extern "C" void model_queue4_128x16(const struct problem *p, double *r, double *w)
{
    *r = queue4_reads(p, p->n[2]) + 2;
    *w = 1;
}

// Before any timing: the weights, and the ring's shared memory (above 48 KB a kernel must opt in).
extern "C" void setup_kernels(const struct problem *p) { queue4_setup(p); }
