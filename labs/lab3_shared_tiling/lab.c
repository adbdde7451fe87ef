// SPDX-License-Identifier: MIT
// Lab 3 (shared_tiling), the definition: the 7-point stencil of lab 2, computed from T^3 tiles
// in shared memory (T a variant); its reference and cases. The kernels are in kernels.cu.
#include "definition.h"
#include "star.h"

void setup_kernels(const struct problem *p);
DECLARE_VARIANT(tile_T4);
DECLARE_VARIANT(tile_T6);
DECLARE_VARIANT(tile_T8);
DECLARE_VARIANT(tile_T10);

static const struct variant VARIANTS[] = {
    VARIANT(tile_T4, "4^3 input tile, 2^3 output (64 threads)", 0),
    VARIANT(tile_T6, "6^3 input tile, 4^3 output (216 threads)", 0),
    VARIANT(tile_T8, "8^3 input tile, 6^3 output (512 threads)", 0),
    VARIANT(tile_T10, "10^3 input tile, 8^3 output (1000 threads)", 0),
};

// Partial tiles in every dimension, grids smaller than one tile, a long thin z.
static const struct lab_case CASES[] = {
    {"test grade", "--size 131x67x45"}, {"test grade", "--size 1x1x3"},  {"test grade", "--size 3x3x3"},
    {"test grade", "--size 5x5x5"},     {"test grade", "--size 513x7x9"}, {"test grade", "--size 17x9x100"},
    {"test grade", "--size 64"},        {"small sanitize", "--size 67x45x31"},
    {"too-big", "--size 5000"},
};

const struct lab LAB = {
    .id = "3",
    .name = "shared_tiling",
    .title = "7-point stencil from a T^3 shared-memory tile (T selectable as a variant)",
    CUBE_512,
    STAR_LAB_FIELDS,
    LAB_TABLES,  // VARIANTS and CASES above
};
