// SPDX-License-Identifier: MIT
// The program's name for its messages, and the one way out after a fatal error: in a run of
// several processes (lab 9) every rank stops, not only the one that failed.
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
