// SPDX-License-Identifier: MIT
// Lab 5a (register_tiling), the definition: the 7-point stencil of lab 2, points on a face copying
// the input; its reference and cases. The kernels are in kernels.cu.
#include "definition.h"
#include "star.h"

void setup_kernels(const struct problem *p);
DECLARE_VARIANT(regtile_7pt);
DECLARE_VARIANT(regcol_z8);
DECLARE_VARIANT(regcol4_z4);

static const struct variant VARIANTS[] = {
    VARIANT(regtile_7pt, "004's register tiling: prev/next in registers, 32x32 blocks", 0),
    VARIANT(regcol_z8, "8 z points per thread, column in registers, x/y neighbours from the caches", 0),
    VARIANT(regcol4_z4, "4 x points (a float4 quad) and 4 z points per thread", 0),
};

// Partial tiles, grids smaller than a tile, one chunk and many; nx a multiple of 64 (no padding),
// of 4 and not (padded rows, a partial quad at the end of each).
static const struct lab_case CASES[] = {
    {"test grade", "--size 131x67x45"},
    {"test grade", "--size 1x1x3"},
    {"test grade", "--size 5x7x9"},
    {"test grade", "--size 513x7x9"},
    {"test grade", "--size 17x9x100"},
    {"test grade", "--size 4x4x4"},
    {"test grade", "--size 516x37x45"},
    {"test grade", "--size 8x300x17"},
    {"grade", "--size 260x45x31"},
    {"test sanitize", "--size 129x33x20"},
    {"small sanitize", "--size 67x45x31"},
    {"too-big", "--size 5000"},
};

const struct lab LAB = {
    .id = "5a",
    .name = "register_tiling",
    .title = "register tiling of the 7-point stencil: registers, then the caches instead of shared memory",
    CUBE_512,
    // every row 256-byte aligned: regcol4_z4's float4 loads need no test for it
    .row_align = 64,
    STAR_LAB_FIELDS,
    LAB_TABLES,  // VARIANTS and CASES above
};
