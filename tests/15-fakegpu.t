#!/usr/bin/env perl
# Lab 9's harness path without a GPU: the lab's definition and the whole harness, linked with a
# GPU made of host memory (tests/fakegpu/gpu.c) and the solution's scheme as host code
# (tests/fakegpu/lab9.c), run under mpirun with 1 to 4 processes. What it proves: the slabs and
# their ghost planes, the gather on rank 0 and the comparison with the CPU reference of the whole
# grid, the verdicts every process agrees on (no process waits for another), the refusals, the
# CSV's ranks and gpus, --dump of the gathered grid; and that a wrong exchange FAILs. What it
# cannot prove: anything about the CUDA kernels, streams or NCCL (50-gpu.t, on GPUs).
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

plan skip_all => 'no MPI here (Debian: libopenmpi-dev openmpi-bin): lab 9\'s harness path not run'
    unless -x 'build/tests/fake9' && system('command -v mpirun >/dev/null') == 0;

my $bin = 'build/tests/fake9';
my $dir = tmpdir();
my @case = ('--size', '40x33x41', '--steps', '6', '--reps', '2', '--model', '1', '--sponge', '4');
sub rows { my ($out) = @_; return grep { /\|\s*(PASS|FAIL)/ } split /\n/, $out }
my $variants = scalar variants_of($bin);

local $ENV{FAKE_GPUS} = 4;
my %err;
for my $np (1 .. 4) {
    my $r = run(mpi_launch($np), $bin, @case, '--csv', "$dir/np$np.csv");
    is($r->{status}, 0, "$np processes: exit 0") or diag($r->{out} . $r->{err});
    is(scalar(grep { /\| PASS/ } rows($r->{out})), $variants, "$np processes: every variant PASSes (the gathered grid against the CPU reference)");
    my ($err) = map { /\|\s+([\d.e+-]+) \| PASS/ ? $1 : () } rows($r->{out});
    $err{$np} = $err // 'none';
    is(scalar(() = $r->{out} =~ /^lab 9 /mg), 1, "$np processes: one table, printed by rank 0");
    like($r->{out}, qr/$np ranks on $np GPUs/, "$np processes: the header says how many") if $np > 1;
    open my $fh, '<', "$dir/np$np.csv";
    my @lines = $fh ? grep { !/^gpu,/ } <$fh> : ();
    is(scalar(grep { /,$np,$np,launch,sm_\d+$/ } @lines), $variants, "$np processes: one CSV row per variant, with ranks and gpus $np");
}
is(scalar(keys %{ { map { $_ => 1 } values %err } }), 1, "the same error against the reference with 1 to 4 processes ($err{1})");

{
    local $ENV{FAKE_BUG} = 'skip';
    my $r = run(mpi_launch(2), $bin, @case);
    is($r->{status}, 1, 'an exchange skipped every other step: exit 1');
    is(scalar(grep { /\| FAIL: \d+ of \d+ points/ } rows($r->{out})), $variants, 'and every variant FAILs, the bad points counted over the whole grid');
}

{
    # rank 1 fails while rank 0 waits for it in a collective: the one error path ends every rank
    local $ENV{FAKE_BUG} = 'fail';
    my $r = run('timeout', '60', mpi_launch(2), $bin, @case);
    ok($r->{status} != 0 && $r->{status} != 124, "a failed call on rank 1: the run ends (exit $r->{status}), no rank left waiting");
    like($r->{err}, qr/fake_call\(\) failed: a failure planted on rank 1/, 'with the one line that says what failed');
}

my $r = run(mpi_launch(4), $bin, '--size', '64x64x15');
is($r->{status}, 2, '4 processes on 15 planes: refused (exit 2)');
like($r->{err}, qr/^\S+: 4 ranks give slabs of 3 planes, thinner than the 4 ghost planes/, 'in one line, from rank 0');

{
    local $ENV{FAKE_GPUS} = 1;
    $r = run(mpi_launch(2), $bin, @case);
    is($r->{status}, 0, '2 processes on 1 GPU: exit 0') or diag($r->{out} . $r->{err});
    like($r->{out}, qr/\(2 ranks share 1 GPU: the times are not a scaling result\)/, 'it says that the times are no scaling result');
    is(scalar(() = $r->{out} =~ /^\(variant nccl\S* skipped: NCCL needs one rank per GPU/mg), 3, 'the NCCL variants are refused');
}

$r = run(mpi_launch(3), $bin, @case, '--variant', 'mpi_staged', '--dump', "$dir/dump.raw", '--quiet');
is(-s "$dir/dump.raw", 4 * 40 * 33 * 41, '--dump under mpirun writes the whole grid');
run('./' . (has_solutions() ? 'sol9' : 'lab9'), @case, '--variant', 'mpi_staged', '--dump-reference', "$dir/ref.f64");
my $l = listing('./' . (has_solutions() ? 'sol9' : 'lab9'), @case);
my $c = run('build/compare-dump', "$dir/dump.raw", "$dir/ref.f64", @{ $l->{size} }, @{ $l->{tolerance} });
chomp $c->{out};
is($c->{status}, 0, "and it matches the CPU reference ($c->{out})");

$r = run(mpi_launch(2), './' . (has_solutions() ? 'sol5b' : 'lab5b'), '--list');
is($r->{status}, 2, 'a lab that is not lab 9, started by mpirun with 2 processes: exit 2');
like($r->{err}, qr/runs as one process \(lab 9 is the one for mpirun\)/, 'and it says why');
done_testing();
