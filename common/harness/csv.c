// SPDX-License-Identifier: MIT
// The one CSV schema of data/*.csv (the course guide explains every column). New columns go at
// the end; a file written with another header is never appended to (plots/migrate.pl migrate
// brings an older file up to date, explicitly).
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

const char CSV_HEADER[] =
    "gpu,lab,variant,nx,ny,nz,order,steps,median_ms,min_ms,gpts,gbps,copy_gbps,pct_copy,"
    "redundancy_read,redundancy_write,rel_err,status,commit,ranks,gpus,timing,code_path";

int csv_append(const char *path, void (*write)(FILE *, void *), void *ctx, const char *header)
{
    FILE *f = fopen(path, "a+");
    if (!f) {
        fprintf(stderr, "%s: cannot open --csv file '%s': %s\n", program_name(), path, strerror(errno));
        return -1;
    }
    // Read the first line (a+ reads from the start and appends at the end).
    char first[1024] = "";
    rewind(f);
    int empty = !fgets(first, sizeof first, f);
    first[strcspn(first, "\r\n")] = 0;
    if (!empty && strcmp(first, header)) {
        fprintf(stderr, "%s: --csv file '%s' has another header (an older schema?): not appending; "
                "run 'perl plots/migrate.pl migrate %s' or choose a new file\n", program_name(), path, path);
        fclose(f);
        return -1;
    }
    fseek(f, 0, SEEK_END);
    if (empty) fprintf(f, "%s\n", header);
    write(f, ctx);
    return fclose(f);
}
