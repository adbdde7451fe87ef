// SPDX-License-Identifier: MIT
// The program's name for its messages, and the one way out after a fatal error: in a run of
// several processes (lab 9) every rank stops, not only the one that failed; host memory or that.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const char *prog = "lab";
void (*abort_all_ranks)(int status);

void set_program_name(const char *argv0)
{
    const char *slash = strrchr(argv0, '/');
    prog = slash ? slash + 1 : argv0;
}

const char *program_name(void) { return prog; }

void fatal_exit(int status)
{
    fflush(stdout);
    if (abort_all_ranks) abort_all_ranks(status);
    exit(status);
}

void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "%s: not enough host memory (%.2f GB more) for this problem\n", program_name(), (double)bytes / 1e9);
        fatal_exit(2);
    }
    return p;
}
