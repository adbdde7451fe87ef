// SPDX-License-Identifier: MIT
// What the definitions of labs 2-5 share: the order-k star stencil (003's Equation 1) with the
// central second-derivative weights, its boundary rule (points within the radius of a face copy
// the input) and its CPU reference. The kernels' side is star.cuh.
#ifndef STAR_H
#define STAR_H

#include "lab.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { MAX_RADIUS = 6 };

static inline int star_radius(const struct problem *p) { return p->order > 0 ? p->order / 2 : 1; }

void star_reference(const struct problem *p, int kind, const float *const *in, double *ref);
size_t star_guard(const struct problem *p);
double star_flops(const struct problem *p);  // 1 + 7R at order 2R (8 for the 7-point stencil)
int star_order_ok(int order);

#ifdef __cplusplus
}
#endif

// The struct lab fields every star-stencil lab shares: one input and one output, 8 bytes of
// minimal traffic per point (read once, write once), the tolerances, reference, guard and the
// kernels' set-up (setup_kernels puts the weights in constant memory).
#define STAR_LAB_FIELDS                                                                        \
    ONE_IN_ONE_OUT, .bytes_per_point = 8, .flops_per_point = star_flops, .l2_tol = 1e-5,       \
        .atol = 1e-5, .rtol = 1e-5, .reference = LAB_REFERENCE(star_reference), .guard = star_guard, \
        .setup = setup_kernels

#endif
