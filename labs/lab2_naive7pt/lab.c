// SPDX-License-Identifier: MIT
// Lab 2 (naive7pt), the definition: the 3D 7-point stencil (the second-order Laplacian, points
// on a face copying the input), its CPU reference, the cases. The kernels are in kernels.cu.
#include "definition.h"
#include "star.h"

void setup_kernels(const struct problem *p);
DECLARE_VARIANT(naive);
DECLARE_VARIANT(bad_mapping);

static const struct variant VARIANTS[] = {
    VARIANT(naive, "one thread per point, threadIdx.x along x (coalesced), 32x8 blocks", 0),
    VARIANT(bad_mapping, "the same kernel with threadIdx.x along z (uncoalesced)", 0),
};

// Odd sizes: partial blocks in x and y, single planes and rows, every dimension on its own long.
static const struct lab_case CASES[] = {
    {"test grade", "--size 131x67x45"}, {"test grade", "--size 1x1x3"},  {"test grade", "--size 1x1x1"},
    {"test grade", "--size 2x2x2"},     {"test grade", "--size 3x3x3"},  {"test grade", "--size 513x7x9"},
    {"test grade", "--size 7x513x9"},   {"test grade", "--size 9x7x513"}, {"test grade", "--size 1x300x2"},
    {"test grade", "--size 64"},        {"small sanitize", "--size 67x45x31"},
    {"too-big", "--size 5000"},
    {"refused", "--variant naive --size 3x3x70000"}, {"refused", "--size 3x600000x3"},
};

const struct lab LAB = {
    .id = "2",
    .name = "naive7pt",
    .title = "naive 3D 7-point stencil, well and badly mapped",
    CUBE_512,
    STAR_LAB_FIELDS,
    LAB_TABLES,  // VARIANTS and CASES above
};
