// SPDX-License-Identifier: MIT
// Lab 9's host side under mpirun (no GPU): the slabs, the gather and the exchange of ghost
// planes between neighbouring ranks, with MPI (common/harness/ranks.c built with -DSTENCIL_MPI).
//   mpirun -np N build/tests/ranks        TAP from rank 0; each check holds on every rank
// Each rank owns the planes of slab_of(NZ, N, rank) of a grid whose point i holds the value i;
// after the exchange its ghost planes must hold its neighbours' planes.
#include <stdio.h>
#include <stdlib.h>

#include "ranks.h"
#include "tap.h"

enum { NX = 5, NY = 3, NZ = 23, G = 4 };

// Every rank runs every check (so that the collectives match); rank 0 prints.
static int quiet;
#define check(cond, ...) (quiet ? (void)ranks_all(cond) : (void)ok(ranks_all(cond), __VA_ARGS__))

int main(int argc, char **argv)
{
    ranks_init(&argc, &argv);
    const int rank = ranks_rank(), size = ranks_size();
    quiet = rank != 0;
    if (!quiet) printf("# cuda-aware %d\n", ranks_cuda_aware());  // 10-unit.t compares with ompi_info
    const size_t plane = NX * NY;
    struct slab s = slab_of(NZ, size, rank);
    if (slab_refuse(NZ, size, G)) {
        if (!quiet) printf("1..0 # SKIP %s\n", slab_refuse(NZ, size, G));
        ranks_finalize();
        return 0;
    }
    // the slab with G ghost planes on each side; ghosts start as -1
    float *a = malloc((s.nz + 2 * G) * plane * sizeof *a), *own = a + G * plane;
    for (size_t i = 0; i < (s.nz + 2 * G) * plane; i++) a[i] = -1;
    for (size_t i = 0; i < s.nz * plane; i++) own[i] = (float)(s.z0 * plane + i);

    // the first G owned planes go down, the last G up; the ghosts come back
    halo_exchange(own, own + (s.nz - G) * plane, a, own + s.nz * plane, G * plane);
    int lo_ok = 1, hi_ok = 1, far_ok = 1;
    for (size_t k = 0; k < G * plane; k++) {
        const long below = (long)(s.z0 * plane) - (long)(G * plane) + (long)k, above = (long)((s.z0 + s.nz) * plane + k);
        lo_ok &= rank == 0 ? a[k] == -1 : a[k] == (float)below;
        hi_ok &= rank == size - 1 ? own[s.nz * plane + k] == -1 : own[s.nz * plane + k] == (float)above;
    }
    for (size_t i = 0; i < s.nz * plane; i++) far_ok &= own[i] == (float)(s.z0 * plane + i);
    check(lo_ok, "%d ranks: the ghost planes below hold the %d planes of the rank below (the first rank's stay untouched)", size, G);
    check(hi_ok, "%d ranks: the ghost planes above hold the %d planes of the rank above (the last rank's stay untouched)", size, G);
    check(far_ok, "%d ranks: the owned planes are not changed by the exchange", size);

    // the same with the transfers posted, other work, then waited for
    for (size_t k = 0; k < G * plane; k++) a[k] = own[s.nz * plane + k] = -2;
    halo_start(own, own + (s.nz - G) * plane, a, own + s.nz * plane, G * plane);
    double sum = 0;
    for (size_t i = 0; i < s.nz * plane; i++) sum += own[i];  // the interior's work, meanwhile
    halo_finish();
    int again = 1;
    for (size_t k = 0; k < G * plane; k++)
        again &= (rank == 0 || a[k] == (float)((long)(s.z0 * plane) - (long)(G * plane) + (long)k)) &&
                 (rank == size - 1 || own[s.nz * plane + k] == (float)((s.z0 + s.nz) * plane + k));
    check(again && sum > -1, "%d ranks: halo_start, work, halo_finish: the same ghost planes", size);

    // the gather: rank 0 gets the whole grid in order
    float *all = rank == 0 ? malloc(NZ * plane * sizeof *all) : NULL;
    ranks_gather(own, s.nz * plane, all);
    int gathered = 1;
    if (rank == 0)
        for (size_t i = 0; i < NZ * plane; i++) gathered &= all[i] == (float)i;
    check(gathered, "%d ranks: the gather puts every slab in its place on rank 0", size);
    check(ranks_max(rank) == size - 1, "%d ranks: ranks_max of the rank numbers is %d", size, size - 1);
    check(ranks_local() >= 0 && ranks_local() < size, "%d ranks: each knows its place on its host", size);
    free(a);
    free(all);
    int failed = quiet ? 0 : done_testing();
    ranks_finalize();
    return failed;
}
