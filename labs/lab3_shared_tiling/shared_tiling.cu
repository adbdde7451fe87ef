// SPDX-License-Identifier: MIT
// Lab 3 (shared_tiling): the 7-point stencil from a 3D tile in shared memory (004). A block of
// T^3 threads loads a T^3 input tile, one value per thread, and the (T-2)^3 threads inside it
// compute the output tile from shared memory. Each input value is loaded by up to 8 blocks (the
// halos overlap), so the read redundancy is T^3 / (T-2)^3; the question is what that buys on a
// GPU whose caches already serve the naive kernel's neighbour reads (lab 2).
// Build and run: make lab3 && ./lab3        (make sol3 && ./sol3 for the reference solution)
#include "star.cuh"

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
}

template <int T>
static void launch(const struct problem *p, const struct grids *g)
{
    dim3 block(T, T, T), grid(ceil_div(p->n[0], T - 2), ceil_div(p->n[1], T - 2), ceil_div(p->n[2], T - 2));
    star7_tiled<T><<<grid, block>>>(g->in, g->out, (int)p->n[0], (int)p->n[1], (int)p->n[2]);
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

static const struct variant VARIANTS[] = {
    {"tile_T4", "4^3 input tile, 2^3 output (64 threads)", launch<4>, refuse<4>, redundancy<4>, 0},
    {"tile_T6", "6^3 input tile, 4^3 output (216 threads)", launch<6>, refuse<6>, redundancy<6>, 0},
    {"tile_T8", "8^3 input tile, 6^3 output (512 threads)", launch<8>, refuse<8>, redundancy<8>, 0},
    {"tile_T10", "10^3 input tile, 8^3 output (1000 threads)", launch<10>, refuse<10>, redundancy<10>, 0},
};

static const struct lab LAB = {
    .number = 3,
    .name = "shared_tiling",
    .title = "7-point stencil from a T^3 shared-memory tile (T selectable as a variant)",
    .dims = 3,
    .default_n = {512, 512, 512},
    .min_n = {1, 1, 1},
    STAR_LAB_FIELDS,
    .variants = VARIANTS,
    .n_variants = sizeof VARIANTS / sizeof *VARIANTS,
};

int main(int argc, char **argv) { return lab_main(&LAB, argc, argv); }
