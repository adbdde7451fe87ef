// SPDX-License-Identifier: MIT
// Lab 3 (shared_tiling), the kernels: the 7-point stencil from a 3D tile in shared memory (004). A block of
// T^3 threads loads a T^3 input tile, one value per thread, and the (T-2)^3 threads inside it
// compute the output tile from shared memory. Each input value is loaded by up to 8 blocks (the
// halos overlap), so the read redundancy is T^3 / (T-2)^3; the lab compares the tiles with lab
// 2's naive kernel.
// Build and run: make lab3 && ./lab3        (make sol3 && ./sol3 for the reference solution)
// The problem (lab.c): ctx->in[0] is the input, ctx->out[0] the output; launch on ctx->stream.
#include "star.cuh"

extern "C" void setup_kernels(const struct problem *p) { star_setup(p); }

template <int T>
__global__ void __launch_bounds__(T * T * T) star7_tiled(const float *in, float *out, int nx, int ny, int nz)
{
    static_assert(T >= 3 && T * T * T <= 1024, "a T^3 block needs 3 <= T <= 10");
    constexpr int OUT = T - 2;  // output tile edge
    __shared__ float tile[T][T][T];
    const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    // Each block's input tile starts one point before its output tile.
    const int x = blockIdx.x * OUT + tx - 1, y = blockIdx.y * OUT + ty - 1, z = blockIdx.z * OUT + tz - 1;
    const bool in_grid = x >= 0 && y >= 0 && z >= 0 && x < nx && y < ny && z < nz;
    const size_t sy = nx, sz = (size_t)nx * ny, s = z * sz + y * sy + x;
    // TODO(student): load this thread's input value into the tile (only if it is in the grid),
    // make the whole tile visible to the block, then let the threads of the output tile (not
    // on the tile's outer layer) write out[s]: the input on the faces of the grid, else
    // c_star[0]*centre + c_star[1]*(the six neighbours), all read from the tile.
    // BEGIN SOLUTION
    if (in_grid) tile[tz][ty][tx] = in[s];
    __syncthreads();
    const bool output = tx >= 1 && ty >= 1 && tz >= 1 && tx <= OUT && ty <= OUT && tz <= OUT;
    if (in_grid && output) {
        if (near_face(x, y, z, nx, ny, nz, 1))
            out[s] = tile[tz][ty][tx];
        else
            out[s] = c_star[0] * tile[tz][ty][tx] +
                     c_star[1] * (tile[tz][ty][tx - 1] + tile[tz][ty][tx + 1] + tile[tz][ty - 1][tx] +
                                  tile[tz][ty + 1][tx] + tile[tz - 1][ty][tx] + tile[tz + 1][ty][tx]);
    }
    // END SOLUTION
}

template <int T>
static void launch(const struct problem *p, const struct context *ctx)
{
    dim3 block(T, T, T), grid(ceil_div(p->n[0], T - 2), ceil_div(p->n[1], T - 2), ceil_div(p->n[2], T - 2));
    star7_tiled<T><<<grid, block, 0, ctx->stream>>>(ctx->in[0], ctx->out[0], (int)p->n[0], (int)p->n[1], (int)p->n[2]);
}

template <int T>
static const char *refuse(const struct problem *p)
{
    return refuse_grid(p, ceil_div(p->n[1], T - 2), ceil_div(p->n[2], T - 2));
}

// Model (004): a block reads T^3 values to write (T-2)^3, so the read redundancy is
// T^3/(T-2)^3 (halo reads of the neighbouring tiles), the write redundancy 1.
template <int T>
static void redundancy(const struct problem *p, double *r, double *w)
{
    (void)p;
    *r = (double)(T * T * T) / ((T - 2) * (T - 2) * (T - 2));
    *w = 1;
}

// The variants are the tile edges T = 4, 6, 8, 10.
#define TILE_VARIANT(T)                                                                                       \
    extern "C" void launch_tile_T##T(const struct problem *p, const struct context *ctx) { launch<T>(p, ctx); } \
    extern "C" const char *refuse_tile_T##T(const struct problem *p) { return refuse<T>(p); }                  \
    extern "C" void model_tile_T##T(const struct problem *p, double *r, double *w) { redundancy<T>(p, r, w); }
TILE_VARIANT(4)
TILE_VARIANT(6)
TILE_VARIANT(8)
TILE_VARIANT(10)
