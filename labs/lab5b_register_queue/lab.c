// SPDX-License-Identifier: MIT
// Lab 5b (register_queue), the definition: the order-k star stencil (k = 2..12, --order), points
// within k/2 of a face copying the input; its reference and cases. The kernels are in kernels.cu.
#include "definition.h"
#include "star.h"

void setup_kernels(const struct problem *p);
DECLARE_VARIANT(queue_16x16);
DECLARE_VARIANT(queue_32x32);
DECLARE_VARIANT(queue4_128x16);

static const struct variant VARIANTS[] = {
    VARIANT(queue_16x16, "003's register queue, 16x16 output tile, 16x16 threads", 0),
    VARIANT(queue_32x32, "003's register queue, 32x32 output tile, 32x16 threads (2 points each)", 0),
    VARIANT_GIVEN(queue4_128x16, "003's queue with float4 quads, 128x16 tile, a ring of 6 shared planes with mbarriers", 0),
};

// Every order, partial tiles, grids smaller than a tile or than the stencil, one chunk and many;
// nx a multiple of 64 (no padding), of 4 and not (padded rows, a partial quad at the end of each);
// queue4's remainders (a thin strip of columns or rows beyond its whole tiles: 513, 131, 132, 260).
static const struct lab_case CASES[] = {
    {"test grade", "--size 131x67x45"},
    {"test grade", "--size 1x1x3"},
    {"test grade", "--size 5x7x9"},
    {"test grade", "--size 513x7x9"},
    {"test grade", "--size 17x9x100"},
    {"test grade", "--order 4 --size 131x67x45"},
    {"test grade", "--order 6 --size 513x7x9"},
    {"test grade", "--order 8 --size 200x90x70"},
    {"test grade", "--order 10 --size 33x65x40"},
    {"test grade", "--order 12 --size 131x67x45"},
    {"test grade", "--order 12 --size 13x13x13"},
    {"test", "--order 8"},
    {"test", "--order 12"},
    {"test grade", "--size 4x4x4"},
    {"test grade", "--order 4 --size 8x300x17"},
    {"test grade", "--order 6 --size 516x37x45"},
    {"test grade", "--order 10 --size 260x19x40"},
    {"test grade", "--order 12 --size 132x7x29"},
    {"grade", "--order 8 --size 260x45x31"},
    // queue4 leaves a remainder wider than k/2 to its tail kernel (5 columns on the right, 4 rows
    // at the bottom; 8 columns, the widest it leaves, at order 12)
    {"test sanitize", "--order 6 --size 133x36x12"},
    {"test", "--order 12 --size 136x20x30"},
    // a remainder at most k/2 wide: up to order 8 queue4's last tiles write it from their ring and
    // copy_box the corner (both strips and the corner at orders 8, 2 (one column, one row) and 4;
    // the bottom strip alone beside a partial tile column at order 6, the right strip alone beside
    // a partial tile row at order 4); above order 8 blocks past the tiles copy it (order 10:
    // 260x19x40 above; order 12: 131x17x553 below, 131x67x45 and 132x7x29 above, with the stage)
    {"test sanitize", "--order 8 --size 260x20x20"},
    {"test sanitize", "--size 129x33x20"},
    {"test", "--order 4 --size 130x34x20"},
    {"test", "--order 6 --size 70x35x20"},
    {"test", "--order 4 --size 129x45x20"},
    // queue4's stage at order 12 over many z chunks, the last of one and of two planes (one tile:
    // chunks of 4R = 24 planes, 24 of them, as long as the GPU holds 24 blocks); the same at order
    // 8 (chunks of 16 planes, 18 of them), without strips and with them; and the strips at order 8
    // over 13 chunks of 16 planes, the last of 4
    {"test sanitize synccheck-todo", "--order 12 --size 131x17x553"},  // (synccheck: below)
    {"test", "--order 12 --size 131x17x554"},
    {"test sanitize synccheck-todo", "--order 8 --size 128x16x273"},
    {"test", "--order 8 --size 131x17x274"},
    {"test", "--order 8 --size 260x20x196"},
    {"small sanitize", "--size 67x45x31"},
    // synccheck overflows its table of tracked barriers on queue4_128x16 at order 12 (512-thread
    // blocks, a ring of 6 to 8 mbarriers; --num-cuda-barriers 6, 16 and 64 did not help) and at
    // order 8 without strips (two 256-thread blocks an SM; 16 did not help), and the kernel dies
    // under it; without the tool every size and order PASSes, memcheck and racecheck are clean.
    {"sanitize synccheck-todo", "--size 68x45x31 --order 8"},
    {"sanitize synccheck-todo", "--size 40x70x30 --order 12"},
    {"too-big", "--size 5000"},
};

const struct lab LAB = {
    .id = "5b",
    .name = "register_queue",
    .title = "order-k star stencils with 003's register queue along z",
    CUBE_512,
    // every row 256-byte aligned: the float4 kernels need no test for it, and on an H200 queue4 ran
    // up to 2.5% faster at nx = 513 and 544 than with rows of 32 floats (128 bytes)
    .row_align = 64,
    .default_order = 2,
    .order_ok = star_order_ok,
    STAR_LAB_FIELDS,
    LAB_TABLES,  // VARIANTS and CASES above
};
