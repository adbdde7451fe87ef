// SPDX-License-Identifier: MIT
// lab_main: a lab program from its options: the table (validation before timing, then the
// timed runs, the analytic check, the CSV), or --list, --self-test, --dump-reference,
// --convergence, --profile. Plain C11 on the CUDA runtime; the lab's definition says what to
// compute, its kernels file how.
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>  // gethostname

#include "ranks.h"
#include "run.h"

// ---- the one error path (common/harness/program.c), for a failed CUDA call ----

void lab_cuda_failed(const char *file, int line, const char *call, cudaError_t err)
{
    lab_call_failed(file, line, call, cudaGetErrorString(err));
}

void lab_call_failed(const char *file, int line, const char *call, const char *why)
{
    capture_escape();  // a call that failed because launch_smem captures the launch: not fatal
    fprintf(stderr, "%s: %s:%d: %s failed: %s\n", program_name(), file, line, call, why);
    fatal_exit(1);
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
    printf("lab %s %s\n", lab->id, lab->name);
    for (int v = 0; v < lab->n_variants; v++)
        printf("variant %s %d%s\n", lab->variants[v].name, lab->variants[v].kind,
               lab->variants[v].optional ? " optional" : lab->variants[v].given ? " given" : "");
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
    printf("tolerance %.17g %.17g %.17g %.17g\n", l2, atol, rtol, lab->face_atol);
    printf("size %zu %zu %zu\n", o->prob.n[0], o->prob.n[1], o->prob.n[2]);
    printf("steps %d\n", o->prob.steps);  // 0: a lab without --steps
    if (lab->flops_per_point) printf("flops %g\n", lab->flops_per_point(&o->prob));
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
    sandbox_files_if_asked();  // before the CUDA runtime starts threads (Landlock binds this one and its children)
    const int first = ranks_rank() == 0, ranks = ranks_size();
    if (lab->n_fields > MAX_FIELDS || lab->n_params > MAX_PARAMS || lab->dims > MAX_DIMS ||
        (lab->ghost && !lab->input)) {
        fprintf(stderr, "%s: lab %s defines more fields, parameters or dimensions than common/harness/definition.h allows, "
                "or ghost planes without its own inputs\n", program_name(), lab->id);
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
            if (first) fprintf(stderr, "%s: lab %s %s\n", program_name(), lab->id, why);
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
    // make check's build of a student's program (STENCIL_GRADING) holds no CPU reference: it
    // answers the grader's requests and nothing else
    if (!lab->reference && !o.serve) {
        if (first) fprintf(stderr, "%s: this program was built for make check, without the CPU reference: it runs --serve and --list only\n", program_name());
        return 2;
    }
    if (o.serve) return run_serve(&o);
    if (o.self_test) {
        if (lab->self_test) return lab->self_test();
        printf("1..0 # SKIP lab %s has no host-side checks of its own\n", lab->id);
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
                           xmalloc((size_t)(WARMUP + o.reps + 1) * sizeof(uint64_t)), {0}};
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
        printf("lab %s (%s) on %s (sm_%d): %d SMs, %.1f GB; copy bandwidth %.0f GB/s "
               "(device-to-device, read + write); empty kernel %.1f us; seed %llu%s\n",
               lab->id, lab->name, dev.name, dev.cc, dev.sm_count, (double)dev.total_bytes / 1e9,
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
            if (lab->analytic_check && top >= 1e-6 && !(mx <= atol * top)) {  // the variant fails: its row, its dump
                all_pass = 0;
                res[i].pass = 0;
                snprintf(res[i].note, sizeof res[i].note, "analytic check: max error %.2e, more than %.2e", mx, atol * top);
                if (o.dump && first) {
                    char name[4000];
                    snprintf(name, sizeof name, o.dump, v->name);
                    remove(name);
                }
            }
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
    for (int k = 0; k < MAX_FIELDS; k++) free(R.chk_in[k]);
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
