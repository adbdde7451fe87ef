#!/usr/bin/env perl
# Unit tests of the harness (tests/unit.c), make check's sandbox (tests/sandbox.c), lab 9's
# ranks and ghost planes under mpirun (tests/ranks.c), and each lab's host-side checks of its own
# CPU reference (./solN --self-test): TAP from C, gathered here.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

for my $cmd ('build/tests/unit', 'build/tests/sandbox', map { ref_bin($_) . ' --self-test' } labs()) {
    my $r = run($cmd);
    my @not_ok = grep { /^not ok/ } split /\n/, $r->{out};
    my ($plan) = $r->{out} =~ /^1\.\.(\d+)/m;
    is($r->{status}, 0, "$cmd exits 0") or diag($r->{out} . $r->{err});
    ok(defined $plan && !@not_ok, "$cmd: " . ($plan // 0) . ' checks, none failed') or diag(join "\n", @not_ok);
}
# Lab 9's host side with MPI: slabs, ghost planes and the gather, 1 process (MPI's singleton) and
# 2 to 4 under mpirun (Course.pm's mpi_launch: more ranks than cores, as root).
SKIP: {
    skip 'no MPI here (Debian: libopenmpi-dev openmpi-bin): lab 9\'s host tests not run', 9
        unless -x 'build/tests/ranks' && system('command -v mpirun >/dev/null') == 0;
    for my $n (1 .. 4) {
        my $r = run(mpi_launch($n), 'build/tests/ranks');
        if ($n == 1) {  # CUDA-aware when built with CUDA support and not switched off, as ompi_info says
            my $info = `ompi_info --parsable --all 2>/dev/null`;
            my %v = $info =~ /^mca:opal:base:param:(opal_built_with_cuda_support|opal_cuda_support):value:(\w+)$/mg;
            my $want = ($v{opal_built_with_cuda_support} // '') eq 'true' && ($v{opal_cuda_support} // '') eq 'true' ? 1 : 0;
            my ($got) = $r->{out} =~ /^# cuda-aware (\d)$/m;
            is($got, $want, "ranks_cuda_aware says what ompi_info says of this MPI ($want)");
        }
        my @not_ok = grep { /^not ok/ } split /\n/, $r->{out};
        my ($plan) = $r->{out} =~ /^1\.\.(\d+)/m;
        is($r->{status}, 0, "$n processes: build/tests/ranks exits 0") or diag($r->{out} . $r->{err});
        ok($plan && !@not_ok, "$n processes: build/tests/ranks: " . ($plan // 0) . ' checks, none failed')
            or diag(join "\n", @not_ok);
    }
}
done_testing();
