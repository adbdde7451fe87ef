// SPDX-License-Identifier: MIT
// What the machine can hold: the memory a problem needs on the GPU and on the host, a default
// size scaled down to fit a small GPU, and the smaller GPU that STENCIL_EMULATE asks the
// harness to behave as (a test aid: shared memory per block and device memory). Plain C11.
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

// A byte count with an optional binary suffix: 65536, 64K, 99k, 16G.
static int parse_bytes(const char *s, size_t len, size_t *v)
{
    char buf[32], *end;
    if (len == 0 || len >= sizeof buf) return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    if (buf[0] < '0' || buf[0] > '9') return -1;
    double x = strtod(buf, &end);
    switch (*end) {
    case 'k': case 'K': x *= 1024, end++; break;
    case 'm': case 'M': x *= 1024 * 1024, end++; break;
    case 'g': case 'G': x *= 1024.0 * 1024 * 1024, end++; break;
    default: break;
    }
    if (*end == 'B' || *end == 'b') end++;
    if (*end || !(x >= 1) || x > 1e15) return -1;
    *v = (size_t)x;
    return 0;
}

int parse_emulation(const char *spec, struct gpu_limits *lim, char *err, size_t errlen)
{
    memset(lim, 0, sizeof *lim);
    const char *p = spec;
    while (*p) {
        size_t len = strcspn(p, ", ");
        const char *eq = memchr(p, '=', len);
        size_t *into = NULL;
        if (eq && eq - p == 4 && !strncmp(p, "smem", 4)) into = &lim->smem_per_block;
        else if (eq && eq - p == 3 && !strncmp(p, "mem", 3)) into = &lim->memory;
        if (!into || parse_bytes(eq + 1, len - (size_t)(eq + 1 - p), into)) {
            snprintf(err, errlen, "bad STENCIL_EMULATE '%s': expected smem=BYTES,mem=BYTES (e.g. smem=64K,mem=4G)", spec);
            return 2;
        }
        p += len;
        p += strspn(p, ", ");
    }
    if (!lim->smem_per_block && !lim->memory) {
        snprintf(err, errlen, "bad STENCIL_EMULATE '%s': give smem=BYTES, mem=BYTES or both", spec);
        return 2;
    }
    return 0;
}

int emulated_limits(struct gpu_limits *lim)
{
    const char *spec = getenv("STENCIL_EMULATE");
    if (!spec || !*spec) {
        memset(lim, 0, sizeof *lim);
        return 0;
    }
    char err[256];
    if (parse_emulation(spec, lim, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", program_name(), err);
        fatal_exit(2);
    }
    return 1;
}

// Guard width: the lab's, at least 1024, rounded up to 64 elements so that every array starts
// 256-byte aligned (cudaMalloc's alignment survives), which float4 loads and coalescing rely on.
size_t guard_elems(const struct lab *lab, const struct problem *p)
{
    size_t g = lab->guard ? lab->guard(p) : 0;
    if (g < 1024) g = 1024;
    return (g + 63) / 64 * 64;
}

// The fields on the GPU: every field's planes (and ghost planes), rows padded, and its guards.
double problem_gpu_bytes(const struct lab *lab, const struct problem *p)
{
    const double plane = (double)p->pitch * (double)p->n[1];
    const double guard = (double)guard_elems(lab, p);
    return (double)lab->n_fields * (plane * ((double)p->slab_nz + 2.0 * p->ghost) + 2 * guard) * sizeof(float);
}

// The host arrays of a run (run.c, lab_main.c): each input of the checked run and of the checked timed
// run (float), a lab's own inputs once more where it makes them on the host, the two references
// (double), the output with its guards, and what the lab's CPU reference allocates itself. For
// --dump-reference: the inputs, one reference and the lab's own.
double problem_host_bytes(const struct lab *lab, const struct problem *p, int reference_only)
{
    int n_in = 0;
    for (int f = 0; f < lab->n_fields; f++) n_in += lab->fields[f].role == FIELD_IN;
    const double pts = (double)points(p->n), own = lab->reference_bytes_per_point;
    if (reference_only) return pts * (4.0 * n_in + 8 + own);
    return pts * (8.0 * n_in + (lab->input ? 4 : 0) + 16 + 4 + own);
}

// The host's memory, or less where the process's control group limits it (a container: a
// Gradescope runner, a Slurm job): cgroup v2's memory.max, else v1's limit_in_bytes.
double host_memory_bytes(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    double bytes = pages > 0 && size > 0 ? (double)pages * (double)size : 0;
    static const char *const limits[] = {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"};
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(limits[i], "r");
        double v;
        if (!f) continue;
        int got = fscanf(f, "%lf", &v);  // "max" (no limit) reads nothing
        fclose(f);
        if (got == 1 && v > 0 && (bytes <= 0 || v < bytes)) bytes = v;
        break;
    }
    return bytes;
}

// The share of a machine's memory a default problem may take, less the CUDA context's on a GPU:
// the rest is the copy-bandwidth buffers, a kernels file's own arrays (GPU), and the system (host).
static const double FIT_SHARE = 0.8, CONTEXT_BYTES = 512.0 * 1024 * 1024;

int fit_default_size(const struct lab *lab, struct problem *p, double gpu_bytes, double host_bytes, char *note,
                     size_t len)
{
    note[0] = 0;
    double need_gpu = problem_gpu_bytes(lab, p), need_host = problem_host_bytes(lab, p, 0);
    const double gpu_budget = FIT_SHARE * gpu_bytes - CONTEXT_BYTES, host_budget = FIT_SHARE * host_bytes;
    int fits_gpu = gpu_bytes <= 0 || need_gpu <= gpu_budget;
    int fits_host = host_bytes <= 0 || need_host <= host_budget;
    if (fits_gpu && fits_host) return 0;
    char was[64], now[64], why[200];
    size_string(p, was, sizeof was);
    if (!fits_gpu)
        snprintf(why, sizeof why, "%.1f GB of GPU memory (this GPU has %.1f GB)", need_gpu / 1e9, gpu_bytes / 1e9);
    else
        snprintf(why, sizeof why, "%.1f GB of host memory (this machine has %.1f GB)", need_host / 1e9, host_bytes / 1e9);
    // Shrink every dimension of the problem by the same factor until it fits, each a multiple of 32
    // (of 1024 in 1D), never below the lab's minimum.
    const size_t step = p->dims == 1 ? 1024 : 32;
    const size_t orig[MAX_DIMS] = {p->n[0], p->n[1], p->n[2]};
    for (double s = 0.95; s > 0.01; s *= 0.95) {
        for (int d = 0; d < p->dims; d++) {
            size_t n = (size_t)((double)orig[d] * s) / step * step;
            if (n < step) n = step;
            p->n[d] = n < lab->min_n[d] ? lab->min_n[d] : n;
        }
        problem_slab(lab, p, p->gpus);
        need_gpu = problem_gpu_bytes(lab, p);
        need_host = problem_host_bytes(lab, p, 0);
        if ((gpu_bytes <= 0 || need_gpu <= gpu_budget) && (host_bytes <= 0 || need_host <= host_budget))
            break;
    }
    size_string(p, now, sizeof now);
    snprintf(note, len, "the default size %s needs %s: running %s instead (--size chooses)", was, why, now);
    return 1;
}
