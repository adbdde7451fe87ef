// SPDX-License-Identifier: MIT
// --profile: the program again under Nsight Compute, once per variant, and what its counters say
// (DRAM bytes per point beside the model, L2, L1, occupancy, the main stalls).
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ranks.h"
#include "run.h"

// ---- --profile: what the caches did, measured ----

// The counters --profile reads. Sums (bytes, sectors) are added over the kernels of a run and
// given per point (times scale: 32 bytes per sector); ratios and percentages are averaged over
// the kernels launched. From FIRST_STALL on: why warps waited, in cycles per issued instruction
// (ncu's warp state statistics); the two largest are printed.
static const struct {
    const char *metric, *name;
    int sum;
    double scale;
} COUNTERS[] = {
    {"dram__bytes_read.sum", "DRAM read", 1, 1},
    {"dram__bytes_write.sum", "DRAM write", 1, 1},
    {"lts__t_sectors_srcunit_tex_op_read.sum", "L2 read", 1, 32},
    {"l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", "L1 sectors per request", 0, 1},
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "occupancy", 0, 1},
    {"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio", "global memory", 0, 1},
    {"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio", "barrier", 0, 1},
    {"smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio", "shared memory", 0, 1},
    {"smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio", "MIO queue", 0, 1},
    {"smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio", "load/store queue", 0, 1},
    {"smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio", "math pipe", 0, 1},
    {"smsp__average_warps_issue_stalled_wait_per_issue_active.ratio", "fixed latency", 0, 1},
    {"smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio", "not selected", 0, 1},
    {"smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio", "no instruction", 0, 1},
    {"smsp__average_warps_issue_stalled_membar_per_issue_active.ratio", "memory barrier", 0, 1},
};
enum { N_COUNTERS = sizeof COUNTERS / sizeof *COUNTERS, FIRST_STALL = 5 };

// --profile --csv FILE: a row per variant, measured per output point (per point-step).
const char PROFILE_CSV_HEADER[] =
    "gpu,lab,variant,nx,ny,nz,order,steps,model_read,model_write,dram_read_bytes,dram_write_bytes,l2_read_bytes,"
    "l1_sectors_per_request,occupancy_pct,stall_1,stall_1_cpi,stall_2,stall_2_cpi,commit,code_path";

struct profile_row {
    const struct variant *v;
    double model_r, model_w, val[N_COUNTERS];
    int top[2];
};
struct profile_rows {
    const struct options *o;
    const struct device *dev;
    const struct profile_row *rows;
    int n;
};

static void write_profile(FILE *f, void *ctx)
{
    const struct profile_rows *pr = ctx;
    const struct problem *p = &pr->o->prob;
    for (int i = 0; i < pr->n; i++) {
        const struct profile_row *r = &pr->rows[i];
        fprintf(f, "%s,lab%s_%s,%s,%zu,%zu,%zu,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f", pr->dev->name, pr->o->lab->id,
                pr->o->lab->name, r->v->name, p->n[0], p->n[1], p->n[2], p->order, p->steps, r->model_r, r->model_w,
                r->val[0], r->val[1], r->val[2], r->val[3], r->val[4]);
        for (int k = 0; k < 2; k++)
            fprintf(f, ",%s,%.3f", r->top[k] >= 0 ? COUNTERS[r->top[k]].name : "", r->top[k] >= 0 ? r->val[r->top[k]] : 0.0);
        fprintf(f, ",%s,sm_%d\n", BUILD_COMMIT, pr->dev->code_arch);
    }
}

// Run this program under Nsight Compute once per variant (its checked launch, the warm-ups and
// one timed run; the harness's own kernels are filtered out) and read the counters above.
int run_profile(struct options *o, const char *self)
{
    if (system("command -v ncu >/dev/null 2>&1") != 0) {
        fprintf(stderr, "%s: --profile needs Nsight Compute (ncu) on PATH; it comes with the CUDA Toolkit\n", program_name());
        return 2;
    }
    const struct lab *lab = o->lab;
    struct device dev;
    double copy_gbps;
    int rc0 = lab_setup(o, &dev, &copy_gbps);  // the GPU's properties, and the refusals
    if (rc0) return rc0;
    double pts = (double)points(o->prob.n) * (o->prob.steps > 0 ? o->prob.steps : 1);
    char size[64], extra[256] = "", head[64] = "";
    size_string(&o->prob, size, sizeof size);
    if (lab->default_order) {
        snprintf(head, sizeof head, ", order %d", o->prob.order);
        snprintf(extra, sizeof extra, " --order %d", o->prob.order);
    }
    if (lab->default_steps) {
        size_t len = strlen(extra);
        snprintf(extra + len, sizeof extra - len, " --steps %d", o->prob.steps);
        len = strlen(head);
        snprintf(head + len, sizeof head - len, ", %d steps", o->prob.steps);
    }
    for (int k = 0; k < lab->n_params; k++) {
        size_t len = strlen(extra);
        snprintf(extra + len, sizeof extra - len, " --%s %.17g", lab->params[k].name, o->prob.param[k]);
    }
    printf("DRAM traffic per output point%s, caches and warps, measured by ncu (lab %s, %s%s)\n",
           lab->default_steps ? "-step" : "", lab->id, size, head);
    printf("%-20s | %16s | %14s | %15s | %12s | %9s | %9s | %9s | %s\n", "variant", "model read/write", "DRAM read B/pt",
           "DRAM write B/pt", "elements r/w", "L2 rd B/pt", "L1 sec/rq", "occupancy", "top stalls (cycles per instruction)");
    int ok = 1, n_rows = 0;
    struct profile_row *rows = xmalloc((size_t)o->n_selected * sizeof *rows);
    // The runs of the variant the child makes: the checked one, the warm-ups, one timed run, and
    // the analytic check where the lab has one that fails a variant (--quiet skips it elsewhere).
    const int runs = 1 + WARMUP + 1 + (lab->smooth && lab->analytic_check ? 1 : 0);
    for (int i = 0; i < o->n_selected; i++) {
        const struct variant *v = &lab->variants[o->selected[i]];
        char cmd[8192], metrics[4096] = "";
        for (int m = 0; m < N_COUNTERS; m++)
            snprintf(metrics + strlen(metrics), sizeof metrics - strlen(metrics), "%s%s", m ? "," : "", COUNTERS[m].metric);
        // --clock-control none: measure the GPU as it is, never lock its clocks. A run of a
        // stepped lab launches its kernels several times: the sums per run are read below.
        snprintf(cmd, sizeof cmd,
                 "ncu --csv --print-units base --clock-control none --metrics %s "
                 "--kernel-name regex:'^(?!harness_)' '%s' --variant %s "
                 "--size %s%s --seed %llu --reps 1 --quiet 2>&1",
                 metrics, self, v->name, size, extra, o->seed);
        FILE *f = popen(cmd, "r");
        double sum[N_COUNTERS] = {0};
        int n[N_COUNTERS] = {0}, denied = 0;
        char line[4096];
        while (f && fgets(line, sizeof line, f)) {
            if (strstr(line, "ERR_NVGPUCTRPERM")) denied = 1;
            // One row per kernel launch and metric: "...","METRIC","UNIT","VALUE" where VALUE
            // may carry thousands separators.
            char *last = NULL;
            for (char *q = strstr(line, "\",\""); q; q = strstr(q + 1, "\",\"")) last = q;
            if (!last) continue;
            char num[64];
            size_t k = 0;
            for (const char *c = last + 3; *c && *c != '"' && k + 1 < sizeof num; c++)
                if (*c != ',') num[k++] = *c;
            num[k] = 0;
            for (int m = 0; m < N_COUNTERS; m++) {
                char quoted[160];
                snprintf(quoted, sizeof quoted, "\"%s\"", COUNTERS[m].metric);
                if (strstr(line, quoted)) sum[m] += strtod(num, NULL), n[m]++;
            }
        }
        int rc = f ? pclose(f) : -1;
        if (denied) {
            fprintf(stderr, "%s: the GPU's performance counters are not permitted to this user (ERR_NVGPUCTRPERM): "
                            "run as root, or have an administrator allow them (the NVIDIA driver option "
                            "NVreg_RestrictProfilingToAdminUsers=0)\n", program_name());
            return 2;
        }
        double mr, mw;
        v->model(&o->prob, &mr, &mw);
        if (rc != 0 || n[0] == 0 || n[1] == 0) {
            printf("%-20s | %7.2f/%-8.2f | %14s | %15s | ncu failed (rc %d): run it by hand to see why\n",
                   v->name, mr, mw, "-", "-", rc);
            ok = 0;
            continue;
        }
        // Sums are taken per run; ratios and percentages are the mean over the kernels launched.
        double val[N_COUNTERS];
        for (int m = 0; m < N_COUNTERS; m++)
            val[m] = n[m] == 0 ? NAN : COUNTERS[m].sum ? sum[m] / runs / pts * COUNTERS[m].scale : sum[m] / n[m];
        int top[2] = {-1, -1};  // the two largest stall reasons
        for (int m = FIRST_STALL; m < N_COUNTERS; m++) {
            if (isnan(val[m])) continue;
            if (top[0] < 0 || val[m] > val[top[0]]) top[1] = top[0], top[0] = m;
            else if (top[1] < 0 || val[m] > val[top[1]]) top[1] = m;
        }
        char stalls[160] = "-";
        if (top[0] >= 0)
            snprintf(stalls, sizeof stalls, "%s %.1f, %s %.1f", COUNTERS[top[0]].name, val[top[0]],
                     top[1] >= 0 ? COUNTERS[top[1]].name : "-", top[1] >= 0 ? val[top[1]] : 0.0);
        printf("%-20s | %7.2f/%-8.2f | %14.2f | %15.2f | %5.2f/%-6.2f | %9.2f | %9.2f | %8.1f%% | %s\n", v->name, mr,
               mw, val[0], val[1], val[0] / 4, val[1] / 4, val[2], val[3], val[4], stalls);
        struct profile_row *row = &rows[n_rows++];
        row->v = v, row->model_r = mr, row->model_w = mw, row->top[0] = top[0], row->top[1] = top[1];
        memcpy(row->val, val, sizeof val);
    }
    if (o->csv) {
        struct profile_rows pr = {o, &dev, rows, n_rows};
        if (csv_append(o->csv, write_profile, &pr, PROFILE_CSV_HEADER)) ok = 0;
    }
    free(rows);
    return ok ? 0 : 1;
}
