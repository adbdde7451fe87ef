// SPDX-License-Identifier: MIT
// --serve: how make check runs a student's program (the course guide, "Grading"). The program
// checks nothing and times nothing: it runs what it is asked, on inputs made from the seeds it
// is given, and says what came out as digests. The grader, in its own process, picks the seeds,
// times each request with its own clock, chooses after the runs which of them to see in full,
// and compares those with its own CPU reference. Requests on stdin, one a line; one answer a
// request on stdout, "ok ..." or "error WHY":
//   run VARIANT SEED...      a run for each seed: the seed's inputs, NaN in the outputs and work
//                            arrays, the launch, the device synchronised; answers "ok" and, for
//                            each run, OUT:IN, the digests (hex) of the output and of the inputs
//                            as the run left them
//   null SEED...             the same without the launch: the harness's own part of a run
//   dump VARIANT SEED FILE   one run, its output written to FILE (float32, x fastest, no
//                            padding; FILE "-": not written); answers "ok OUT:IN"
// End of input ends the program. Lab 9 under mpirun: rank 0 reads, every rank runs its slab.
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ranks.h"
#include "run.h"

enum { LINE_MAX_BYTES = 1 << 16, MAX_RUNS = 1000 };

// The digests of the output (its points) and of every input (summed; their padding too, which
// must stay NaN) of this process's slab, added into d[0], d[1] on the GPU.
static void digest_fields(const struct fields *F, const struct problem *p, unsigned long long *d)
{
    const size_t rows = p->slab_nz * p->n[1];
    for (int f = 0; f < F->lab->n_fields; f++) {
        if (f == F->result) device_digest(F->dev[f], F->nx, F->pitch, rows, p->slab_z0 * F->nx * p->n[1], &d[0]);
        else if (F->lab->fields[f].role == FIELD_IN)
            device_digest(F->dev[f], F->pitch, F->pitch, rows, ((uint64_t)f << 56) + p->slab_z0 * F->pitch * p->n[1], &d[1]);
    }
}

// One run (v NULL: none, the harness's part only); its digests into d (device memory, zeroed).
static const char *one_run(const struct variant *v, const struct problem *p, const struct fields *F,
                           unsigned long long *d, uint64_t seed)
{
    prepare_run(F, p, seed);
    ranks_barrier();  // lab 9: the processes start together
    if (v) v->launch(p, &F->ctx);
    cudaError_t e = cudaGetLastError();
    // the whole device: work on any stream of the kernels file is part of the run
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (!ranks_all(e == cudaSuccess)) return e == cudaSuccess ? "CUDA error on another rank" : cudaGetErrorString(e);
    digest_fields(F, p, d);
    return NULL;
}

// The whole output grid on rank 0 (h_out: the slab with its guards; lab 9 gathers the slabs).
static const float *result_grid(const struct fields *F, const struct problem *p, float *h_out)
{
    CUDA_CHECK(cudaMemcpy(h_out, field_base(F, F->result), (F->local + 2 * F->guard) * sizeof(float),
                          cudaMemcpyDeviceToHost));
    float *mine = h_out + F->guard + F->lo;
    pack_rows(mine, F->nx, F->pitch, p->slab_nz * p->n[1]);
    if (ranks_size() == 1) return mine;
    ranks_gather(mine, F->count, F->h_all);
    return F->h_all;
}

static const struct variant *find(const struct options *o, const char *name)
{
    for (int i = 0; name && i < o->n_selected; i++)
        if (!strcmp(o->lab->variants[o->selected[i]].name, name)) return &o->lab->variants[o->selected[i]];
    return NULL;
}

static int parse_seed(const char *s, uint64_t *seed)
{
    char *end;
    if (!s || !*s) return -1;
    *seed = strtoull(s, &end, 10);
    return *end ? -1 : 0;
}

// One request; its answer printed on rank 0. Returns 0, or -1 after a CUDA error (the context
// may be lost: the program ends).
static int serve_request(const struct options *o, const struct fields *F, float *h_out, unsigned long long *d_dig,
                         char *line)
{
    const int first = ranks_rank() == 0;
    char *save = NULL, *word[MAX_RUNS + 3];
    int n = 0;
    for (char *w = strtok_r(line, " \t\r\n", &save); w && n < MAX_RUNS + 3; w = strtok_r(NULL, " \t\r\n", &save))
        word[n++] = w;
    if (n == 0) return 0;
    const int is_null = !strcmp(word[0], "null"), is_dump = !strcmp(word[0], "dump");
    const struct variant *v = is_null ? NULL : find(o, n > 1 ? word[1] : NULL);
    const int seeds_at = is_null ? 1 : 2, runs = is_dump ? 1 : n - seeds_at;
    uint64_t seed[MAX_RUNS];
    const char *bad = NULL;
    if (!is_null && !is_dump && strcmp(word[0], "run")) bad = "unknown request";
    else if (!is_null && !v) bad = "no such variant here (or refused)";
    else if (runs < 1 || (is_dump && n != 4) || n == MAX_RUNS + 3) bad = "wrong number of words";
    for (int r = 0; !bad && r < runs; r++)
        if (parse_seed(word[seeds_at + r], &seed[r])) bad = "bad seed";
    if (bad) {
        if (first) printf("error %s\n", bad);
        fflush(stdout);
        return 0;
    }
    CUDA_CHECK(cudaMemset(d_dig, 0, 2 * (size_t)runs * sizeof *d_dig));
    for (int r = 0; r < runs; r++) {
        const char *why = one_run(v, &o->prob, F, d_dig + 2 * r, seed[r]);
        if (why) {
            if (first) printf("error CUDA: %s\n", why);
            fflush(stdout);
            return -1;
        }
    }
    unsigned long long dig[2 * MAX_RUNS];
    CUDA_CHECK(cudaMemcpy(dig, d_dig, 2 * (size_t)runs * sizeof *dig, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 2 * runs; k++) dig[k] = ranks_sum_u64(dig[k]);
    if (is_dump && strcmp(word[3], "-")) {
        const float *grid = result_grid(F, &o->prob, h_out);
        if (!ranks_all(!first || !dump_grid(word[3], grid, F->global * sizeof(float)))) {
            if (first) printf("error cannot write %s\n", word[3]);
            fflush(stdout);
            return 0;
        }
    }
    if (first) {
        printf("ok");
        for (int r = 0; r < runs; r++) printf(" %016" PRIx64 ":%016" PRIx64, (uint64_t)dig[2 * r], (uint64_t)dig[2 * r + 1]);
        printf("\n");
        fflush(stdout);
    }
    return 0;
}

int run_serve(struct options *o)
{
    struct device dev;
    double copy_gbps;
    o->quiet = 1;  // stdout carries the answers only
    int rc = lab_setup(o, &dev, &copy_gbps);
    if (rc) return rc;
    struct fields F;
    fields_alloc(&F, o->lab, &o->prob);
    float *h_out = xmalloc((F.local + 2 * F.guard) * sizeof *h_out);
    unsigned long long *d_dig;
    CUDA_CHECK(cudaMalloc((void **)&d_dig, 2 * MAX_RUNS * sizeof *d_dig));
    char *line = xmalloc(LINE_MAX_BYTES);
    if (ranks_rank() == 0) {
        printf("ready\n");
        fflush(stdout);
    }
    for (;;) {
        // rank 0 reads; every rank gets the line (empty: the end)
        if (ranks_rank() == 0 && !fgets(line, LINE_MAX_BYTES, stdin)) line[0] = 0;
        ranks_bcast(line, LINE_MAX_BYTES);
        if (!line[0]) break;
        if (serve_request(o, &F, h_out, d_dig, line)) {
            rc = 1;
            break;
        }
    }
    free(line);
    CUDA_CHECK(cudaFree(d_dig));
    free(h_out);
    fields_free(&F);
    return rc;
}
