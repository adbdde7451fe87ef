// SPDX-License-Identifier: MIT
// The processes of a run and the slabs they own: one process for labs 1-8, N under mpirun for
// lab 9. common/harness/ranks.c is compiled twice: plainly (one rank, no MPI) and with -DSTENCIL_MPI
// (build/common/ranks-mpi.o, for the programs that link MPI). Plain C, host only.
#ifndef RANKS_H
#define RANKS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

// ---- the processes ----
void ranks_init(int *argc, char ***argv);  // MPI_Init (MPI build); call once, first
void ranks_finalize(void);                 // MPI_Finalize
int ranks_rank(void);                      // this process: 0 .. ranks_size() - 1
int ranks_size(void);
int ranks_local(void);                     // this process among those on its host (picks the GPU)
void ranks_barrier(void);
double ranks_max(double v);                // the largest v over the ranks, on every rank
uint64_t ranks_sum_u64(uint64_t v);      // the sum over the ranks (mod 2^64), on every rank
int ranks_all(int ok);                     // 1 when ok is true on every rank, on every rank
void ranks_bcast(void *data, size_t bytes);  // rank 0's bytes to every rank
void ranks_allgather(const void *mine, size_t bytes, void *all);  // every rank's bytes, in rank order, to every rank
int ranks_distinct(const void *key, size_t bytes);  // how many different keys the ranks hold
int ranks_cuda_aware(void);  // 1 when this MPI takes GPU pointers (built and enabled so: asked at run time)
// Rank 0 receives every rank's `count` floats of `mine` in rank order into `all` (size the sum of
// the counts); the other ranks pass all = NULL.
void ranks_gather(const float *mine, size_t count, float *all);

// ---- the slabs: the z planes are shared out in rank order, the first nz % ranks one more ----
struct slab {
    size_t z0, nz;  // owned planes z0 .. z0 + nz - 1
};
struct slab slab_of(size_t nz, int ranks, int rank);
// NULL when every slab of nz planes over `ranks` ranks holds at least `ghost` planes (a ghost
// zone comes from one neighbour), else one line saying why not (static storage).
const char *slab_refuse(size_t nz, int ranks, int ghost);

// ---- ghost planes on the host: `count` floats to and from each z neighbour ----
// The rank below (rank - 1) gets send_lo and answers into recv_lo; the rank above gets send_hi
// and answers into recv_hi. The first and last rank skip their missing neighbour (its buffers
// are neither read nor written). halo_start posts the transfers, halo_finish waits for them.
// With one rank (or without MPI) there is nothing to exchange.
void halo_start(const float *send_lo, const float *send_hi, float *recv_lo, float *recv_hi, size_t count);
void halo_finish(void);
void halo_exchange(const float *send_lo, const float *send_hi, float *recv_lo, float *recv_hi, size_t count);

#ifdef __cplusplus
}
#endif

#endif
