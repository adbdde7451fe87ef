// SPDX-License-Identifier: MIT
// lab_main: device set-up, the copy-bandwidth roof, poisoned and guarded arrays, validation
// before timing, CUDA-event timing, the table and the CSV row. Plain C11 on the CUDA runtime.
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

const char CSV_HEADER[] =
    "gpu,lab,variant,nx,ny,nz,order,steps,median_ms,min_ms,gpts,gbps,copy_gbps,pct_copy,"
    "redundancy_read,redundancy_write,rel_err,status,commit";

enum { WARMUP = 2, MAX_PRINT = 10 };

static const char *prog = "lab";

static void die2(const char *fmt, const char *detail)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, detail);
    fputc('\n', stderr);
    exit(2);
}

// ---- device set-up ----

int device_open(struct device *dev)
{
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        fprintf(stderr, "%s: no CUDA device found (%s)\n", prog,
                e != cudaSuccess ? cudaGetErrorString(e) : "the driver lists none");
        return 2;
    }
    struct cudaDeviceProp prop;
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    CUDA_CHECK(cudaSetDevice(0));
    snprintf(dev->name, sizeof dev->name, "%s", prop.name);
    for (char *c = dev->name; *c; c++)
        if (*c == ',') *c = ' ';  // the name goes into a CSV field
    dev->sm_count = prop.multiProcessorCount;
    dev->smem_per_block_optin = prop.sharedMemPerBlockOptin;
    size_t free_b = 0, total_b = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    dev->free_bytes = free_b;
    dev->total_bytes = total_b;
    return 0;
}

// Device-to-device cudaMemcpy of a large buffer, bytes read plus bytes written: the roof that
// "% copy BW" divides by, measured on this GPU at start-up.
double measure_copy_gbps(size_t free_bytes)
{
    size_t bytes = (size_t)1 << 30;
    while (bytes > free_bytes / 4 && bytes > ((size_t)1 << 20)) bytes /= 2;
    void *a, *b;
    CUDA_CHECK(cudaMalloc(&a, bytes));
    CUDA_CHECK(cudaMalloc(&b, bytes));
    CUDA_CHECK(cudaMemset(a, 1, bytes));
    CUDA_CHECK(cudaMemset(b, 0, bytes));
    cudaEvent_t t0, t1;
    CUDA_CHECK(cudaEventCreate(&t0));
    CUDA_CHECK(cudaEventCreate(&t1));
    enum { REPS = 10 };
    double ms[REPS];
    for (int r = -3; r < REPS; r++) {
        CUDA_CHECK(cudaEventRecord(t0, 0));
        CUDA_CHECK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0));
        CUDA_CHECK(cudaEventRecord(t1, 0));
        CUDA_CHECK(cudaEventSynchronize(t1));
        float f;
        CUDA_CHECK(cudaEventElapsedTime(&f, t0, t1));
        if (r >= 0) ms[r] = f;
    }
    CUDA_CHECK(cudaEventDestroy(t0));
    CUDA_CHECK(cudaEventDestroy(t1));
    CUDA_CHECK(cudaFree(a));
    CUDA_CHECK(cudaFree(b));
    return 2.0 * (double)bytes / (median(ms, REPS) * 1e-3) / 1e9;
}

// ---- guarded device grids ----

float *grid_alloc(size_t count, size_t guard)
{
    float *base;
    CUDA_CHECK(cudaMalloc((void **)&base, (count + 2 * guard) * sizeof(float)));
    CUDA_CHECK(cudaMemset(base, POISON_BYTE, (count + 2 * guard) * sizeof(float)));
    return base + guard;
}

void grid_free(float *grid, size_t guard) { CUDA_CHECK(cudaFree(grid - guard)); }

// Guard width: the lab's, rounded up to 64 elements so that every grid starts 256-byte
// aligned (cudaMalloc's alignment survives), which float4 loads and coalescing rely on.
size_t guard_elems(const struct lab *lab, const struct problem *p)
{
    size_t g = lab->guard ? lab->guard(p) : 0;
    if (g < 1024) g = 1024;
    return (g + 63) / 64 * 64;
}

// ---- one variant: check, time, check again ----

struct result {
    double median_ms, min_ms, rel_err, red_r, red_w;
    int pass;
    char note[160];
};

static int run_launch(const struct variant *v, const struct problem *p, const struct grids *g,
                      char *note, size_t notelen)
{
    v->launch(p, g);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        snprintf(note, notelen, "CUDA error: %s", cudaGetErrorString(e));
        return -1;
    }
    return 0;
}

// Copy the output with its guard bands back and compare. Returns 1 on pass.
static int check_output(const struct options *o, const float *d_out, size_t guard, float *h_out,
                        const double *ref, double *rel_err, char *note, size_t notelen, FILE *log)
{
    const struct lab *lab = o->lab;
    size_t count = points(o->prob.n);
    CUDA_CHECK(cudaMemcpy(h_out, d_out - guard, (count + 2 * guard) * sizeof(float),
                          cudaMemcpyDeviceToHost));
    struct check c = compare(h_out + guard, ref, o->prob.n, lab->l2_tol, lab->atol, lab->rtol,
                             log, MAX_PRINT);
    int guards = guard_intact(h_out, guard) && guard_intact(h_out + guard + count, guard);
    *rel_err = c.rel_l2;
    if (!guards) snprintf(note, notelen, "wrote outside the output array (guard band changed)");
    else if (c.nan) snprintf(note, notelen, "%zu of %zu points NaN or never written", c.nan, count);
    else if (c.bad) snprintf(note, notelen, "%zu of %zu points outside tolerance", c.bad, count);
    else if (!c.pass) snprintf(note, notelen, "relative L2 error above %.0e", lab->l2_tol);
    return c.pass && guards;
}

static int input_intact(const float *d_in, size_t guard, size_t count, float *scratch)
{
    CUDA_CHECK(cudaMemcpy(scratch, d_in - guard, guard * sizeof(float), cudaMemcpyDeviceToHost));
    int ok = guard_intact(scratch, guard);
    CUDA_CHECK(cudaMemcpy(scratch, d_in + count, guard * sizeof(float), cudaMemcpyDeviceToHost));
    return ok && guard_intact(scratch, guard);
}

static struct result run_variant(const struct options *o, const struct variant *v,
                                 const struct grids *g, size_t guard, float *h_out,
                                 const double *ref, FILE *log)
{
    struct result r = {0};
    r.median_ms = r.min_ms = r.rel_err = NAN;
    size_t count = points(o->prob.n);
    size_t out_bytes = (count + 2 * guard) * sizeof(float);
    float *out_base = g->out - guard;
    v->redundancy(&o->prob, &r.red_r, &r.red_w);

    // 1. Validate: poisoned output, one run, compare every point and the guard bands.
    CUDA_CHECK(cudaMemset(out_base, POISON_BYTE, out_bytes));
    if (run_launch(v, &o->prob, g, r.note, sizeof r.note)) return r;
    if (!check_output(o, g->out, guard, h_out, ref, &r.rel_err, r.note, sizeof r.note, log))
        return r;
    if (!input_intact(g->in, guard, count, h_out)) {
        snprintf(r.note, sizeof r.note, "wrote outside the input array (guard band changed)");
        return r;
    }

    // 2. Time: warm-up, then one event pair around each launch; the output is poisoned
    // before each launch, outside the timed region, so that every timed run must write it all.
    int total = WARMUP + o->reps;
    cudaEvent_t *ev = malloc(2 * (size_t)total * sizeof *ev);
    double *ms = malloc((size_t)o->reps * sizeof *ms);
    if (!ev || !ms) die2("%s", "out of host memory");
    for (int i = 0; i < 2 * total; i++) CUDA_CHECK(cudaEventCreate(&ev[i]));
    for (int i = 0; i < total; i++) {
        CUDA_CHECK(cudaMemsetAsync(out_base, POISON_BYTE, out_bytes, 0));
        CUDA_CHECK(cudaEventRecord(ev[2 * i], 0));
        v->launch(&o->prob, g);
        CUDA_CHECK(cudaEventRecord(ev[2 * i + 1], 0));
    }
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        snprintf(r.note, sizeof r.note, "CUDA error in timed runs: %s", cudaGetErrorString(e));
        return r;
    }
    for (int i = WARMUP; i < total; i++) {
        float f;
        CUDA_CHECK(cudaEventElapsedTime(&f, ev[2 * i], ev[2 * i + 1]));
        ms[i - WARMUP] = f;
    }
    for (int i = 0; i < 2 * total; i++) CUDA_CHECK(cudaEventDestroy(ev[i]));
    r.min_ms = minimum(ms, o->reps);
    r.median_ms = median(ms, o->reps);
    free(ev);
    free(ms);

    // 3. The last timed run must be as right as the first.
    double again;
    if (!check_output(o, g->out, guard, h_out, ref, &again, r.note, sizeof r.note, log)) {
        memmove(r.note + 11, r.note, sizeof r.note - 12);
        memcpy(r.note, "timed run: ", 11);
        r.note[sizeof r.note - 1] = 0;
        return r;
    }
    r.pass = 1;
    return r;
}

// ---- output ----

static void size_string(const struct options *o, char *buf, size_t len)
{
    const size_t *n = o->prob.n;
    if (o->lab->dims == 1) snprintf(buf, len, "%zu", n[0]);
    else if (o->lab->dims == 2) snprintf(buf, len, "%zux%zu", n[0], n[1]);
    else snprintf(buf, len, "%zux%zux%zu", n[0], n[1], n[2]);
}

static const char ROW_FMT[] = "%-20s | %-13s | %9s | %8s | %8s | %7s | %10s | %10s | %s\n";

static void print_table_header(void)
{
    printf(ROW_FMT, "variant", "size", "median ms", "Gpts/s", "GB/s", "% copy", "redundancy",
           "rel. error", "result");
}

struct derived {
    double gpts, gbps, pct;
};

static struct derived derive(const struct options *o, const struct result *r, double copy_gbps)
{
    double pts = (double)points(o->prob.n);
    double steps = o->prob.steps > 0 ? o->prob.steps : 1;
    struct derived d;
    d.gpts = pts * steps / (r->median_ms * 1e-3) / 1e9;
    d.gbps = pts * o->lab->bytes_per_point / (r->median_ms * 1e-3) / 1e9;
    d.pct = 100.0 * d.gbps / copy_gbps;
    return d;
}

static void print_row(const struct options *o, const struct variant *v, const struct result *r,
                      double copy_gbps)
{
    char size[64], med[32], gpts[32], gbps[32], pct[32], red[32], err[32];
    size_string(o, size, sizeof size);
    struct derived d = derive(o, r, copy_gbps);
    snprintf(red, sizeof red, "%.2f/%.2f", r->red_r, r->red_w);
    snprintf(err, sizeof err, "%.2e", r->rel_err);
    if (isnan(r->median_ms)) {
        snprintf(med, sizeof med, "-");
        snprintf(gpts, sizeof gpts, "-");
        snprintf(gbps, sizeof gbps, "-");
        snprintf(pct, sizeof pct, "-");
    } else {
        snprintf(med, sizeof med, "%.4f", r->median_ms);
        snprintf(gpts, sizeof gpts, "%.1f", d.gpts);
        snprintf(gbps, sizeof gbps, "%.0f", d.gbps);
        snprintf(pct, sizeof pct, "%.1f%%", d.pct);
    }
    char result[200];
    snprintf(result, sizeof result, "%s%s%s", r->pass ? "PASS" : "FAIL", r->note[0] ? ": " : "",
             r->note);
    printf(ROW_FMT, v->name, size, med, gpts, gbps, pct, red, err, result);
    fflush(stdout);
}

static void csv_row(FILE *f, const struct options *o, const struct device *dev,
                    const struct variant *v, const struct result *r, double copy_gbps)
{
    struct derived d = derive(o, r, copy_gbps);
    fprintf(f, "%s,lab%d_%s,%s,%zu,%zu,%zu,%d,%d,%.6f,%.6f,%.3f,%.1f,%.1f,%.2f,%.4f,%.4f,%.3e,%s,%s\n",
            dev->name, o->lab->number, o->lab->name, v->name, o->prob.n[0], o->prob.n[1],
            o->prob.n[2], o->prob.order, o->prob.steps, r->median_ms, r->min_ms, d.gpts, d.gbps,
            copy_gbps, d.pct, r->red_r, r->red_w, r->rel_err, r->pass ? "PASS" : "FAIL",
            BUILD_COMMIT);
}

// Append the rows, with the header when the file is new or empty.
int csv_append(const char *path, void (*write)(FILE *, void *), void *ctx, const char *header)
{
    FILE *f = fopen(path, "a");
    if (!f) {
        fprintf(stderr, "%s: cannot open --csv file '%s': %s\n", prog, path, strerror(errno));
        return -1;
    }
    if (ftell(f) == 0) fprintf(f, "%s\n", header);
    write(f, ctx);
    return fclose(f);
}

// Write to a temporary name and rename, so that a failed run leaves no partial file.
static int dump_grid(const char *path, const float *a, size_t count)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    if (!f) return -1;
    size_t w = fwrite(a, sizeof *a, count, f);
    if (fclose(f) || w != count || rename(tmp, path)) {
        remove(tmp);
        return -1;
    }
    return 0;
}

// ---- the program ----

struct run_rows {
    const struct options *o;
    const struct device *dev;
    const struct result *res;
    int n;
    double copy_gbps;
    double launch_ms;  // NaN: not written
};

static void write_rows(FILE *f, void *ctx)
{
    struct run_rows *rr = ctx;
    for (int i = 0; i < rr->n; i++)
        csv_row(f, rr->o, rr->dev, &rr->o->lab->variants[rr->o->selected[i]], &rr->res[i],
                rr->copy_gbps);
    if (!isnan(rr->launch_ms)) {
        // The floor under any kernel's time: an empty kernel timed the same way (status INFO).
        const struct options *o = rr->o;
        fprintf(f, "%s,lab%d_%s,empty_kernel,%zu,%zu,%zu,%d,%d,%.6f,%.6f,0,0,%.1f,0,0,0,0,INFO,%s\n",
                rr->dev->name, o->lab->number, o->lab->name, o->prob.n[0], o->prob.n[1],
                o->prob.n[2], o->prob.order, o->prob.steps, rr->launch_ms, rr->launch_ms,
                rr->copy_gbps, BUILD_COMMIT);
    }
}

void set_program_name(const char *argv0)
{
    const char *slash = strrchr(argv0, '/');
    prog = slash ? slash + 1 : argv0;
}

const char *program_name(void) { return prog; }

// Device set-up shared by the table, --convergence and --profile: open the GPU, refuse what the
// selected variants cannot do, check that the arrays fit, measure the copy roof.
int lab_setup(struct options *o, struct device *dev, size_t arrays, double *copy_gbps)
{
    int rc = device_open(dev);
    if (rc) return rc;
    o->prob.sm_count = dev->sm_count;
    o->prob.smem_optin = dev->smem_per_block_optin;
    // A variant named with --variant that cannot run the problem stops the program (exit 2);
    // with 'all', such variants are skipped with a line each and the others run.
    int kept = 0;
    const char *first_why = NULL;
    for (int i = 0; i < o->n_selected; i++) {
        const struct variant *v = &o->lab->variants[o->selected[i]];
        const char *why = v->refuse ? v->refuse(&o->prob) : NULL;
        if (why && o->named) {
            fprintf(stderr, "%s: variant %s cannot run this problem: %s\n", prog, v->name, why);
            return 2;
        }
        if (why && !o->quiet) printf("(variant %s skipped: %s)\n", v->name, why);
        if (why && !first_why) first_why = why;
        if (!why) o->selected[kept++] = o->selected[i];
    }
    if (kept == 0) {
        fprintf(stderr, "%s: no variant can run this problem: %s\n", prog, first_why);
        return 2;
    }
    o->n_selected = kept;
    size_t count = points(o->prob.n), guard = guard_elems(o->lab, &o->prob);
    double need = (double)arrays * (double)(count + 2 * guard) * sizeof(float);
    // Leave room for the copy-bandwidth buffers and the CUDA context.
    if (need > 0.9 * (double)dev->free_bytes) {
        fprintf(stderr, "%s: the problem needs %.2f GB of GPU memory, %s has %.2f GB free\n", prog,
                need / 1e9, dev->name, (double)dev->free_bytes / 1e9);
        return 2;
    }
    *copy_gbps = measure_copy_gbps(dev->free_bytes - (size_t)need);
    if (o->lab->setup) o->lab->setup(&o->prob);
    return 0;
}

// ---- the error against the analytic answer ----

// Run variant v once on the lab's smooth input for problem p; max and RMS error against the
// analytic answer. h_in, exact: host buffers of points(p->n); d_in, d_out: device grids.
static void analytic_error(const struct lab *lab, const struct variant *v, const struct problem *p,
                           float *h_in, double *exact, float *d_in, float *d_out, float *h_out,
                           double *max_err, double *rms_err)
{
    size_t count = points(p->n);
    lab->smooth(p, v->kind, h_in, exact);
    CUDA_CHECK(cudaMemcpy(d_in, h_in, count * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_out, POISON_BYTE, count * sizeof(float)));
    struct grids g = {d_in, d_out};
    v->launch(p, &g);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h_out, d_out, count * sizeof(float), cudaMemcpyDeviceToHost));
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

static void write_conv(FILE *f, void *ctx)
{
    const struct conv_rows *c = ctx;
    for (int i = 0; i < c->count; i++)
        fprintf(f, "%s,%s,%s,%zu,%.9e,%.6e,%.6e,%s\n", c->gpu, c->lab, c->rows[i].variant,
                c->rows[i].n, c->rows[i].h, c->rows[i].max_err, c->rows[i].rms_err, BUILD_COMMIT);
}

// --convergence: every selected variant on the smooth input at each size of lab->conv_n, the
// error against the analytic answer, and the observed order log2(e(2h)/e(h)) (h = 1/n).
static int run_convergence(struct options *o)
{
    const struct lab *lab = o->lab;
    struct problem biggest = o->prob;
    size_t nmax = lab->conv_n[lab->n_conv - 1];
    for (int d = 0; d < MAX_DIMS; d++) biggest.n[d] = d < lab->dims ? nmax : 1;
    o->prob = biggest;  // lab_setup checks the biggest problem against refusals and memory
    struct device dev;
    double copy_gbps;
    int rc = lab_setup(o, &dev, 2, &copy_gbps);
    if (rc) return rc;
    size_t count = points(biggest.n), guard = guard_elems(lab, &biggest);
    float *h_in = malloc(count * sizeof *h_in), *h_out = malloc(count * sizeof *h_out);
    double *exact = malloc(count * sizeof *exact);
    struct conv_row *rows = malloc((size_t)lab->n_conv * (size_t)o->n_selected * sizeof *rows);
    if (!h_in || !h_out || !exact || !rows) die2("%s", "not enough host memory");
    float *d_in = grid_alloc(count, guard), *d_out = grid_alloc(count, guard);
    if (!o->quiet)
        printf("error against the analytic answer on a smooth input (lab %d, %s)\n%-14s | %11s | %10s | %10s | %10s | %s\n",
               lab->number, dev.name, "variant", "n", "h = 1/n", "max error", "RMS error", "order");
    int nrows = 0, ok = 1;
    for (int s = 0; s < o->n_selected; s++) {
        const struct variant *v = &lab->variants[o->selected[s]];
        double prev = NAN;
        for (int c = 0; c < lab->n_conv; c++) {
            struct problem p = o->prob;
            for (int d = 0; d < MAX_DIMS; d++) p.n[d] = d < lab->dims ? lab->conv_n[c] : 1;
            const char *why = v->refuse ? v->refuse(&p) : NULL;
            if (why) continue;
            if (lab->setup) lab->setup(&p);
            struct conv_row *row = &rows[nrows++];
            row->variant = v->name;
            row->n = lab->conv_n[c];
            row->h = 1.0 / (double)row->n;
            analytic_error(lab, v, &p, h_in, exact, d_in, d_out, h_out, &row->max_err, &row->rms_err);
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
        snprintf(labname, sizeof labname, "lab%d_%s", lab->number, lab->name);
        struct conv_rows cr = {dev.name, labname, rows, nrows};
        if (csv_append(o->csv, write_conv, &cr, "gpu,lab,variant,n,h,max_err,rms_err,commit")) ok = 0;
    }
    grid_free(d_in, guard);
    grid_free(d_out, guard);
    free(h_in);
    free(h_out);
    free(exact);
    free(rows);
    return ok ? 0 : 1;
}

// ---- --profile: what the caches did, measured ----

// Run this program under Nsight Compute once per variant (one checked launch of the variant's
// kernels; the empty kernel of the start-up is filtered out) and read the DRAM bytes.
static int run_profile(struct options *o, const char *self)
{
    if (system("command -v ncu >/dev/null 2>&1") != 0) {
        fprintf(stderr, "%s: --profile needs Nsight Compute (ncu) on PATH; it comes with the CUDA Toolkit\n", prog);
        return 2;
    }
    const struct lab *lab = o->lab;
    struct device dev;
    double copy_gbps;
    int rc0 = lab_setup(o, &dev, 2, &copy_gbps);  // the GPU's properties, and the refusals
    if (rc0) return rc0;
    double pts = (double)points(o->prob.n);
    char size[64], order[32] = "";
    size_string(o, size, sizeof size);
    if (lab->default_order) snprintf(order, sizeof order, ", order %d", o->prob.order);
    printf("DRAM traffic per output point, measured by ncu (lab %d, %s%s)\n", lab->number, size, order);
    printf("%-20s | %16s | %16s | %16s | %s\n", "variant", "model read/write", "DRAM read B/pt",
           "DRAM write B/pt", "measured elements read/write");
    int ok = 1;
    for (int i = 0; i < o->n_selected; i++) {
        const struct variant *v = &lab->variants[o->selected[i]];
        char cmd[2048];
        if (lab->default_order) snprintf(order, sizeof order, " --order %d", o->prob.order);
        // --clock-control none: measure the GPU as it is, never lock its clocks.
        snprintf(cmd, sizeof cmd,
                 "ncu --csv --print-units base --clock-control none "
                 "--metrics dram__bytes_read.sum,dram__bytes_write.sum "
                 "--kernel-name regex:'^(?!empty_kernel)' --launch-count 20 '%s' --variant %s "
                 "--size %s%s --seed %llu --reps 1 --quiet 2>/dev/null",
                 self, v->name, size, order, o->seed);
        FILE *f = popen(cmd, "r");
        double rd[32] = {0}, wr[32] = {0};
        int nr = 0, nw = 0;
        char line[4096];
        while (f && fgets(line, sizeof line, f)) {
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
            double val = strtod(num, NULL);
            if (strstr(line, "\"dram__bytes_read.sum\"") && nr < 32) rd[nr++] = val;
            if (strstr(line, "\"dram__bytes_write.sum\"") && nw < 32) wr[nw++] = val;
        }
        int rc = f ? pclose(f) : -1;
        double mr, mw;
        v->redundancy(&o->prob, &mr, &mw);
        // The launches are: the checked run, 2 warm-ups, 1 timed run; report the median one.
        if (rc != 0 || nr == 0 || nw == 0) {
            printf("%-20s | %7.2f/%-8.2f | %16s | %16s | ncu failed (rc %d): run it by hand to see why\n",
                   v->name, mr, mw, "-", "-", rc);
            ok = 0;
            continue;
        }
        double r = median(rd, nr) / pts, w = median(wr, nw) / pts;
        printf("%-20s | %7.2f/%-8.2f | %16.2f | %16.2f | %.2f/%.2f\n", v->name, mr, mw, r, w, r / 4, w / 4);
    }
    return ok ? 0 : 1;
}

int lab_main(const struct lab *lab, int argc, char **argv)
{
    set_program_name(argv[0]);
    struct options o;
    char err[512];
    int rc = parse_options(lab, argc, argv, &o, err, sizeof err);
    if (rc == 1) return 0;
    if (rc) {
        fprintf(stderr, "%s: %s\n", prog, err);
        return 2;
    }
    if (o.convergence) return run_convergence(&o);
    if (o.profile) return run_profile(&o, argv[0]);

    struct device dev;
    double copy_gbps;
    rc = lab_setup(&o, &dev, 2, &copy_gbps);
    if (rc) return rc;
    double launch_ms = time_empty_launch_ms();

    size_t count = points(o.prob.n), guard = guard_elems(lab, &o.prob);
    float *h_in = malloc(count * sizeof *h_in);
    float *h_out = malloc((count + 2 * guard) * sizeof *h_out);
    double *ref = malloc(count * sizeof *ref);
    if (!h_in || !h_out || !ref) die2("%s", "not enough host memory for this problem");
    fill_random(h_in, count, o.seed);

    struct grids g;
    float *d_in = grid_alloc(count, guard);
    g.in = d_in;
    g.out = grid_alloc(count, guard);
    CUDA_CHECK(cudaMemcpy(d_in, h_in, count * sizeof *h_in, cudaMemcpyHostToDevice));

    FILE *log = o.quiet ? NULL : stdout;
    if (!o.quiet) {
        printf("lab %d (%s) on %s: %d SMs, %.1f GB; copy bandwidth %.0f GB/s "
               "(device-to-device, read + write); empty kernel %.1f us; seed %llu\n",
               lab->number, lab->name, dev.name, dev.sm_count, (double)dev.total_bytes / 1e9,
               copy_gbps, 1e3 * launch_ms, o.seed);
        print_table_header();
    }
    struct result res[MAX_SELECTED];
    int all_pass = 1, ran = 0, ref_kind = -1;
    for (int i = 0; i < o.n_selected; i++) {
        const struct variant *v = &lab->variants[o.selected[i]];
        if (v->kind != ref_kind) {  // variants of one kind share the reference
            lab->reference(&o.prob, v->kind, h_in, ref);
            ref_kind = v->kind;
        }
        res[i] = run_variant(&o, v, &g, guard, h_out, ref, log);
        ran = i + 1;
        all_pass &= res[i].pass;
        if (!o.quiet) print_row(&o, v, &res[i], copy_gbps);
        if (!strncmp(res[i].note, "CUDA error", 10)) break;  // the context may be lost
    }
    if (ran < o.n_selected && !o.quiet)
        printf("(%d variants not run after the CUDA error)\n", o.n_selected - ran);
    all_pass &= ran == o.n_selected;

    if (o.dump && res[0].pass) {
        // h_out holds the output of the last timed run, checked above.
        if (dump_grid(o.dump, h_out + guard, count)) {
            fprintf(stderr, "%s: cannot write --dump file '%s'\n", prog, o.dump);
            all_pass = 0;
        }
    }
    if (lab->smooth && !o.quiet && all_pass) {
        // The smooth input replaces the random one: this comes after everything else.
        printf("\nerror against the analytic answer on a smooth input, and time in empty launches:\n");
        for (int i = 0; i < ran; i++) {
            const struct variant *v = &lab->variants[o.selected[i]];
            double mx, rms;
            analytic_error(lab, v, &o.prob, h_in, ref, d_in, g.out, h_out, &mx, &rms);
            printf("%-20s | RMS error %.3e | MAX error %.3e | %.2f x the empty kernel\n", v->name,
                   rms, mx, res[i].median_ms / launch_ms);
        }
    }
    if (o.csv) {
        struct run_rows rr = {&o, &dev, res, ran, copy_gbps, lab->report_launch ? launch_ms : NAN};
        if (csv_append(o.csv, write_rows, &rr, CSV_HEADER)) all_pass = 0;
    }
    grid_free(d_in, guard);
    grid_free(g.out, guard);
    free(h_in);
    free(h_out);
    free(ref);
    return all_pass ? 0 : 1;
}
