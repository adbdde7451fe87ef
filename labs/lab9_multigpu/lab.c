// SPDX-License-Identifier: MIT
// Lab 9 (multigpu), the definition: lab 8's wave (the same fields, options, inputs and CPU
// reference: common/stencils/wave.c) on N processes under mpirun, each on its own GPU (processes share
// GPUs when there are fewer). Every process owns a z-slab of the grid and holds WAVE_R ghost
// planes on each side of it: the harness uploads each slab with its ghost planes of the inputs,
// gathers the slabs of the answer on rank 0 and compares them with the reference of the whole
// grid. Between steps the kernels file exchanges the ghost planes (MPI through the host, NCCL, or the copy engines).
#include "definition.h"
#include "wave.h"

DECLARE_VARIANT(mpi_staged);
DECLARE_VARIANT(mpi_overlap);
DECLARE_VARIANT(nccl);
DECLARE_VARIANT(nccl_overlap);
DECLARE_VARIANT(nccl_graph);
DECLARE_VARIANT(copy_overlap);
setup_fn setup_kernels;  // the weights, the streams, the host buffers, the NCCL communicator

static const struct variant VARIANTS[] = {
    VARIANT(mpi_staged, "compute the slab, then its boundary planes through the host and MPI", 0),
    VARIANT(mpi_overlap, "003's scheme: the edges first, their MPI exchange behind the interior", 0),
    VARIANT(nccl, "compute the slab, then ncclSend/ncclRecv GPU to GPU (one rank per GPU)", 0),
    VARIANT(nccl_overlap, "the edges first, NCCL behind the interior (one rank per GPU)", 0),
    VARIANT_GIVEN(nccl_graph, "nccl_overlap's steps as one CUDA graph, replayed (given)", 0),
    VARIANT_GIVEN(copy_overlap, "nccl_overlap's schedule, the planes moved by the copy engines (given)", 0),
};

// A case's `npN` kind: run it under mpirun -np N (tests, make check and make bench do). Sizes
// whose nz the ranks do not divide, slabs as thin as the ghost zone, one rank, S = 1 and S odd,
// the source and the sponge across slab boundaries; a slab thinner than the ghost zone refused.
static const struct lab_case CASES[] = {
    {"test grade", "--size 64x40x37 --steps 5"},
    {"test grade np2", "--size 64x40x37 --steps 5"},
    {"test grade np3", "--size 48x36x50 --steps 1"},
    {"test grade np4", "--size 40x33x41 --steps 6 --model 1 --sponge 4"},
    {"test grade np4", "--size 36x28x16 --steps 3"},
    // queue4's whole tiles and its thin remainders (5 columns, 4 rows) in every slab, the source
    // in the second of three
    {"test grade np3", "--size 133x36x60 --steps 4 --model 1 --sponge 3"},
    {"test np2", "--size 512x512x512 --steps 4"},
    // synccheck overflows its table of tracked barriers on lab 8's queue4 (lab 8's definition says
    // more): memcheck and racecheck only
    {"small sanitize synccheck-todo", "--size 40x30x26 --steps 3"},
    // three processes, the middle one with two neighbours: the exchanges between processes
    // (copy_overlap's copies into memory mapped from another process) under the sanitizers too
    {"sanitize synccheck-todo np3", "--size 40x30x26 --steps 3"},
    {"refused np4", "--size 64x64x15"},
    {"too-big", "--size 3000x3000x3000"},
};

const struct lab LAB = {
    .id = "9",
    .name = "multigpu",
    .title = "lab 8's wave on N GPUs (mpirun -np N): z-slabs, ghost planes, the exchange behind the interior",
    WAVE_DEFINITION,  // lab 8's problem; the exchange's bytes are not counted in the 16 per point-step
    .setup = setup_kernels,
    .ghost = WAVE_R,
    .row_align = 32,  // every row 128-byte aligned: lab 8's queue4 computes the slabs
    LAB_TABLES,  // VARIANTS and CASES above
};
