// SPDX-License-Identifier: MIT
// Lab 5a (register_tiling), the kernels: keep the values a thread alone needs in registers
// (004): the 7-point stencil with prev and next in registers and only the shared plane in
// shared memory, then without shared memory at all, the caches serving the x and y neighbours.
// Build and run: make lab5a && ./lab5a     (make sol5a && ./sol5a for the solution)
// The problem (lab.c): ctx->in[0] is the input, ctx->out[0] the output; launch on ctx->stream.
// Rows are padded (lab.h): point (x, y, z) is element x + pitch * (y + ny * z), pitch = p->pitch,
// a multiple of 64 floats, so every row starts 256-byte aligned.
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

// ---- 3. regcol4_z4: the same with four x points per thread, float4 loads and stores ----
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
    return refuse_grid(p, ceil_div(p->n[1], 8), ceil_div(p->n[2], ZP4));
}

extern "C" void model_regcol4_z4(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = 2 + 2.0 / 4 + (double)(ZP4 + 2) / ZP4;  // y: 2 per point, x: 2 per quad, z: the column
    *w = 1;
}

// Before any timing: the weights.
extern "C" void setup_kernels(const struct problem *p) { star_setup(p); }
