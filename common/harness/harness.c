// SPDX-License-Identifier: MIT
// lab_main: the fields of a lab on the GPU with guard bands, fresh inputs before every run,
// validation before timing, CUDA-event timing with the device synchronised around every run, a
// randomly chosen timed run checked as well, the table and the CSV. Plain C11 on the CUDA
// runtime; the lab's definition says what to compute, its kernels file how.
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>  // gethostname

#include "harness.h"
#include "ranks.h"

enum { WARMUP = 2, MAX_PRINT = 10 };
static const double SPIN_US = 20;  // the GPU is busy this long before every timed launch

// ---- the one error path (common/harness/program.c), for a failed CUDA call ----

void lab_cuda_failed(const char *file, int line, const char *call, cudaError_t err)
{
    lab_call_failed(file, line, call, cudaGetErrorString(err));
}

void lab_call_failed(const char *file, int line, const char *call, const char *why)
{
    fprintf(stderr, "%s: %s:%d: %s failed: %s\n", program_name(), file, line, call, why);
    fatal_exit(1);
}

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "%s: not enough host memory (%.2f GB more) for this problem\n", program_name(), (double)bytes / 1e9);
        fatal_exit(2);
    }
    return p;
}

// ---- the fields of a lab on the GPU ----


// Each field of this process: its slab's planes (from dev[f]) with `lo` elements of ghost planes
// below and above (lab 9; else 0), and `guard` poisoned elements beyond those. On the GPU a row
// takes pitch elements (nx of them points, lab.h); on the host the points lie without padding.
struct fields {
    const struct lab *lab;
    size_t nx, pitch, plane, hplane;  // plane: a z plane on the GPU (pitch ny); hplane: on the host (nx ny)
    size_t count, guard, lo, local, global;  // count: the slab's points; local: elements, ghosts included
    float *dev[MAX_FIELDS];     // the first plane this process owns of each field
    float *host_in[MAX_FIELDS]; // the inputs of the validation run (IN fields), the whole grid
    float *h_all;               // rank 0 of several: the gathered result
    struct context ctx;
    int result;                 // the field a variant's answer is read from (the OUT field)
};

static void fields_alloc(struct fields *F, const struct lab *lab, const struct problem *p)
{
    memset(F, 0, sizeof *F);
    F->lab = lab;
    F->nx = p->n[0];
    F->pitch = p->pitch;
    F->plane = p->pitch * p->n[1];
    F->hplane = p->n[0] * p->n[1];
    F->count = F->hplane * p->slab_nz;
    F->lo = F->plane * (size_t)p->ghost;
    F->local = F->plane * p->slab_nz + 2 * F->lo;
    F->global = points(p->n);
    F->guard = guard_elems(lab, p);
    int n_in = 0, n_out = 0, n_scratch = 0;
    F->result = -1;
    for (int f = 0; f < lab->n_fields; f++) {
        size_t total = F->local + 2 * F->guard;
        float *base;
        CUDA_CHECK(cudaMalloc((void **)&base, total * sizeof(float)));
        CUDA_CHECK(cudaMemset(base, POISON_BYTE, total * sizeof(float)));
        F->dev[f] = base + F->guard + F->lo;
        switch (lab->fields[f].role) {
        case FIELD_IN:
            F->ctx.in[n_in++] = F->dev[f];
            F->host_in[f] = xmalloc(F->global * sizeof(float));
            break;
        case FIELD_OUT:
            F->ctx.out[n_out++] = F->dev[f];
            if (F->result < 0) F->result = f;
            break;
        case FIELD_SCRATCH:
            F->ctx.scratch[n_scratch++] = F->dev[f];
            break;
        }
    }
    F->ctx.stream = 0;  // the legacy default stream: it orders every blocking stream's work
    F->ctx.rank = ranks_rank();
    F->ctx.ranks = ranks_size();
    CUDA_CHECK(cudaGetDevice(&F->ctx.device));
    if (ranks_size() > 1 && ranks_rank() == 0) F->h_all = xmalloc(F->global * sizeof(float));
}

// The first element of field f's allocation (its guard band).
static float *field_base(const struct fields *F, int f) { return F->dev[f] - F->lo - F->guard; }

// `rows` rows of `width` elements from src (spitch apart) to dst (dpitch apart): one copy where
// both are contiguous, else cudaMemcpy2D (pitches below 2^31 bytes), else a row at a time.
static void copy_rows(float *dst, size_t dpitch, const float *src, size_t spitch, size_t width, size_t rows,
                      enum cudaMemcpyKind kind)
{
    const size_t e = sizeof(float);
    if (dpitch == width && spitch == width)
        CUDA_CHECK(cudaMemcpy(dst, src, width * rows * e, kind));
    else if (dpitch * e <= INT_MAX && spitch * e <= INT_MAX)
        CUDA_CHECK(cudaMemcpy2D(dst, dpitch * e, src, spitch * e, width * e, rows, kind));
    else
        for (size_t r = 0; r < rows; r++) CUDA_CHECK(cudaMemcpy(dst + r * dpitch, src + r * spitch, width * e, kind));
}

// NaN into the padding of `rows` rows on the GPU (legacy stream): one 2D memset where its pitch
// limit allows (2^31 bytes), else a row at a time.
static void poison_padding(float *a, size_t nx, size_t pitch, size_t rows)
{
    const size_t e = sizeof(float);
    if (pitch * e <= INT_MAX)
        CUDA_CHECK(cudaMemset2DAsync(a + nx, pitch * e, POISON_BYTE, (pitch - nx) * e, rows, 0));
    else
        for (size_t r = 0; r < rows; r++) CUDA_CHECK(cudaMemsetAsync(a + r * pitch + nx, POISON_BYTE, (pitch - nx) * e, 0));
}

// Rows of nx elements, pitch apart, moved together in place (a field as the host compares it).
static void pack_rows(float *a, size_t nx, size_t pitch, size_t rows)
{
    if (pitch != nx)
        for (size_t r = 1; r < rows; r++) memmove(a + r * nx, a + r * pitch, nx * sizeof *a);
}

// Whether the padding at the end of each of `rows` rows is still poison.
static int padding_intact(const float *a, size_t nx, size_t pitch, size_t rows)
{
    for (size_t r = 0; r < rows && pitch > nx; r++)
        if (!guard_intact(a + r * pitch + nx, pitch - nx)) return 0;
    return 1;
}

// The planes of this process's slab and its ghost planes that lie in the grid: zlo .. zhi - 1.
static void slab_span(const struct problem *p, size_t *zlo, size_t *zhi)
{
    size_t g = (size_t)p->ghost, hi = p->slab_z0 + p->slab_nz + g;
    *zlo = p->slab_z0 >= g ? p->slab_z0 - g : 0;
    *zhi = hi < p->n[2] ? hi : p->n[2];
}

// Copy this process's planes (its slab and the ghost planes in the grid) of the whole-grid input
// `grid` into field f.
static void upload_slab(const struct fields *F, const struct problem *p, int f, const float *grid)
{
    size_t zlo, zhi;
    slab_span(p, &zlo, &zhi);
    float *at = F->dev[f] - (p->slab_z0 - zlo) * F->plane;
    copy_rows(at, F->pitch, grid + zlo * F->hplane, F->nx, F->nx, (zhi - zlo) * p->n[1], cudaMemcpyHostToDevice);
}

static void fields_free(struct fields *F)
{
    for (int f = 0; f < F->lab->n_fields; f++) {
        CUDA_CHECK(cudaFree(field_base(F, f)));
        free(F->host_in[f]);
    }
    free(F->h_all);
}

// The host copies of the input fields of a run, one array per input field in `into`.
static void host_inputs(const struct lab *lab, const struct problem *p, uint64_t seed, float *const *into)
{
    for (int f = 0, k = 0; f < lab->n_fields; f++) {
        if (lab->fields[f].role != FIELD_IN) continue;
        if (lab->input) lab->input(p, f, seed, into[k++]);
        else fill_random(into[k++], points(p->n), field_seed(seed, f));
    }
}

// Before a run: fresh inputs, NaN in every output and scratch array (their ghost planes and
// guards included). A lab's own inputs are made on the GPU where they follow a rule (uploading
// three 512^3 fields before each run would cost more than the run), else on the host.
static void prepare_run(const struct fields *F, const struct problem *p, uint64_t seed)
{
    static float *staging;  // the whole grid of a lab's own input, made on the host
    static size_t staged;
    static double *scale;  // a rule's scale of every plane
    static size_t scales;
    if (scales < p->n[2]) {
        free(scale);
        scale = xmalloc(p->n[2] * sizeof *scale);
        scales = p->n[2];
    }
    for (int f = 0; f < F->lab->n_fields; f++) {
        double offset, slope;
        if (F->lab->fields[f].role == FIELD_IN && F->lab->input_rule &&
            F->lab->input_rule(p, f, scale, &offset, &slope)) {
            size_t zlo, zhi;  // this process's planes: its slab and the ghost planes in the grid
            slab_span(p, &zlo, &zhi);
            device_fill_seeded(F->dev[f] - (p->slab_z0 - zlo) * F->plane, F->nx, F->pitch, p->n[1], zlo, zhi - zlo,
                               scale, offset, slope, field_seed(seed, f));
        } else if (F->lab->fields[f].role == FIELD_IN && F->lab->input) {
            if (staged < F->global) {
                free(staging);
                staging = xmalloc(F->global * sizeof *staging);
                staged = F->global;
            }
            F->lab->input(p, f, seed, staging);
            upload_slab(F, p, f, staging);
        } else if (F->lab->fields[f].role == FIELD_IN)  // one process (lab_main refuses ghosts without `input`)
            device_fill_random(F->dev[f], F->nx, F->pitch, p->n[1] * p->slab_nz, field_seed(seed, f));
        if (F->lab->fields[f].role == FIELD_IN && F->pitch > F->nx)  // NaN again where a run may have written it
            poison_padding(F->dev[f], F->nx, F->pitch, p->n[1] * p->slab_nz);
        if (F->lab->fields[f].role != FIELD_IN)
            CUDA_CHECK(cudaMemsetAsync(field_base(F, f), POISON_BYTE, (F->local + 2 * F->guard) * sizeof(float), 0));
    }
}

// ---- one variant: check, time (checking one timed run), report ----

struct result {
    double median_ms, min_ms, rel_err, red_r, red_w;
    int pass, cuda_error;
    long smem;  // shared memory a block, where STENCIL_EMULATE asked for it to be checked (else -1)
    char note[200];
};

static int launch_and_wait(const struct variant *v, const struct problem *p, const struct fields *F,
                           char *note, size_t notelen)
{
    v->launch(p, &F->ctx);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) snprintf(note, notelen, "CUDA error: %s", cudaGetErrorString(e));
    if (!ranks_all(e == cudaSuccess)) {  // every process takes the same path
        if (e == cudaSuccess) snprintf(note, notelen, "CUDA error on another rank");
        return -1;
    }
    return 0;
}

// Copy the result field with its guards back and compare it with ref; check every other
// field's guards, that no input's padding was written and that no input changed (against
// `inputs`, when given). Returns 1 on pass.
static int check_run(const struct options *o, const struct fields *F, float *h_out, const double *ref,
                     float *const *inputs, double *rel_err, char *note, size_t notelen, FILE *log)
{
    const struct lab *lab = o->lab;
    const struct problem *p = &o->prob;
    const size_t count = F->count, guard = F->guard, local = F->local, total = local + 2 * guard;
    size_t zlo, zhi;
    slab_span(p, &zlo, &zhi);
    const size_t in_at = guard + F->lo - (p->slab_z0 - zlo) * F->plane, in_rows = (zhi - zlo) * p->n[1];
    double l2, atol, rtol;
    problem_tolerance(lab, p, &l2, &atol, &rtol);
    // Every other field first, through h_out; the result last, so that h_out keeps it (--dump).
    const char *broken = NULL;
    int changed = -1;
    for (int f = 0, k = 0; f < lab->n_fields; f++) {
        if (f == F->result) continue;
        int is_in = lab->fields[f].role == FIELD_IN;
        CUDA_CHECK(cudaMemcpy(h_out, field_base(F, f), total * sizeof(float), cudaMemcpyDeviceToHost));
        if (!broken && !(guard_intact(h_out, guard) && guard_intact(h_out + guard + local, guard)))
            broken = lab->fields[f].name;
        // an input, with the ghost planes it came with, as it was uploaded; its padding still NaN
        if (is_in && changed < 0) {
            if (!padding_intact(h_out + in_at, F->nx, F->pitch, in_rows)) changed = f;
            pack_rows(h_out + in_at, F->nx, F->pitch, in_rows);
            if (inputs && memcmp(h_out + in_at, inputs[k] + zlo * F->hplane, in_rows * F->nx * sizeof(float)))
                changed = f;
        }
        k += is_in;
    }
    CUDA_CHECK(cudaMemcpy(h_out, field_base(F, F->result), total * sizeof(float), cudaMemcpyDeviceToHost));
    if (!(guard_intact(h_out, guard) && guard_intact(h_out + guard + local, guard)))
        broken = lab->fields[F->result].name;
    pack_rows(h_out + guard + F->lo, F->nx, F->pitch, p->slab_nz * p->n[1]);  // the output's padding is not checked
    // Several processes: rank 0 gathers the slabs and compares; every rank learns the verdict.
    const float *got = h_out + guard + F->lo;
    if (ranks_size() > 1) {
        ranks_gather(got, count, F->h_all);
        got = F->h_all;
    }
    struct check c = {0};
    if (ranks_rank() == 0) c = compare(got, ref, p->n, l2, atol, rtol, log, MAX_PRINT);
    *rel_err = c.rel_l2;
    int pass = ranks_all(ranks_rank() != 0 || c.pass), intact = ranks_all(!broken), kept = ranks_all(changed < 0);
    if (broken) snprintf(note, notelen, "wrote outside the array '%s' (guard band changed)", broken);
    else if (!intact) snprintf(note, notelen, "wrote outside an array on another rank (guard band changed)");
    else if (changed >= 0) snprintf(note, notelen, "wrote into the input '%s'", lab->fields[changed].name);
    else if (!kept) snprintf(note, notelen, "wrote into an input on another rank");
    else if (c.nan) snprintf(note, notelen, "%zu of %zu points NaN or never written", c.nan, F->global);
    else if (c.bad) snprintf(note, notelen, "%zu of %zu points outside tolerance", c.bad, F->global);
    else if (!pass) snprintf(note, notelen, "relative L2 error above %.1e", l2);
    return pass && intact && kept;
}

// The references a run is checked against: the validation run's and the checked timed run's,
// each for the kind of answer it was last computed for.
struct references {
    double *val, *chk;
    int val_kind, chk_kind;
    int checked_run;  // which timed run is checked (0-based, after the warm-up)
    // The seed of every run after the validation run (the warm-up ones first): drawn from the
    // operating system, each on its own, so that no run's input follows from what a kernel saw
    // before it (--seed, or another timed run's input).
    uint64_t *seeds;
};

static void reference_of(const struct options *o, const struct fields *F, int kind, uint64_t seed,
                         float *const *inputs, double *ref)
{
    if (ranks_rank() != 0) return;  // rank 0 checks the gathered answer
    const float *in[MAX_FIELDS] = {0};
    float *tmp[MAX_FIELDS] = {0};
    int n_in = 0;
    for (int f = 0; f < o->lab->n_fields; f++)
        if (o->lab->fields[f].role == FIELD_IN) n_in++;
    if (inputs) {
        for (int k = 0; k < n_in; k++) in[k] = inputs[k];
    } else {  // a timed run's inputs, made here and dropped after
        for (int k = 0; k < n_in; k++) tmp[k] = xmalloc(F->global * sizeof(float));
        host_inputs(o->lab, &o->prob, seed, tmp);
        for (int k = 0; k < n_in; k++) in[k] = tmp[k];
    }
    o->lab->reference(&o->prob, kind, in, ref);
    for (int k = 0; k < n_in; k++) free(tmp[k]);
}

static int dump_grid(const char *path, const void *a, size_t bytes);

// --timing b2b: the inputs of the validation run, prepared once; per sample B2B_BATCH launches
// back to back between two events (no refresh, no synchronisation in between), the time divided
// by B2B_BATCH, as NVIDIA's samples time small kernels. Every launch recomputes the same answer
// from the same inputs (a kernels file never writes its inputs), so the last one is checked
// against the validation reference. Launch overhead overlaps the previous kernel, and a small
// problem's data may still be in L2 from the launch before: what a loop of kernels sees.
// One timed sample: a spin so that the launches are queued before the first event is reached,
// `batch` launches between two events on the legacy default stream (which every blocking stream
// synchronises with), then the device synchronised. Returns ms per launch, or -1 after a CUDA
// error (in r's note).
static double timed_launches(const struct variant *v, const struct problem *p, const struct fields *F,
                             cudaEvent_t *ev, int batch, struct result *r)
{
    ranks_barrier();  // several processes start together; the run takes the slowest one's time
    device_spin(SPIN_US);
    CUDA_CHECK(cudaEventRecord(ev[0], 0));
    for (int b = 0; b < batch; b++) v->launch(p, &F->ctx);
    // Lab 9's kernels file may make streams of its own, and one made non-blocking does not wait
    // for the legacy stream: there the end event waits for the whole device (the host's wake-up,
    // some microseconds, is timed too).
    if (p->ghost) CUDA_CHECK(cudaDeviceSynchronize());
    CUDA_CHECK(cudaEventRecord(ev[1], 0));
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaSuccess) snprintf(r->note, sizeof r->note, "CUDA error in timed runs: %s", cudaGetErrorString(e));
    if (!ranks_all(e == cudaSuccess)) {
        if (e == cudaSuccess) snprintf(r->note, sizeof r->note, "CUDA error in timed runs on another rank");
        r->cuda_error = 1;
        return -1;
    }
    float f;
    CUDA_CHECK(cudaEventElapsedTime(&f, ev[0], ev[1]));
    return ranks_max(f / batch);
}

static void time_back_to_back(const struct options *o, const struct variant *v, struct fields *F, float *h_out,
                              struct references *R, float *const *inputs, FILE *log, cudaEvent_t *ev, double *ms,
                              struct result *r)
{
    prepare_run(F, &o->prob, o->seed);
    for (int i = -WARMUP; i < o->reps; i++) {
        double t = timed_launches(v, &o->prob, F, ev, B2B_BATCH, r);
        if (t < 0) return;
        if (i >= 0) ms[i] = t;
    }
    double err;
    char why[sizeof r->note];
    if (!check_run(o, F, h_out, R->val, inputs, &err, why, sizeof why, log))
        snprintf(r->note, sizeof r->note, "back-to-back runs: %.170s", why);
}

static struct result run_variant(const struct options *o, const struct device *dev, const struct variant *v,
                                 struct fields *F, float *h_out, struct references *R, float *const *inputs, FILE *log)
{
    struct result r = {0};
    r.median_ms = r.min_ms = r.rel_err = NAN;
    r.smem = -1;
    const struct problem *p = &o->prob;
    v->model(p, &r.red_r, &r.red_w);
    if (v->prepare) v->prepare(p);

    // 0. On an emulated smaller GPU, what a launch on that GPU would refuse: a block that asks for
    // more shared memory than it has (found in a captured launch, which never runs). Lab 9's
    // launches exchange planes between processes and are not captured.
    if (dev->emulated && !p->ghost) {
        r.smem = launch_smem(v->launch, p, &F->ctx);
        if (r.smem > (long)dev->smem_per_block_optin) {
            snprintf(r.note, sizeof r.note, "a block asks for %.1f KB of shared memory; this GPU (STENCIL_EMULATE) "
                     "allows %.1f KB", r.smem / 1024.0, dev->smem_per_block_optin / 1024.0);
            return r;
        }
    }

    // 1. Validate: the inputs of the seed, NaN in the outputs, one run, every point compared.
    if (R->val_kind != v->kind) {
        reference_of(o, F, v->kind, o->seed, inputs, R->val);
        R->val_kind = v->kind;
    }
    prepare_run(F, p, o->seed);
    if (launch_and_wait(v, p, F, r.note, sizeof r.note)) {
        r.cuda_error = 1;
        return r;
    }
    if (!check_run(o, F, h_out, R->val, inputs, &r.rel_err, r.note, sizeof r.note, log)) return r;
    char dump[4096] = "";
    if (o->dump) {  // written now, renamed into place if the timed runs pass too
        char name[4000];
        snprintf(name, sizeof name, o->dump, v->name);
        snprintf(dump, sizeof dump, "%s.tmp", name);
        // several processes: rank 0 writes the whole grid, gathered by check_run
        const float *grid = ranks_size() > 1 ? F->h_all : h_out + F->guard + F->lo;
        if (!ranks_all(ranks_rank() != 0 || !dump_grid(dump, grid, F->global * sizeof(float)))) {
            snprintf(r.note, sizeof r.note, "cannot write --dump file '%.150s'", name);
            return r;
        }
    }

    // 2. Time: before every run fresh inputs, NaN outputs, the device idle; one event pair around
    // the launch, both on the legacy default stream, which every blocking stream synchronises
    // with; a spin first so that the launch is queued before the first event is reached.
    int total = WARMUP + o->reps, checked = WARMUP + R->checked_run;
    cudaEvent_t ev[2];
    for (int i = 0; i < 2; i++) CUDA_CHECK(cudaEventCreate(&ev[i]));
    double *ms = xmalloc((size_t)o->reps * sizeof *ms);
    if (o->back_to_back) time_back_to_back(o, v, F, h_out, R, inputs, log, ev, ms, &r);
    for (int i = 0; i < total && !r.note[0] && !o->back_to_back; i++) {
        prepare_run(F, p, R->seeds[i]);
        double t = timed_launches(v, p, F, ev, 1, &r);
        if (t < 0) break;
        if (i >= WARMUP) ms[i - WARMUP] = t;
        if (i == checked) {  // the same answer on other inputs, in a run the program did not announce
            if (R->chk_kind != v->kind) {
                reference_of(o, F, v->kind, R->seeds[checked], NULL, R->chk);
                R->chk_kind = v->kind;
            }
            double err;
            char why[sizeof r.note];
            if (!check_run(o, F, h_out, R->chk, NULL, &err, why, sizeof why, log))
                snprintf(r.note, sizeof r.note, "timed run: %.180s", why);
        }
    }
    for (int i = 0; i < 2; i++) CUDA_CHECK(cudaEventDestroy(ev[i]));
    if (!r.note[0]) {
        r.min_ms = minimum(ms, o->reps);
        r.median_ms = median(ms, o->reps);
        r.pass = 1;
    }
    free(ms);
    if (dump[0]) {
        char name[4000];
        snprintf(name, sizeof name, o->dump, v->name);
        if (ranks_rank() == 0 && (!r.pass || rename(dump, name))) remove(dump);  // rank 0 wrote it
    }
    return r;
}

// ---- output ----


static const char ROW_FMT[] = "%-20s | %-13s | %9s | %8s | %8s | %7s%s | %10s | %10s | %s\n";

struct derived {
    double gpts, gbps, pct;
};

// Point-updates per second (points x steps), and the minimal traffic of a run (one step's bytes
// per point x points x steps) over the time, against the copy roof. For a kernel that keeps data
// on chip across steps, % copy / 100 is its speed in units of the single-step bound.
static struct derived derive(const struct options *o, const struct result *r, double copy_gbps)
{
    double pts = (double)points(o->prob.n), steps = o->prob.steps > 0 ? o->prob.steps : 1;
    struct derived d;
    d.gpts = pts * steps / (r->median_ms * 1e-3) / 1e9;
    d.gbps = pts * steps * o->lab->bytes_per_point / (r->median_ms * 1e-3) / 1e9;
    d.pct = 100.0 * d.gbps / copy_gbps;
    return d;
}

static void print_table_header(const struct lab *lab)
{
    printf(ROW_FMT, "variant", "size", "median ms", "Gpts/s", "GB/s", "% copy",
           lab->default_steps ? " | x 1-step" : "", "redundancy", "rel. error", "result");
}

static void print_row(const struct options *o, const struct variant *v, const struct result *r,
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
    snprintf(result, sizeof result, "%s%s%s%s", r->pass ? "PASS" : "FAIL", r->note[0] ? ": " : "", r->note, smem);
    printf(ROW_FMT, v->name, size, med, gpts, gbps, pct, bound, red, err, result);
    fflush(stdout);
}

struct run_rows {
    const struct options *o;
    const struct device *dev;
    const struct result *res;
    int n;
    double copy_gbps;
    double launch_ms;  // NaN: not written
};

static void csv_row(FILE *f, const struct run_rows *rr, const char *variant, const struct result *r)
{
    const struct options *o = rr->o;
    int info = r == NULL;
    struct derived d = {0};
    if (!info) d = derive(o, r, rr->copy_gbps);
    fprintf(f, "%s,lab%d_%s,%s,%zu,%zu,%zu,%d,%d,", rr->dev->name, o->lab->number, o->lab->name, variant,
            o->prob.n[0], o->prob.n[1], o->prob.n[2], o->prob.order, o->prob.steps);
    if (info)  // a measurement beside the variants: the empty kernel, timed the same way
        fprintf(f, "%.6f,%.6f,0,0,%.1f,0,0,0,0,INFO,", rr->launch_ms, rr->launch_ms, rr->copy_gbps);
    else
        fprintf(f, "%.6f,%.6f,%.3f,%.1f,%.1f,%.2f,%.4f,%.4f,%.3e,%s,", r->median_ms, r->min_ms, d.gpts,
                d.gbps, rr->copy_gbps, d.pct, r->red_r, r->red_w, r->rel_err, r->pass ? "PASS" : "FAIL");
    fprintf(f, "%s,%d,%d,%s,sm_%d\n", BUILD_COMMIT, o->prob.ranks, o->prob.gpus, o->back_to_back ? "b2b" : "launch",
            rr->dev->code_arch);
}

static void write_rows(FILE *f, void *ctx)
{
    struct run_rows *rr = ctx;
    for (int i = 0; i < rr->n; i++)
        csv_row(f, rr, rr->o->lab->variants[rr->o->selected[i]].name, &rr->res[i]);
    if (!isnan(rr->launch_ms)) csv_row(f, rr, "empty_kernel", NULL);
}

// Write to a temporary name and rename, so that a failed run leaves no partial file.
static int dump_grid(const char *path, const void *a, size_t bytes)
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

// ---- set-up shared by the table, --convergence and --profile ----

// Open the GPU, drop (or, if named, refuse) the selected variants that cannot run the problem,
// check that the fields fit, measure the copy roof, call the kernels' setup. Returns 0, or 2
// after one line on stderr.
static int lab_setup(struct options *o, struct device *dev, double *copy_gbps)
{
    int rc = device_open(dev);
    if (!ranks_all(rc == 0)) {
        if (ranks_rank() == 0 && rc == 0) fprintf(stderr, "%s: another rank found no CUDA device\n", program_name());
        return rc ? rc : 2;
    }
    sandbox_if_asked();  // the GPU is open; the kernels file has not run yet
    const int first = ranks_rank() == 0, ranks = ranks_size();
    o->prob.sm_count = dev->sm_count;
    o->prob.smem_optin = dev->smem_per_block_optin;
    // the GPUs the processes use: told apart by host and UUID (a launcher may show each process
    // only its own GPU), the same number on every process
    problem_slab(o->lab, &o->prob, ranks_distinct(dev->key, sizeof dev->key));
    const char *thin = o->lab->ghost ? slab_refuse(o->prob.n[2], ranks, o->lab->ghost) : NULL;
    if (!thin && ranks > 1 && points(o->prob.n) > 2147483647u)
        thin = "the gather of the slabs counts points in int: at most 2^31 - 1 points with several processes";
    if (thin) {
        if (first) fprintf(stderr, "%s: %s\n", program_name(), thin);
        return 2;
    }
    // A variant named with --variant that cannot run the problem stops the program (exit 2);
    // with 'all', such variants are skipped with a line each and the others run.
    int kept = 0;
    const char *first_why = NULL;
    for (int i = 0; i < o->n_selected; i++) {
        const struct variant *v = &o->lab->variants[o->selected[i]];
        const char *why = v->refuse(&o->prob);
        // a slab may be refused on one process only: then it is refused on all
        if (!ranks_all(why == NULL) && !why) why = "refused on another rank's slab";
        if (why && o->named) {
            if (first) fprintf(stderr, "%s: variant %s cannot run this problem: %s\n", program_name(), v->name, why);
            return 2;
        }
        if (why && !o->quiet) printf("(variant %s skipped: %s)\n", v->name, why);
        if (why && !first_why) first_why = why;
        if (!why) o->selected[kept++] = o->selected[i];
    }
    if (kept == 0) {
        if (first) fprintf(stderr, "%s: no variant can run this problem: %s\n", program_name(), first_why);
        return 2;
    }
    o->n_selected = kept;
    const size_t plane = o->prob.pitch * o->prob.n[1], guard = guard_elems(o->lab, &o->prob);
    const size_t local = plane * (o->prob.slab_nz + 2 * (size_t)o->prob.ghost);
    double need = (double)o->lab->n_fields * (double)(local + 2 * guard) * sizeof(float);
    // Leave room for the copy-bandwidth buffers and the CUDA context (processes sharing a GPU
    // each see it whole: together they may still not fit, which the allocation then reports).
    if (!ranks_all(need <= 0.9 * (double)dev->free_bytes)) {
        if (first) fprintf(stderr, "%s: the problem needs %.2f GB of GPU memory%s, %s has %.2f GB free\n", program_name(),
                           need / 1e9, ranks > 1 ? " per process" : "", dev->name, (double)dev->free_bytes / 1e9);
        return 2;
    }
    // The copy roof of each GPU, measured one process at a time (processes may share a GPU);
    // several GPUs: their roofs together, as the fastest one's times the GPUs.
    double own = 0;
    for (int r = 0; r < ranks; r++) {
        ranks_barrier();
        if (r == ranks_rank()) own = measure_copy_gbps(dev->free_bytes - (size_t)need);
    }
    *copy_gbps = ranks_max(own) * o->prob.gpus;
    if (o->lab->setup) o->lab->setup(&o->prob);
    return 0;
}

// ---- the error against the analytic answer ----

// Run variant v once on the lab's smooth input for problem p; max and RMS error against the
// analytic answer. h_in, exact, h_out: host buffers of points(p->n).
static void analytic_error(const struct lab *lab, const struct variant *v, const struct problem *p,
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

static void write_conv(FILE *f, void *ctx)
{
    const struct conv_rows *c = ctx;
    for (int i = 0; i < c->count; i++)
        fprintf(f, "%s,%s,%s,%zu,%.9e,%.6e,%.6e,%s\n", c->gpu, c->lab, c->rows[i].variant,
                c->rows[i].n, c->rows[i].h, c->rows[i].max_err, c->rows[i].rms_err, BUILD_COMMIT);
}

// A problem of the convergence series: edge n in every dimension of o's problem.
static struct problem conv_problem(const struct options *o, size_t n)
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
static int run_convergence(struct options *o)
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
        printf("error against the analytic answer on a smooth input (lab %d, %s)\n%-14s | %11s | %10s | %10s | %10s | %s\n",
               lab->number, dev.name, "variant", "n", "h = 1/n", "max error", "RMS error", "order");
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
        snprintf(labname, sizeof labname, "lab%d_%s", lab->number, lab->name);
        struct conv_rows cr = {dev.name, labname, rows, nrows};
        if (csv_append(o->csv, write_conv, &cr, "gpu,lab,variant,n,h,max_err,rms_err,commit")) ok = 0;
    }
    for (int k = 0; k < MAX_FIELDS; k++) free(h_in[k]);
    free(h_out);
    free(exact);
    free(rows);
    return ok ? 0 : 1;
}

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

// Run this program under Nsight Compute once per variant (its checked launch, 2 warm-ups and 1
// timed run; the harness's own kernels are filtered out) and read the counters above.
static int run_profile(struct options *o, const char *self)
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
    printf("DRAM traffic per output point%s, caches and warps, measured by ncu (lab %d, %s%s)\n",
           lab->default_steps ? "-step" : "", lab->number, size, head);
    printf("%-20s | %16s | %14s | %15s | %12s | %9s | %9s | %9s | %s\n", "variant", "model read/write", "DRAM read B/pt",
           "DRAM write B/pt", "elements r/w", "L2 rd B/pt", "L1 sec/rq", "occupancy", "top stalls (cycles per instruction)");
    int ok = 1;
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
        // The program makes 4 runs of the variant (the checked one, 2 warm-ups, 1 timed): sums
        // are taken per run; ratios and percentages are the mean over the kernels launched.
        double val[N_COUNTERS];
        for (int m = 0; m < N_COUNTERS; m++)
            val[m] = n[m] == 0 ? NAN : COUNTERS[m].sum ? sum[m] / 4 / pts * COUNTERS[m].scale : sum[m] / n[m];
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
    }
    return ok ? 0 : 1;
}

// ---- --list, --dump-reference ----

// The memory of this process's GPU (STENCIL_EMULATE's where smaller), 0 without one: the
// default size depends on it alone (not on what is free now), so that every program run on this
// machine, the grader's --list and --dump-reference too, agrees on it.
static double listing_gpu_bytes(void)
{
    int count = 0;
    struct cudaDeviceProp prop;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0 ||
        cudaGetDeviceProperties(&prop, ranks_local() % count) != cudaSuccess)
        return 0;
    struct gpu_limits lim;
    double bytes = (double)prop.totalGlobalMem;
    if (emulated_limits(&lim) && lim.memory && (double)lim.memory < bytes) bytes = (double)lim.memory;
    return bytes;
}

// Where a GPU is here, also which variants refuse the problem (on this GPU), so that the grader
// knows which cases a variant owes without running anything.
// The GPUs the processes of this run would use (told apart by host and UUID); every process
// calls it. 1 without a GPU.
static int listing_gpus(void)
{
    char key[GPU_KEY] = "";
    int count = 0;
    struct cudaDeviceProp prop;
    if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0 &&
        cudaGetDeviceProperties(&prop, ranks_local() % count) == cudaSuccess)
        gpu_key(&prop, key);
    return ranks_distinct(key, sizeof key);
}

void gpu_key(const struct cudaDeviceProp *prop, char *key)
{
    memset(key, 0, GPU_KEY);
    gethostname(key, GPU_KEY - sizeof prop->uuid.bytes - 1);
    memcpy(key + GPU_KEY - sizeof prop->uuid.bytes, prop->uuid.bytes, sizeof prop->uuid.bytes);
}

static void print_list(struct options *o, int gpus)
{
    const struct lab *lab = o->lab;
    double l2, atol, rtol;
    problem_tolerance(lab, &o->prob, &l2, &atol, &rtol);
    printf("lab %d %s\n", lab->number, lab->name);
    for (int v = 0; v < lab->n_variants; v++)
        printf("variant %s %d%s\n", lab->variants[v].name, lab->variants[v].kind, lab->variants[v].optional ? " optional" : "");
    int count = 0;
    struct cudaDeviceProp prop;
    if (cudaGetDeviceCount(&count) == cudaSuccess && count > 0 && cudaGetDeviceProperties(&prop, 0) == cudaSuccess) {
        sandbox_if_asked();
        struct gpu_limits lim;
        o->prob.sm_count = prop.multiProcessorCount;
        o->prob.smem_optin = prop.sharedMemPerBlockOptin;
        if (emulated_limits(&lim) && lim.smem_per_block && lim.smem_per_block < o->prob.smem_optin)
            o->prob.smem_optin = lim.smem_per_block;
        // under mpirun (lab 9): rank 0's slab, and whether the processes share GPUs
        problem_slab(lab, &o->prob, gpus);
        for (int v = 0; v < lab->n_variants; v++) {
            const char *why = lab->variants[v].refuse(&o->prob);
            if (why) printf("refuses %s %s\n", lab->variants[v].name, why);
        }
    }
    for (int c = 0; c < lab->n_cases; c++) printf("case %s : %s\n", lab->cases[c].kinds, lab->cases[c].args);
    printf("tolerance %.17g %.17g %.17g\n", l2, atol, rtol);
    printf("size %zu %zu %zu\n", o->prob.n[0], o->prob.n[1], o->prob.n[2]);
    // what the problem needs: GPU memory (the fields, this process's slab), host memory (a run's,
    // and --dump-reference's), in bytes
    printf("memory %.0f %.0f %.0f\n", problem_gpu_bytes(lab, &o->prob), problem_host_bytes(lab, &o->prob, 0),
           problem_host_bytes(lab, &o->prob, 1));
    printf("csv %s\n", CSV_HEADER);
}

static int write_reference(const struct options *o)
{
    const struct lab *lab = o->lab;
    size_t count = points(o->prob.n);
    int n_in = 0;
    for (int f = 0; f < lab->n_fields; f++) n_in += lab->fields[f].role == FIELD_IN;
    float *in[MAX_FIELDS] = {0};
    for (int k = 0; k < n_in; k++) in[k] = xmalloc(count * sizeof(float));
    double *ref = xmalloc(count * sizeof *ref);
    host_inputs(lab, &o->prob, o->seed, in);
    lab->reference(&o->prob, lab->variants[o->selected[0]].kind, (const float *const *)in, ref);
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", o->dump_reference);
    int rc = dump_grid(tmp, ref, count * sizeof *ref) || rename(tmp, o->dump_reference);
    if (rc) {
        remove(tmp);
        fprintf(stderr, "%s: cannot write --dump-reference file '%s'\n", program_name(), o->dump_reference);
    }
    for (int k = 0; k < n_in; k++) free(in[k]);
    free(ref);
    return rc ? 2 : 0;
}

// n secrets from the operating system, the same on every process: the timed runs' seeds, and
// which run is checked.
static void secret_seeds(uint64_t *s, int n)
{
    if (ranks_rank() == 0) {
        FILE *f = fopen("/dev/urandom", "rb");
        if (!f || fread(s, sizeof *s, (size_t)n, f) != (size_t)n) {
            fprintf(stderr, "%s: cannot read /dev/urandom for the timed runs' seeds\n", program_name());
            exit(2);
        }
        fclose(f);
    }
    ranks_bcast(s, (size_t)n * sizeof *s);
}

// ---- the program ----

static int run_lab(const struct lab *lab, int argc, char **argv)
{
    set_program_name(argv[0]);
    const int first = ranks_rank() == 0, ranks = ranks_size();
    if (lab->n_fields > MAX_FIELDS || lab->n_params > MAX_PARAMS || lab->dims > MAX_DIMS ||
        (lab->ghost && (!lab->input || lab->row_align))) {
        fprintf(stderr, "%s: lab %d defines more fields, parameters or dimensions than common/harness/definition.h allows, "
                "or ghost planes without its own inputs or with padded rows\n", program_name(), lab->number);
        return 2;
    }
    struct options o;
    char err[512];
    int rc = parse_options(lab, argc, argv, &o, err, sizeof err);
    if (rc == 1) return 0;
    if (rc) {
        if (first) fprintf(stderr, "%s: %s\n", program_name(), err);
        return 2;
    }
    if (ranks > 1) {  // under mpirun: lab 9's table; one process prints it
        const char *why = !lab->ghost ? "runs as one process (lab 9 is the one for mpirun)"
                        : o.self_test || o.dump_reference || o.convergence || o.profile
                            ? "--self-test, --dump-reference, --convergence and --profile run as one process"
                            : NULL;
        if (why) {
            if (first) fprintf(stderr, "%s: lab %d %s\n", program_name(), lab->number, why);
            return 2;
        }
        if (!first) o.quiet = 1, o.csv = NULL;
    }
    if (!o.sized && !o.self_test && !o.convergence) {  // the lab's default: made smaller where it does not fit
        char note[512];
        if (fit_default_size(lab, &o.prob, listing_gpu_bytes(), host_memory_bytes(), note, sizeof note)) {
            if (problem_finish(lab, &o.prob, err, sizeof err)) {
                if (first) fprintf(stderr, "%s: %s\n", program_name(), err);
                return 2;
            }
            if (first && !o.quiet && !o.list) fprintf(stderr, "%s: %s\n", program_name(), note);
        }
    }
    if (o.list) {
        int gpus = listing_gpus();
        if (first) print_list(&o, gpus);
        return 0;
    }
    if (o.self_test) {
        if (lab->self_test) return lab->self_test();
        printf("1..0 # SKIP lab %d has no host-side checks of its own\n", lab->number);
        return 0;
    }
    if (o.dump_reference) return write_reference(&o);
    if (o.convergence) return run_convergence(&o);
    if (o.profile) return run_profile(&o, argv[0]);

    struct device dev;
    double copy_gbps;
    rc = lab_setup(&o, &dev, &copy_gbps);
    if (rc) return rc;
    double launch_ms = time_empty_launch_ms(o.back_to_back);

    struct fields F;
    fields_alloc(&F, lab, &o.prob);
    size_t count = F.count;
    float *h_out = xmalloc((F.local + 2 * F.guard) * sizeof *h_out);
    // the references of the whole grid, on rank 0 (which compares)
    // The timed runs' seeds and, last, the secret that picks the checked run (unknown to the kernels).
    struct references R = {first ? xmalloc(F.global * sizeof(double)) : NULL,
                           first ? xmalloc(F.global * sizeof(double)) : NULL, -1, -1, 0,
                           xmalloc((size_t)(WARMUP + o.reps + 1) * sizeof(uint64_t))};
    secret_seeds(R.seeds, WARMUP + o.reps + 1);
    R.checked_run = (int)(R.seeds[WARMUP + o.reps] % (uint64_t)o.reps);
    float *inputs[MAX_FIELDS] = {0};
    for (int f = 0, k = 0; f < lab->n_fields; f++)
        if (lab->fields[f].role == FIELD_IN) inputs[k++] = F.host_in[f];
    host_inputs(lab, &o.prob, o.seed, inputs);

    FILE *log = o.quiet ? NULL : stdout;
    if (!o.quiet) {
        char extra[256] = "";
        if (lab->default_steps) snprintf(extra, sizeof extra, "; %d steps", o.prob.steps);
        if (o.back_to_back) {
            size_t len = strlen(extra);
            snprintf(extra + len, sizeof extra - len, "; timed %d launches back to back", B2B_BATCH);
        }
        if (o.prob.ranks > 1) {
            size_t len = strlen(extra);
            snprintf(extra + len, sizeof extra - len, "; %d ranks on %d GPU%s (copy bandwidth: theirs together); MPI %s",
                     o.prob.ranks, o.prob.gpus, o.prob.gpus > 1 ? "s" : "",
                     ranks_cuda_aware() ? "CUDA-aware" : "not CUDA-aware (host memory only)");
        }
        printf("lab %d (%s) on %s (sm_%d): %d SMs, %.1f GB; copy bandwidth %.0f GB/s "
               "(device-to-device, read + write); empty kernel %.1f us; seed %llu%s\n",
               lab->number, lab->name, dev.name, dev.cc, dev.sm_count, (double)dev.total_bytes / 1e9,
               copy_gbps, 1e3 * launch_ms, o.seed, extra);
        // Which of the kernels' code paths runs (the course guide, "Every GPU"): where the build
        // has no machine code for this GPU, the driver compiles the newest PTX it has at start-up.
        printf("code path: sm_%d%s", dev.code_arch,
               dev.code_sass == dev.cc && dev.code_arch != dev.cc ? " (PTX compiled by the driver for this GPU)" : "");
        if (dev.emulated)
            printf("; emulating a GPU with %.0f KB of shared memory a block and %.1f GB (STENCIL_EMULATE)",
                   dev.smem_per_block_optin / 1024.0, (double)dev.total_bytes / 1e9);
        printf("\n");
        if (o.prob.ranks > o.prob.gpus)
            printf("(%d ranks share %d GPU%s: the times are not a scaling result)\n", o.prob.ranks, o.prob.gpus,
                   o.prob.gpus > 1 ? "s" : "");
        print_table_header(lab);
    }
    struct result res[MAX_SELECTED];
    int all_pass = 1, ran = 0;
    for (int i = 0; i < o.n_selected; i++) {
        const struct variant *v = &lab->variants[o.selected[i]];
        res[i] = run_variant(&o, &dev, v, &F, h_out, &R, inputs, log);
        ran = i + 1;
        all_pass &= res[i].pass;
        if (!o.quiet) print_row(&o, v, &res[i], copy_gbps);
        if (res[i].cuda_error) break;  // the context may be lost
    }
    if (ran < o.n_selected && !o.quiet)
        printf("(%d variants not run after the CUDA error)\n", o.n_selected - ran);
    all_pass &= ran == o.n_selected;

    if (lab->smooth && all_pass && (!o.quiet || lab->analytic_check)) {
        // The smooth input replaces the random one: this comes after everything else.
        double l2, atol, rtol;
        problem_tolerance(lab, &o.prob, &l2, &atol, &rtol);
        if (!o.quiet) printf("\nerror against the analytic answer on a smooth input, and time in empty launches:\n");
        for (int i = 0; i < ran; i++) {
            const struct variant *v = &lab->variants[o.selected[i]];
            double mx, rms, top = 0;
            analytic_error(lab, v, &o.prob, &F, inputs, R.val, h_out, &mx, &rms, 0);
            for (size_t k = 0; k < count; k++) top = fmax(top, fabs(R.val[k]));
            // A grid too thin for the smooth input (the mode vanishes at every point) checks nothing.
            const char *verdict = !lab->analytic_check ? ""
                                : top < 1e-6 ? " | nothing to check: the mode vanishes on this grid"
                                : mx <= atol * top ? " | within the tolerance"
                                : " | analytic check FAILED: more than the tolerance";
            all_pass &= !(lab->analytic_check && top >= 1e-6 && !(mx <= atol * top));
            if (!o.quiet)
                printf("%-20s | RMS error %.3e | MAX error %.3e | %.2f x the empty kernel%s\n", v->name, rms, mx,
                       res[i].median_ms / launch_ms, verdict);
        }
    }
    if (o.csv) {
        struct run_rows rr = {&o, &dev, res, ran, copy_gbps, lab->report_launch ? launch_ms : NAN};
        if (csv_append(o.csv, write_rows, &rr, CSV_HEADER)) all_pass = 0;
    }
    fields_free(&F);
    free(h_out);
    free(R.val);
    free(R.chk);
    free(R.seeds);
    return all_pass ? 0 : 1;
}

int lab_main(const struct lab *lab, int argc, char **argv)
{
    ranks_init(&argc, &argv);
    int rc = run_lab(lab, argc, argv);
    ranks_finalize();
    return rc;
}
