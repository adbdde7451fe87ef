// SPDX-License-Identifier: MIT
// The star-stencil labs' reference, guard and orders (star.h).
#include "star.h"

#include "reference.h"

void star_reference(const struct problem *p, int kind, const float *const *in, double *ref)
{
    (void)kind;
    double c[MAX_RADIUS + 1];
    int r = laplacian_coefficients(p->order > 0 ? p->order : 2, c);
    ref_star3d(in[0], ref, p->n, r, c);
}

// The stencil reaches r planes beyond the point; a bug reaching one more still reads NaN.
size_t star_guard(const struct problem *p)
{
    return (size_t)(star_radius(p) + 1) * (p->pitch * p->n[1] + p->pitch + 1);
}

// c0*u + sum over i = 1..R of c_i * (the six neighbours at distance i): one multiply, then per
// radius five adds, a multiply and an add: 1 + 7R (order 2: 8; 4: 15; 8: 29; 12: 43).
double star_flops(const struct problem *p) { return 1 + 7.0 * star_radius(p); }

int star_order_ok(int order) { return order >= 2 && order <= 2 * MAX_RADIUS && order % 2 == 0; }
