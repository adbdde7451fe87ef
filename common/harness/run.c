// SPDX-License-Identifier: MIT
// One variant: validate (every point against the CPU reference, guards and inputs intact), then
// time with CUDA events (fresh inputs before every run, the device idle, a timed run chosen in
// secret checked as well); and the set-up every mode shares (lab_setup).
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ranks.h"
#include "run.h"

static const double SPIN_US = 20;  // the GPU is busy this long before every timed launch

// ---- one variant: check, time (checking one timed run), report ----

int launch_and_wait(const struct variant *v, const struct problem *p, const struct fields *F,
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
int check_run(const struct options *o, const struct fields *F, float *h_out, const double *ref,
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
    if (ranks_rank() == 0) c = compare(got, ref, p->n, l2, atol, rtol, lab->face_atol, log, MAX_PRINT);
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

void reference_of(const struct options *o, const struct fields *F, int kind, uint64_t seed,
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
double timed_launches(const struct variant *v, const struct problem *p, const struct fields *F,
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

void time_back_to_back(const struct options *o, const struct variant *v, struct fields *F, float *h_out,
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

struct result run_variant(const struct options *o, const struct device *dev, const struct variant *v,
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
    if (dev->smem_emulated && !p->ghost) {
        r.smem = launch_smem(v->launch, p, &F->ctx);
        if (r.smem < 0) r.smem = -2;  // asked for, and not known: the row says so
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
            if (!R->chk_in[0]) {
                for (int f = 0, k = 0; f < o->lab->n_fields; f++)
                    if (o->lab->fields[f].role == FIELD_IN) R->chk_in[k++] = xmalloc(F->global * sizeof(float));
                host_inputs(o->lab, p, R->seeds[checked], R->chk_in);
            }
            if (R->chk_kind != v->kind) {
                reference_of(o, F, v->kind, R->seeds[checked], R->chk_in, R->chk);
                R->chk_kind = v->kind;
            }
            double err;
            char why[sizeof r.note];
            if (!check_run(o, F, h_out, R->chk, R->chk_in, &err, why, sizeof why, log))  // inputs unchanged too
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

// ---- set-up shared by the table, --convergence and --profile ----

// Open the GPU, drop (or, if named, refuse) the selected variants that cannot run the problem,
// check that the fields fit, measure the copy roof, call the kernels' setup. Returns 0, or 2
// after one line on stderr.
int lab_setup(struct options *o, struct device *dev, double *copy_gbps)
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
