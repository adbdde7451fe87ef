// SPDX-License-Identifier: MIT
// The output of a run: the table's rows, the CSV's (common/harness/csv.c's schema) and --dump's
// raw grids.
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ranks.h"
#include "run.h"

// ---- output ----


static const char ROW_FMT[] = "%-20s | %-13s | %9s | %8s | %8s | %7s%s | %10s | %10s | %s\n";

// Point-updates per second (points x steps), and the minimal traffic of a run (one step's bytes
// per point x points x steps) over the time, against the copy roof. For a kernel that keeps data
// on chip across steps, % copy / 100 is its speed in units of the single-step bound.
struct derived derive(const struct options *o, const struct result *r, double copy_gbps)
{
    double pts = (double)points(o->prob.n), steps = o->prob.steps > 0 ? o->prob.steps : 1;
    struct derived d;
    d.gpts = pts * steps / (r->median_ms * 1e-3) / 1e9;
    d.gbps = pts * steps * o->lab->bytes_per_point / (r->median_ms * 1e-3) / 1e9;
    d.pct = 100.0 * d.gbps / copy_gbps;
    return d;
}

void print_table_header(const struct lab *lab)
{
    printf(ROW_FMT, "variant", "size", "median ms", "Gpts/s", "GB/s", "% copy",
           lab->default_steps ? " | x 1-step" : "", "redundancy", "rel. error", "result");
}

void print_row(const struct options *o, const struct variant *v, const struct result *r,
                      double copy_gbps)
{
    char size[64], med[32] = "-", gpts[32] = "-", gbps[32] = "-", pct[32] = "-", red[32], err[32];
    char bound[32] = "";
    size_string(&o->prob, size, sizeof size);
    struct derived d = derive(o, r, copy_gbps);
    snprintf(red, sizeof red, "%.2f/%.2f", r->red_r, r->red_w);
    snprintf(err, sizeof err, "%.2e", r->rel_err);
    if (!isnan(r->median_ms)) {
        snprintf(med, sizeof med, "%.4f", r->median_ms);
        snprintf(gpts, sizeof gpts, "%.1f", d.gpts);
        snprintf(gbps, sizeof gbps, "%.0f", d.gbps);
        snprintf(pct, sizeof pct, "%.1f%%", d.pct);
    }
    if (o->lab->default_steps) {  // the speed in units of the single-step bound
        if (isnan(r->median_ms)) snprintf(bound, sizeof bound, " | %8s", "-");
        else snprintf(bound, sizeof bound, " | %8.2f", d.pct / 100);
    }
    char result[300], smem[64] = "";
    if (r->smem >= 0 && r->pass) snprintf(smem, sizeof smem, " (%.1f KB of shared memory a block)", r->smem / 1024.0);
    if (r->smem == -2 && r->pass) snprintf(smem, sizeof smem, " (shared memory not checked: the launch could not be captured)");
    snprintf(result, sizeof result, "%s%s%s%s", r->pass ? "PASS" : "FAIL", r->note[0] ? ": " : "", r->note, smem);
    printf(ROW_FMT, v->name, size, med, gpts, gbps, pct, bound, red, err, result);
    fflush(stdout);
}

void csv_row(FILE *f, const struct run_rows *rr, const char *variant, const struct result *r)
{
    const struct options *o = rr->o;
    int info = r == NULL;
    struct derived d = {0};
    if (!info) d = derive(o, r, rr->copy_gbps);
    fprintf(f, "%s,lab%s_%s,%s,%zu,%zu,%zu,%d,%d,", rr->dev->name, o->lab->id, o->lab->name, variant,
            o->prob.n[0], o->prob.n[1], o->prob.n[2], o->prob.order, o->prob.steps);
    if (info)  // a measurement beside the variants: the empty kernel, timed the same way
        fprintf(f, "%.6f,%.6f,0,0,%.1f,0,0,0,0,INFO,", rr->launch_ms, rr->launch_ms, rr->copy_gbps);
    else
        fprintf(f, "%.6f,%.6f,%.3f,%.1f,%.1f,%.2f,%.4f,%.4f,%.3e,%s,", r->median_ms, r->min_ms, d.gpts,
                d.gbps, rr->copy_gbps, d.pct, r->red_r, r->red_w, r->rel_err, r->pass ? "PASS" : "FAIL");
    fprintf(f, "%s,%d,%d,%s,sm_%d\n", BUILD_COMMIT, o->prob.ranks, o->prob.gpus, o->back_to_back ? "b2b" : "launch",
            rr->dev->code_arch);
}

void write_rows(FILE *f, void *ctx)
{
    struct run_rows *rr = ctx;
    for (int i = 0; i < rr->n; i++)
        csv_row(f, rr, rr->o->lab->variants[rr->o->selected[i]].name, &rr->res[i]);
    if (!isnan(rr->launch_ms)) csv_row(f, rr, "empty_kernel", NULL);
}

// Write to a temporary name and rename, so that a failed run leaves no partial file.
int dump_grid(const char *path, const void *a, size_t bytes)
{
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    size_t w = fwrite(a, 1, bytes, f);
    if (fclose(f) || w != bytes) {
        remove(path);
        return -1;
    }
    return 0;
}
