// SPDX-License-Identifier: MIT
// The error against the analytic answer: one run on the lab's smooth input, and --convergence,
// the error as the grid is refined and its observed order.
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ranks.h"
#include "run.h"

// ---- the error against the analytic answer ----

// Run variant v once on the lab's smooth input for problem p; max and RMS error against the
// analytic answer. h_in, exact, h_out: host buffers of points(p->n).
void analytic_error(const struct lab *lab, const struct variant *v, const struct problem *p,
                           struct fields *F, float *const *h_in, double *exact, float *h_out, double *max_err,
                           double *rms_err, int converging)
{
    size_t count = points(p->n);
    (converging && lab->converge ? lab->converge : lab->smooth)(p, v->kind, h_in, exact);
    prepare_run(F, p, 0);
    for (int f = 0, k = 0; f < lab->n_fields; f++)
        if (lab->fields[f].role == FIELD_IN)
            copy_rows(F->dev[f], F->pitch, h_in[k++], F->nx, F->nx, count / F->nx, cudaMemcpyHostToDevice);
    if (v->prepare) v->prepare(p);
    v->launch(p, &F->ctx);
    CUDA_CHECK(cudaGetLastError());
    copy_rows(h_out, F->nx, F->dev[F->result], F->pitch, F->nx, count / F->nx, cudaMemcpyDeviceToHost);
    abs_errors(h_out, exact, count, max_err, rms_err);
}

struct conv_row {
    const char *variant;
    size_t n;
    double h, max_err, rms_err;
};
struct conv_rows {
    const char *gpu, *lab;
    const struct conv_row *rows;
    int count;
};

void write_conv(FILE *f, void *ctx)
{
    const struct conv_rows *c = ctx;
    for (int i = 0; i < c->count; i++)
        fprintf(f, "%s,%s,%s,%zu,%.9e,%.6e,%.6e,%s\n", c->gpu, c->lab, c->rows[i].variant,
                c->rows[i].n, c->rows[i].h, c->rows[i].max_err, c->rows[i].rms_err, BUILD_COMMIT);
}

// A problem of the convergence series: edge n in every dimension of o's problem.
struct problem conv_problem(const struct options *o, size_t n)
{
    struct problem p = o->prob;
    for (int d = 0; d < MAX_DIMS; d++) p.n[d] = d < p.dims ? n : 1;
    if (o->lab->conv_steps) p.steps = o->lab->conv_steps(&p);
    problem_source(o->lab, &p);
    problem_slab(o->lab, &p, p.gpus);
    return p;
}

// --convergence: every selected variant on the smooth input at each size of lab->conv_n, the
// error against the analytic answer, and the observed order log2(e(2h)/e(h)) (h = 1/n).
int run_convergence(struct options *o)
{
    const struct lab *lab = o->lab;
    const struct problem biggest = conv_problem(o, lab->conv_n[lab->n_conv - 1]);
    o->prob = biggest;  // lab_setup checks the biggest problem against refusals and memory
    struct device dev;
    double copy_gbps;
    int rc = lab_setup(o, &dev, &copy_gbps);
    if (rc) return rc;
    size_t count = points(biggest.n);
    float *h_in[MAX_FIELDS] = {0}, *h_out = xmalloc(count * sizeof *h_out);
    for (int f = 0, k = 0; f < lab->n_fields; f++)
        if (lab->fields[f].role == FIELD_IN) h_in[k++] = xmalloc(count * sizeof(float));
    double *exact = xmalloc(count * sizeof *exact);
    struct conv_row *rows = xmalloc((size_t)lab->n_conv * (size_t)o->n_selected * sizeof *rows);
    if (!o->quiet)
        printf("error against the analytic answer on a smooth input (lab %s, %s)\n%-14s | %11s | %10s | %10s | %10s | %s\n",
               lab->id, dev.name, "variant", "n", "h = 1/n", "max error", "RMS error", "order");
    int nrows = 0, ok = 1;
    for (int s = 0; s < o->n_selected; s++) {
        const struct variant *v = &lab->variants[o->selected[s]];
        double prev = NAN;
        for (int c = 0; c < lab->n_conv; c++) {
            struct problem p = conv_problem(o, lab->conv_n[c]);  // o->prob knows the GPU by now
            if (v->refuse(&p)) continue;
            if (lab->setup) lab->setup(&p);
            struct fields F;
            fields_alloc(&F, lab, &p);
            struct conv_row *row = &rows[nrows++];
            row->variant = v->name;
            row->n = lab->conv_n[c];
            row->h = 1.0 / (double)row->n;
            analytic_error(lab, v, &p, &F, h_in, exact, h_out, &row->max_err, &row->rms_err, 1);
            fields_free(&F);
            ok &= !isnan(row->max_err);
            if (!o->quiet) {
                printf("%-14s | %11zu | %10.3e | %10.3e | %10.3e |", v->name, row->n, row->h,
                       row->max_err, row->rms_err);
                if (!isnan(prev)) printf(" %.2f", log2(prev / row->max_err) / log2((double)row->n / (double)rows[nrows - 2].n));
                printf("\n");
            }
            prev = row->max_err;
        }
    }
    if (o->csv) {
        char labname[64];
        snprintf(labname, sizeof labname, "lab%s_%s", lab->id, lab->name);
        struct conv_rows cr = {dev.name, labname, rows, nrows};
        if (csv_append(o->csv, write_conv, &cr, "gpu,lab,variant,n,h,max_err,rms_err,commit")) ok = 0;
    }
    for (int k = 0; k < MAX_FIELDS; k++) free(h_in[k]);
    free(h_out);
    free(exact);
    free(rows);
    return ok ? 0 : 1;
}
