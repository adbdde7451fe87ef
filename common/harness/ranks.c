// SPDX-License-Identifier: MIT
// The processes of a run and their slabs (ranks.h). Without STENCIL_MPI: one rank.
#include "ranks.h"
#include "harness.h"  // abort_all_ranks

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct slab slab_of(size_t nz, int ranks, int rank)
{
    const size_t base = nz / (size_t)ranks, extra = nz % (size_t)ranks, r = (size_t)rank;
    struct slab s = {r * base + (r < extra ? r : extra), base + (r < extra)};
    return s;
}

const char *slab_refuse(size_t nz, int ranks, int ghost)
{
    static char why[160];
    const size_t thinnest = nz / (size_t)ranks;  // the last slab's planes
    if (ranks > 1 && thinnest < (size_t)ghost) {
        snprintf(why, sizeof why, "%d ranks give slabs of %zu planes, thinner than the %d ghost planes "
                 "a neighbour must send: use fewer ranks or a larger nz", ranks, thinnest, ghost);
        return why;
    }
    return NULL;
}

#ifdef STENCIL_MPI
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's extensions: MPIX_Query_cuda_support
#endif

// MPI counts are int: a message larger than INT_MAX floats is refused rather than truncated.
static int mpi_count(size_t n)
{
    if (n > 2147483647u) {
        fprintf(stderr, "ranks: a message of %zu floats is larger than MPI's int count\n", n);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    return (int)n;
}

static int g_rank, g_size = 1, g_local;

// A fatal error on one process (common/harness/program.c's fatal_exit) ends them all: the others may be
// waiting for it in a collective, or behind an NCCL kernel waiting for its peer.
static void abort_all(int status) { MPI_Abort(MPI_COMM_WORLD, status); }

void ranks_init(int *argc, char ***argv)
{
    MPI_Init(argc, argv);
    abort_all_ranks = abort_all;
    MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &g_size);
    MPI_Comm host;  // the ranks that share this host (and its GPUs)
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, g_rank, MPI_INFO_NULL, &host);
    MPI_Comm_rank(host, &g_local);
    MPI_Comm_free(&host);
}
void ranks_finalize(void) { MPI_Finalize(); }
int ranks_rank(void) { return g_rank; }
int ranks_size(void) { return g_size; }
int ranks_local(void) { return g_local; }
void ranks_barrier(void) { MPI_Barrier(MPI_COMM_WORLD); }

double ranks_max(double v)
{
    double m;
    MPI_Allreduce(&v, &m, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return m;
}

uint64_t ranks_sum_u64(uint64_t v)
{
    uint64_t s;
    MPI_Allreduce(&v, &s, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return s;
}

int ranks_all(int ok)
{
    int v = ok != 0, all;
    MPI_Allreduce(&v, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    return all;
}

void ranks_bcast(void *data, size_t bytes) { MPI_Bcast(data, mpi_count(bytes), MPI_BYTE, 0, MPI_COMM_WORLD); }
void ranks_allgather(const void *mine, size_t bytes, void *all)
{
    MPI_Allgather(mine, mpi_count(bytes), MPI_BYTE, all, mpi_count(bytes), MPI_BYTE, MPI_COMM_WORLD);
}

void ranks_gather(const float *mine, size_t count, float *all)
{
    int n = mpi_count(count), *counts = NULL, *at = NULL;
    if (g_rank == 0) {
        counts = malloc((size_t)g_size * sizeof *counts);
        at = malloc((size_t)g_size * sizeof *at);
        if (!counts || !at) MPI_Abort(MPI_COMM_WORLD, 2);
    }
    MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (g_rank == 0) {
        size_t sum = 0;
        for (int r = 0; r < g_size; r++) at[r] = mpi_count(sum), sum += (size_t)counts[r];
    }
    MPI_Gatherv(mine, n, MPI_FLOAT, all, counts, at, MPI_FLOAT, 0, MPI_COMM_WORLD);
    free(counts);
    free(at);
}

int ranks_distinct(const void *key, size_t bytes)
{
    unsigned char *all = malloc((size_t)g_size * bytes);
    if (!all) MPI_Abort(MPI_COMM_WORLD, 2);
    ranks_allgather(key, bytes, all);
    int distinct = 0;
    for (int r = 0; r < g_size; r++) {
        int seen = 0;
        for (int q = 0; q < r && !seen; q++) seen = !memcmp(all + (size_t)q * bytes, all + (size_t)r * bytes, bytes);
        distinct += !seen;
    }
    free(all);
    return distinct;
}

int ranks_cuda_aware(void)
{
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
    return MPIX_Query_cuda_support();  // built with CUDA, and not switched off for this run
#else
    return 0;
#endif
}

static MPI_Request g_req[4];
static int g_nreq;

void halo_start(const float *send_lo, const float *send_hi, float *recv_lo, float *recv_hi, size_t count)
{
    const int n = mpi_count(count), below = g_rank - 1, above = g_rank + 1;
    g_nreq = 0;
    // tags name the direction of travel: 0 upwards (to rank + 1), 1 downwards
    if (below >= 0) {
        MPI_Irecv(recv_lo, n, MPI_FLOAT, below, 0, MPI_COMM_WORLD, &g_req[g_nreq++]);
        MPI_Isend(send_lo, n, MPI_FLOAT, below, 1, MPI_COMM_WORLD, &g_req[g_nreq++]);
    }
    if (above < g_size) {
        MPI_Irecv(recv_hi, n, MPI_FLOAT, above, 1, MPI_COMM_WORLD, &g_req[g_nreq++]);
        MPI_Isend(send_hi, n, MPI_FLOAT, above, 0, MPI_COMM_WORLD, &g_req[g_nreq++]);
    }
}

void halo_finish(void)
{
    MPI_Waitall(g_nreq, g_req, MPI_STATUSES_IGNORE);
    g_nreq = 0;
}

#else  // one rank

// Started by mpirun as one of several processes: each would run the whole lab on its own.
void ranks_init(int *argc, char ***argv)
{
    (void)argc;
    const char *n = getenv("OMPI_COMM_WORLD_SIZE") ? getenv("OMPI_COMM_WORLD_SIZE") : getenv("PMI_SIZE");
    if (n && atoi(n) > 1) {
        if (!getenv("OMPI_COMM_WORLD_RANK") || atoi(getenv("OMPI_COMM_WORLD_RANK")) == 0)
            fprintf(stderr, "%s: this lab runs as one process (lab 9 is the one for mpirun)\n", (*argv)[0]);
        exit(2);
    }
}
void ranks_finalize(void) {}
int ranks_rank(void) { return 0; }
int ranks_size(void) { return 1; }
int ranks_local(void) { return 0; }
void ranks_barrier(void) {}
double ranks_max(double v) { return v; }
uint64_t ranks_sum_u64(uint64_t v) { return v; }
int ranks_all(int ok) { return ok != 0; }
void ranks_bcast(void *data, size_t bytes) { (void)data, (void)bytes; }
void ranks_allgather(const void *mine, size_t bytes, void *all) { memcpy(all, mine, bytes); }
int ranks_distinct(const void *key, size_t bytes) { (void)key, (void)bytes; return 1; }
int ranks_cuda_aware(void) { return 0; }
void ranks_gather(const float *mine, size_t count, float *all) { memcpy(all, mine, count * sizeof *all); }
void halo_start(const float *send_lo, const float *send_hi, float *recv_lo, float *recv_hi, size_t count)
{
    (void)send_lo, (void)send_hi, (void)recv_lo, (void)recv_hi, (void)count;
}
void halo_finish(void) {}

#endif

void halo_exchange(const float *send_lo, const float *send_hi, float *recv_lo, float *recv_hi, size_t count)
{
    halo_start(send_lo, send_hi, recv_lo, recv_hi, count);
    halo_finish();
}
