#!/usr/bin/env perl
# SPDX-License-Identifier: MIT
# make bench: run each reference solution at its benchmark sizes and append the CSV rows to
# data/<GPU>.csv. The runs of a lab are the lines of solutions/<lab>/bench.args (options of
# ./solN, one run per line); {data} stands for data/<GPU>, for runs that write their own file;
# a line that starts with npN runs under mpirun with N processes (lab 9). BENCH_RUNS=A-B runs
# only runs A to B of each lab (counted from 1), for a bench that does not fit one device call.
use strict;
use warnings;
use lib 'common/tools';
use Course qw(sol_bin shell_words mpi_launch);

chomp(my $gpu = `nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1`);
die "make bench: no NVIDIA GPU found (nvidia-smi lists none)\n" unless $gpu;
(my $base = "data/$gpu") =~ s/ /_/g;
open STDIN, '<', '/dev/null' or die;  # no run waits for input
my $runs = length($ENV{BENCH_RUNS} // '') ? $ENV{BENCH_RUNS} : '1-';
my ($first, $last) = $runs =~ /^(\d+)-(\d*)$/;
die "make bench: BENCH_RUNS is A-B (runs A to B, counted from 1; B may be left out), not $runs\n"
    unless $first && ($last eq '' || $last >= $first);
my $status = 0;
for my $lab (@ARGV) {
    open my $fh, '<', "solutions/$lab/bench.args" or next;
    my $sol = sol_bin($lab);
    my $run = 0;
    while (my $line = <$fh>) {
        chomp $line;
        next if $line =~ /^\s*(#|$)/;
        $run++;
        next if $run < $first || ($last ne '' && $run > $last);
        $line =~ s/\{data\}/$base/g;
        $line .= " --csv $base.csv" unless $line =~ /--csv/;
        my @launch = $line =~ s/^\s*np(\d+)\s+// ? mpi_launch($1) : ();
        print "+ @launch $sol $line\n" =~ s/^\+  /+ /r;
        system(@launch, $sol, shell_words($line)) == 0 or $status = 1;
    }
}
exit $status;
