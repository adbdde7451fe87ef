#!/usr/bin/env perl
# Smaller GPUs, emulated on this one (STENCIL_EMULATE, the course guide's "Every GPU"): with the
# shared memory a block and the device memory of a T4, an RTX 40xx, an A100 and a GPU of 48 KB a
# block, every solution PASSes at its default size, and lab 5b at orders 8 and 12 too; from 64 KB
# a block (every GPU the course supports) no variant is refused, and at 48 KB every lab keeps a
# variant that runs. Every block a variant launches fits the emulated limit (the harness captures
# the launch). A default size that does not fit the memory is scaled down with one line, and an
# explicit one is refused.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

plan skip_all => 'no solutions/ here (a student release)' unless has_solutions();
plan skip_all => 'no CUDA GPU here (nvidia-smi lists none): the emulated smaller GPUs not run' unless has_gpu();

my @profiles = (
    ['T4',       'smem=64K,mem=16G', 64],
    ['RTX 4060', 'smem=99K,mem=8G',  99],
    ['A100',     'smem=163K,mem=40G', 163],
    ['48 KB',    'smem=48K,mem=4G',  48],
);
# TEST_PROFILES="48 KB,T4": those profiles only (a device call has a time limit)
my %only = map { $_ => 1 } split /,/, $ENV{TEST_PROFILES} // '';
@profiles = grep { $only{ $_->[0] } } @profiles if %only;
# Lab 5b's default is order 2; orders 8 and 12 are the ones whose kernel (how many planes ahead,
# which ring) depends on the shared memory a block, so they run too, at a size of partial tiles.
my %extra = (lab5b_register_queue => [map { ['--order', $_, '--size', '131x67x60'] } 8, 12]);
for my $p (@profiles) {
    my ($name, $spec, $kb) = @$p;
    local $ENV{STENCIL_EMULATE} = $spec;
    for my $lab (labs()) {
        my $sol = sol_bin($lab);
        my @v = variants_of($sol);
        for my $args ([], @{ $extra{$lab} // [] }) {
            my $what = "$name: $sol" . (@$args ? " @$args" : ' at its default size');
            my $r = run($sol, '--reps', '2', @$args);
            is($r->{status}, 0, "$what ($spec): exit 0") or diag($r->{out} . $r->{err});
            like($r->{out}, qr/emulating a GPU with $kb KB of shared memory a block/, "$what says what it emulates");
            my @skipped = $r->{out} =~ /^\(variant (\S+) skipped: /mg;
            my @pass = grep { /\|\s*PASS/ } split /\n/, $r->{out};
            is(scalar @pass, @v - @skipped, "$what: every variant that runs PASSes");
            if ($kb >= 64) { is("@skipped", '', "$what refuses no variant") }
            else { ok(@pass >= 1, "$what keeps a variant that runs (refused: @skipped)") }
            my @over;
            for my $row (@pass) {
                my ($variant) = $row =~ /^(\S+)/;
                my ($smem) = $row =~ /\(([\d.]+) KB of shared memory a block\)/;
                note("$what: $variant: " . (defined $smem ? "$smem KB of shared memory a block" : 'not captured'));
                push @over, $variant if defined $smem && $smem > $kb;
            }
            is("@over", '', "$what: every block fits $kb KB");
        }
    }
}

# Memory: a GPU of 2 GB. Lab 8's default (2.7 GB) is scaled down, with one line; asked for
# explicitly, 512^3 does not fit what is left (the rest is held, as on the small GPU).
SKIP: {
    skip 'lab 8 is not here', 4 unless grep { $_ eq 'lab8_wave' } labs();
    local $ENV{STENCIL_EMULATE} = 'mem=2G';
    my $r = run(sol_bin('lab8_wave'), '--reps', '1', '--variant', 'naive');
    is($r->{status}, 0, 'a GPU of 2 GB: lab 8 at its default size runs') or diag($r->{out} . $r->{err});
    like($r->{err}, qr/the default size 512x512x512 needs 2\.7 GB of GPU memory \(this GPU has 2\.1 GB\): running (\d+)x\1x\1 instead/,
         'scaled down, with one line that says why');
    $r = run(sol_bin('lab8_wave'), '--reps', '1', '--variant', 'naive', '--size', '512');
    is($r->{status}, 2, 'asked for 512^3 explicitly: exit 2');
    like($r->{err}, qr/needs 2\.68 GB of GPU memory/, 'with the line that says what it needs');
}
done_testing();
