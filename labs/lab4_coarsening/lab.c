// SPDX-License-Identifier: MIT
// Lab 4 (coarsening), the definition: the 7-point stencil of lab 2, computed by 2D blocks that
// march along z through chunks of Z planes (Z a variant); its reference and cases. The kernels
// are in kernels.cu.
#include "definition.h"
#include "star.h"

void setup_kernels(const struct problem *p);
DECLARE_VARIANT(coarse_z8);
DECLARE_VARIANT(coarse_z32);
DECLARE_VARIANT(coarse_z128);

static const struct variant VARIANTS[] = {
    VARIANT(coarse_z8, "32x32 threads, chunks of 8 planes", 0),
    VARIANT(coarse_z32, "32x32 threads, chunks of 32 planes", 0),
    VARIANT(coarse_z128, "32x32 threads, chunks of 128 planes", 0),
};

// Partial tiles, one plane, chunks that end early, and (40x40x200) two chunks for every variant.
static const struct lab_case CASES[] = {
    {"test grade", "--size 131x67x45"}, {"test grade", "--size 1x1x3"},   {"test grade", "--size 3x3x3"},
    {"test grade", "--size 513x7x9"},   {"test grade", "--size 7x513x9"}, {"test grade", "--size 40x40x200"},
    {"test grade", "--size 64"},        {"small sanitize", "--size 67x45x31"},
    {"too-big", "--size 5000"},
};

const struct lab LAB = {
    .id = "4",
    .name = "coarsening",
    .title = "7-point stencil, 2D blocks marching along z with prev/curr/next planes in shared memory",
    CUBE_512,
    STAR_LAB_FIELDS,
    LAB_TABLES,  // VARIANTS and CASES above
};
