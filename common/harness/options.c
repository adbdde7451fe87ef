// SPDX-License-Identifier: MIT
// The command line of every lab program (handouts/README.md, "The lab program"). Plain C11:
// parsing never touches the GPU, so a bad option is reported (exit 2) even without one.
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "ranks.h"

enum { MAX_REPS = 100000 };
// Each dimension and the whole grid must stay far below SIZE_MAX once multiplied by the bytes
// per point and the arrays; 2^40 points is 4 TiB of float32, far past any GPU.
static const unsigned long long MAX_POINTS = 1ull << 40;

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return 2;
}

// A whole decimal number, nothing else: no sign, no spaces, no trailing text.
static int parse_count(const char *s, unsigned long long max, unsigned long long *v)
{
    if (!s || *s < '0' || *s > '9') return -1;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end || x > max) return -1;
    *v = x;
    return 0;
}

int parse_size(const char *s, int min_dims, int max_dims, size_t n[MAX_DIMS], int *dims,
               char *err, size_t errlen)
{
    unsigned long long v[MAX_DIMS] = {1, 1, 1};
    int k = 0;
    const char *p = s;
    char buf[64];
    if (max_dims < min_dims) max_dims = min_dims;
    if (strlen(s) >= sizeof buf) return fail(err, errlen, "bad --size '%s': too long", s);
    while (*p) {
        const char *x = strchr(p, 'x');
        size_t len = x ? (size_t)(x - p) : strlen(p);
        if (k == MAX_DIMS || len == 0)
            return fail(err, errlen, "bad --size '%s': expected NX[xNY[xNZ]]", s);
        memcpy(buf, p, len);
        buf[len] = 0;
        if (parse_count(buf, MAX_POINTS, &v[k]) || v[k] == 0)
            return fail(err, errlen,
                        "bad --size '%s': '%s' is not a whole number from 1 to 2^40", s, buf);
        k++;
        p += len;
        if (x && !*++p) return fail(err, errlen, "bad --size '%s': expected NX[xNY[xNZ]]", s);
    }
    if (k == 0) return fail(err, errlen, "bad --size '': expected NX[xNY[xNZ]]");
    if (k == 1) {  // one number: the same in every dimension of the lab's default problem
        for (int d = 1; d < min_dims; d++) v[d] = v[0];
        k = min_dims;
    } else if (k != min_dims && k != max_dims && min_dims == 1) {
        return fail(err, errlen, "bad --size '%s': this lab is 1D, give one number", s);
    } else if (k != min_dims && k != max_dims) {
        if (max_dims > min_dims)
            return fail(err, errlen, "bad --size '%s': this lab is %dD or %dD, give 1, %d or %d numbers",
                        s, min_dims, max_dims, min_dims, max_dims);
        return fail(err, errlen, "bad --size '%s': this lab is %dD, give 1 or %d numbers", s,
                    min_dims, min_dims);
    }
    unsigned long long total = 1;
    for (int d = 0; d < MAX_DIMS; d++) {
        if (v[d] > MAX_POINTS / total)
            return fail(err, errlen, "bad --size '%s': more than 2^40 points", s);
        total *= v[d];
        n[d] = (size_t)v[d];
    }
    *dims = k;
    return 0;
}

// The problem's size as --size takes it: 512x512x512.
void size_string(const struct problem *p, char *buf, size_t len)
{
    const size_t *n = p->n;
    if (p->dims == 1) snprintf(buf, len, "%zu", n[0]);
    else if (p->dims == 2) snprintf(buf, len, "%zux%zu", n[0], n[1]);
    else snprintf(buf, len, "%zux%zux%zu", n[0], n[1], n[2]);
}

void print_help(const struct lab *lab, FILE *f)
{
    fprintf(f, "lab %s (%s): %s\n\n", lab->id, lab->name, lab->title);
    fprintf(f, "options:\n");
    fprintf(f, "  --size %-11s grid size (default %zu", lab->dims == 1 ? "N" : "NX[xNY[xNZ]]",
            lab->default_n[0]);
    for (int d = 1; d < lab->dims; d++) fprintf(f, "x%zu", lab->default_n[d]);
    fprintf(f, ")%s\n", lab->dims > 1 ? "; one number means the same in every dimension" : "");
    if (lab->max_dims > lab->dims)
        fprintf(f, "                     %d numbers make a %dD problem\n", lab->max_dims, lab->max_dims);
    if (lab->default_order) {
        fprintf(f, "  --order K          order in space:");
        for (int k = 1; k <= 32; k++)
            if (lab->order_ok && lab->order_ok(k)) fprintf(f, " %d", k);
        fprintf(f, " (default %d)\n", lab->default_order);
    }
    if (lab->default_steps)
        fprintf(f, "  --steps S          time steps (default %d)\n", lab->default_steps);
    for (int k = 0; k < lab->n_params; k++) {
        const struct lab_param *q = &lab->params[k];
        fprintf(f, "  --%-16s %s (default %g)\n", q->name, q->help, q->def);
    }
    fprintf(f, "  --variant NAME     run this variant (repeatable); 'all' (default) runs every one\n");
    fprintf(f, "  --reps R           timed repetitions after warm-up (default 20)\n");
    fprintf(f, "  --timing MODE      launch (default): one launch per event pair, fresh inputs and an\n"
               "                     idle GPU before each; b2b: %d launches back to back per sample\n", B2B_BATCH);
    fprintf(f, "  --seed N           seed of the random input (default 1)\n");
    fprintf(f, "  --csv FILE         append one row per variant run to FILE\n");
    fprintf(f, "  --dump FILE        write each variant's checked output as raw float32 (x fastest);\n"
               "                     %%s in FILE stands for the variant's name\n");
    fprintf(f, "  --dump-reference FILE  write the CPU reference (float64) of --variant's answer and\n"
               "                     stop; needs no GPU\n");
    fprintf(f, "  --quiet            print nothing on stdout (exit status and --csv only)\n");
    fprintf(f, "  --profile          instead of the table: per variant, measured by Nsight Compute (ncu):\n"
               "                     DRAM bytes per point beside the model, L2 bytes and L1 sectors per\n"
               "                     request, achieved occupancy, the two main reasons warps waited\n");
    if (lab->n_conv > 0)
        fprintf(f, "  --convergence      instead of the table: the error against the analytic answer\n"
                   "                     as the grid is refined (--csv then writes that table)\n");
    fprintf(f, "  --list             variants, cases, tolerance and CSV columns, one per line\n");
    fprintf(f, "  --self-test        check the CPU reference on the host (TAP; no GPU)\n");
    fprintf(f, "  --serve            how make check runs the program: requests on stdin, answers on\n"
               "                     stdout, nothing checked or timed here (the course guide, \"Grading\")\n");
    fprintf(f, "  --help             this text\n\nvariants:\n");
    for (int v = 0; v < lab->n_variants; v++)
        fprintf(f, "  %-18s %s\n", lab->variants[v].name, lab->variants[v].about);
    fprintf(f, "\nexit status: 0 all passed, 1 a check failed, 2 could not run\n");
}

static int find_variant(const struct lab *lab, const char *name)
{
    for (int v = 0; v < lab->n_variants; v++)
        if (!strcmp(lab->variants[v].name, name)) return v;
    return -1;
}

// A real number, nothing else.
static int parse_real(const char *s, double *v)
{
    if (!s || !*s) return -1;
    errno = 0;
    char *end;
    double x = strtod(s, &end);
    if (errno || *end || !isfinite(x)) return -1;
    *v = x;
    return 0;
}

void problem_tolerance(const struct lab *lab, const struct problem *p, double *l2, double *atol,
                       double *rtol)
{
    *l2 = lab->l2_tol;
    *atol = lab->atol;
    *rtol = lab->rtol;
    if (lab->tolerance) lab->tolerance(p, l2, atol, rtol);
}

int parse_options(const struct lab *lab, int argc, char **argv, struct options *o, char *err,
                  size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->lab = lab;
    for (int d = 0; d < MAX_DIMS; d++) o->prob.n[d] = d < lab->dims ? lab->default_n[d] : 1;
    o->prob.dims = lab->dims;
    o->prob.order = lab->default_order;
    o->prob.steps = lab->default_steps;
    for (int k = 0; k < lab->n_params && k < MAX_PARAMS; k++) o->prob.param[k] = lab->params[k].def;
    o->reps = 20;
    o->seed = 1;
    int all = 0;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
            print_help(lab, stdout);
            return 1;
        }
        static const struct { const char *name; size_t offset; } flags[] = {
            {"--profile", offsetof(struct options, profile)},
            {"--quiet", offsetof(struct options, quiet)},
            {"--list", offsetof(struct options, list)},
            {"--self-test", offsetof(struct options, self_test)},
            {"--convergence", offsetof(struct options, convergence)},
            {"--serve", offsetof(struct options, serve)},
        };
        int flag = -1;
        for (size_t k = 0; k < sizeof flags / sizeof *flags; k++)
            if (!strcmp(arg, flags[k].name)) flag = (int)k;
        if (flag >= 0 && (strcmp(arg, "--convergence") || lab->n_conv > 0)) {
            *(int *)((char *)o + flags[flag].offset) = 1;
            continue;
        }
        // Every other option takes a value, as "--opt VALUE" or "--opt=VALUE".
        static const char *const valued[] = {"--size", "--order", "--steps", "--variant", "--reps",
                                             "--seed", "--csv",   "--dump",  "--dump-reference", "--timing"};
        const char *name = NULL, *val = NULL;
        int param = -1;
        for (int k = 0; k < (int)(sizeof valued / sizeof *valued) + lab->n_params; k++) {
            char buf[64];
            const char *opt = valued[0];
            if (k < (int)(sizeof valued / sizeof *valued)) {
                opt = valued[k];
            } else {
                snprintf(buf, sizeof buf, "--%s", lab->params[k - (int)(sizeof valued / sizeof *valued)].name);
                opt = buf;
            }
            size_t len = strlen(opt);
            int match = 0;
            if (!strcmp(arg, opt)) {
                if (i + 1 >= argc) return fail(err, errlen, "%s needs a value", opt);
                val = argv[i + 1];
                match = 2;
            } else if (!strncmp(arg, opt, len) && arg[len] == '=') {
                val = arg + len + 1;
                match = 1;
            }
            if (match) {
                if (match == 2) i++;
                if (k < (int)(sizeof valued / sizeof *valued)) name = valued[k];
                else param = k - (int)(sizeof valued / sizeof *valued), name = "param";
                break;
            }
        }
        if (!name) return fail(err, errlen, "unknown option '%s' (try --help)", arg);

        unsigned long long v;
        if (param >= 0) {
            const struct lab_param *q = &lab->params[param];
            double x;
            if (parse_real(val, &x) || x < q->min || x > q->max)
                return fail(err, errlen, "bad --%s '%s': a number from %g to %g", q->name, val, q->min, q->max);
            o->prob.param[param] = x;
        } else if (!strcmp(name, "--size")) {
            int rc = parse_size(val, lab->dims, lab->max_dims, o->prob.n, &o->prob.dims, err, errlen);
            if (rc) return rc;
            o->sized = 1;
        } else if (!strcmp(name, "--order")) {
            if (!lab->default_order)
                return fail(err, errlen, "lab %s has no --order option", lab->id);
            if (parse_count(val, 1000, &v) || !lab->order_ok || !lab->order_ok((int)v))
                return fail(err, errlen, "bad --order '%s': --help lists the orders this lab has", val);
            o->prob.order = (int)v;
        } else if (!strcmp(name, "--steps")) {
            if (!lab->default_steps)
                return fail(err, errlen, "lab %s has no --steps option", lab->id);
            if (parse_count(val, 1000000, &v) || v == 0)
                return fail(err, errlen, "bad --steps '%s': a whole number from 1 to 1000000", val);
            o->prob.steps = (int)v;
        } else if (!strcmp(name, "--variant")) {
            if (!strcmp(val, "all")) {
                all = 1;
                continue;
            }
            int idx = find_variant(lab, val);
            if (idx < 0) return fail(err, errlen, "unknown variant '%s' (try --help)", val);
            if (o->n_selected == MAX_SELECTED)
                return fail(err, errlen, "too many --variant options");
            o->selected[o->n_selected++] = idx;
        } else if (!strcmp(name, "--reps")) {
            if (parse_count(val, MAX_REPS, &v) || v == 0)
                return fail(err, errlen, "bad --reps '%s': a whole number from 1 to %d", val,
                            MAX_REPS);
            o->reps = (int)v;
        } else if (!strcmp(name, "--timing")) {
            if (!strcmp(val, "launch")) o->back_to_back = 0;
            else if (!strcmp(val, "b2b")) o->back_to_back = 1;
            else return fail(err, errlen, "bad --timing '%s': launch or b2b", val);
        } else if (!strcmp(name, "--seed")) {
            if (parse_count(val, UINT64_MAX, &v))
                return fail(err, errlen, "bad --seed '%s': a whole number", val);
            o->seed = v;
        } else {  // --csv, --dump, --dump-reference
            if (!*val) return fail(err, errlen, "%s needs a file name", name);
            if (!strcmp(name, "--csv")) o->csv = val;
            else if (!strcmp(name, "--dump")) o->dump = val;
            else o->dump_reference = val;
        }
    }
    o->named = !all && o->n_selected > 0;
    if (!o->named) {
        o->n_selected = 0;
        for (int v = 0; v < lab->n_variants && v < MAX_SELECTED; v++) o->selected[o->n_selected++] = v;
    }
    if (o->dump && o->n_selected != 1 && !strstr(o->dump, "%s"))
        return fail(err, errlen, "--dump needs exactly one --variant, or %%s in the file name");
    if (o->dump) {  // at most one %s and no other conversion: the name goes through snprintf
        const char *pc = strchr(o->dump, '%');
        if (pc && (strncmp(pc, "%s", 2) || strchr(pc + 2, '%')))
            return fail(err, errlen, "bad --dump '%s': the only %% allowed is one %%s", o->dump);
    }
    if (o->dump_reference && o->n_selected != 1)
        return fail(err, errlen, "--dump-reference needs exactly one --variant");
    return problem_finish(lab, &o->prob, err, errlen);
}

int problem_finish(const struct lab *lab, struct problem *p, char *err, size_t errlen)
{
    for (int d = 0; d < MAX_DIMS; d++)
        if (p->n[d] < lab->min_n[d])
            return fail(err, errlen, "bad --size: dimension %d is %zu, this lab needs at least %zu",
                        d + 1, p->n[d], lab->min_n[d]);
    const char *why = lab->validate ? lab->validate(p) : NULL;
    if (why) return fail(err, errlen, "%s", why);
    free((void *)p->source);
    problem_source(lab, p);
    problem_slab(lab, p, p->gpus ? p->gpus : 1);
    return 0;
}

// This process's slab of p (lab.h): all of it with one rank; ranks and gpus as the run has them;
// and the rows' pitch.
void problem_slab(const struct lab *lab, struct problem *p, int gpus)
{
    size_t a = lab->row_align > 0 ? (size_t)lab->row_align : 1;
    p->pitch = (p->n[0] + a - 1) / a * a;
    struct slab s = slab_of(p->n[2], ranks_size(), ranks_rank());
    p->slab_z0 = s.z0;
    p->slab_nz = s.nz;
    p->ghost = lab->ghost;
    p->ranks = ranks_size();
    p->gpus = gpus;
}

// The problem's point source, from the definition (its amplitudes live as long as the program).
void problem_source(const struct lab *lab, struct problem *p)
{
    p->source = NULL;
    p->source_at = 0;
    if (!lab->source || p->steps < 1) return;
    float *a = malloc((size_t)p->steps * sizeof *a);
    if (!a) {
        fprintf(stderr, "%s: out of host memory\n", program_name());
        exit(2);
    }
    if (lab->source(p, &p->source_at, a)) p->source = a;
    else free(a);
}
