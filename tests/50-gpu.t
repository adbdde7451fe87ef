#!/usr/bin/env perl
# On a GPU: every solution PASSes at its default size and at odd sizes, the CSV and the dump
# are what COURSE.md says, a problem too big for the GPU is refused, every untouched skeleton
# FAILs, and every planted bug in tests/bugs.txt FAILs.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

plan skip_all => 'no CUDA GPU here (nvidia-smi lists none): solutions at default and odd sizes, '
    . 'CSV and dump, skeletons FAIL, planted bugs FAIL' unless has_gpu();

my %odd = (
    lab1_diff1d   => [qw(1000003 1 2 3 4 5 7 33 1025)],
    lab2_naive7pt => [qw(131x67x45 1x1x3 1x1x1 2x2x2 3x3x3 513x7x9 7x513x9 9x7x513 1x300x2 64)],
    lab3_shared_tiling => [qw(131x67x45 1x1x3 3x3x3 5x5x5 513x7x9 17x9x100 64)],
    lab4_coarsening => [qw(131x67x45 1x1x3 3x3x3 513x7x9 7x513x9 40x40x200 64)],
    lab5_register_tiling => [qw(131x67x45 1x1x3 5x7x9 513x7x9 17x9x100), '--order 4 --size 131x67x45',
        '--order 6 --size 513x7x9', '--order 8 --size 200x90x70', '--order 10 --size 33x65x40',
        '--order 12 --size 131x67x45', '--order 12 --size 13x13x13', '--order 8', '--order 12',
        # nx a multiple of 4, so that queue4_128x16 runs too: thin, odd, under one tile
        '--size 4x4x4', '--order 4 --size 8x300x17', '--order 6 --size 516x37x45',
        '--order 10 --size 260x19x40', '--order 12 --size 132x7x29'],
    lab6_pencils  => [qw(64 96x200x72 9x9x9 9x10x11 13x17x19 100x9x33 33x9x9 256)],
);
my %small = (lab1_diff1d => '100003', lab2_naive7pt => '67x45x31', lab3_shared_tiling => '67x45x31',
    lab4_coarsening => '67x45x31', lab5_register_tiling => '68x45x31', lab6_pencils => '33x20x17');
my %too_big = (lab1_diff1d => ['--size', '100000000000'], lab2_naive7pt => ['--size', '5000'],
    lab3_shared_tiling => ['--size', '5000'], lab4_coarsening => ['--size', '5000'],
    lab5_register_tiling => ['--size', '5000'],
    lab6_pencils => ['--variant', 'x_spencils', '--size', '1024x1024x65535']);
my %refused = (
    lab2_naive7pt => [ [qw(--variant naive --size 3x3x70000)], [qw(--size 3x600000x3)] ],
    lab5_register_tiling => [ [qw(--variant regtile_7pt --order 4)] ],
    lab6_pencils  => [ [qw(--size 8x64x64)], [qw(--size 64x64x5)], [qw(--variant x_lpencils --size 2000x64x64)] ],
);
my $dir = tmpdir();

sub rows { my ($out) = @_; return grep { /\|\s*(PASS|FAIL)/ } split /\n/, $out }

for my $lab (labs()) {
    my ($sol, $stu) = (sol_bin($lab), lab_bin($lab));
    my @v = variants_of($sol);

    my $r = run($sol, '--reps', '3');
    is($r->{status}, 0, "$sol at its default size: exit 0") or diag($r->{out} . $r->{err});
    my @rows = rows($r->{out});
    is(scalar(grep { /\| PASS/ } @rows), scalar @v, "$sol: every variant PASSes at the default size");
    like($r->{out}, qr/copy bandwidth \d+ GB\/s/, "$sol: the header gives the measured copy bandwidth");

    for my $case (@{ $odd{$lab} || [] }) {
        my @args = $case =~ /^--/ ? split(' ', $case) : ('--size', $case);
        $r = run($sol, @args, '--reps', '2', '--seed', '7');
        is($r->{status}, 0, "$sol @args: exit 0") or diag($r->{out} . $r->{err});
        my $skipped = () = $r->{out} =~ /^\(variant \S+ skipped: /mg;
        is(scalar(grep { /\| PASS/ } rows($r->{out})), @v - $skipped, "$sol @args: every variant that runs PASSes");
        is(scalar(grep { /\| FAIL/ } rows($r->{out})), 0, "$sol @args: none FAILs");
    }

    my $csv = "$dir/$lab.csv";
    $r = run($sol, '--size', $small{$lab}, '--reps', '2', '--csv', $csv, '--quiet');
    is($r->{status}, 0, "$sol --quiet --csv: exit 0");
    is($r->{out}, '', "$sol --quiet prints nothing");
    open my $fh, '<', $csv;
    my @lines = $fh ? <$fh> : ();
    chomp @lines;
    is($lines[0], 'gpu,lab,variant,nx,ny,nz,order,steps,median_ms,min_ms,gpts,gbps,copy_gbps,pct_copy,'
        . 'redundancy_read,redundancy_write,rel_err,status,commit', "$lab: the CSV header of COURSE.md");
    my @info = grep { /,empty_kernel,.*,INFO,/ } @lines;
    is(scalar @lines, 1 + @v + @info, "$lab: one CSV row per variant" . (@info ? ', and the empty kernel' : ''));
    is(scalar(grep { (split /,/, $_, -1) == 19 && /,PASS,/ } @lines[1 .. $#lines]), scalar @v,
        "$lab: 19 fields and PASS in every variant's row");

    my $dump = "$dir/$lab.raw";
    $r = run($sol, '--size', $small{$lab}, '--reps', '1', '--variant', $v[0], '--dump', $dump, '--quiet');
    my $pts = 1;
    $pts *= $_ for split /x/, $small{$lab};
    $pts = $pts ** 3 if $small{$lab} !~ /x/ && $lab !~ /diff1d/;
    is(-s $dump, 4 * $pts, "$lab --dump writes $pts float32 values");

    my @big = @{ $too_big{$lab} };
    $r = run($sol, @big, '--csv', "$dir/big.csv");
    is($r->{status}, 2, "$sol @big: exit 2");
    like($r->{err}, qr/^\S+: the problem needs [\d.]+ GB of GPU memory, .* has [\d.]+ GB free\n\z/,
        "$sol @big: one line saying it does not fit");
    ok(!-e "$dir/big.csv", "$sol @big: no CSV file");

    for my $refused (@{ $refused{$lab} || [] }) {
        $r = run($sol, @$refused, '--csv', "$dir/refused.csv");
        is($r->{status}, 2, "$sol @$refused is refused: exit 2");
        like($r->{err}, qr/^\S+: (variant \S+ cannot run|no variant can run) this problem: .+\n\z/,
            "$sol @$refused: one line why");
        ok(!-e "$dir/refused.csv", "$sol @$refused: no CSV file");
    }

    $r = run($stu, '--size', $small{$lab}, '--reps', '1');
    is($r->{status}, 1, "$stu (untouched skeleton): exit 1, not a crash");
    is(scalar(grep { /\| FAIL/ } rows($r->{out})), scalar @v, "$stu: every variant FAILs");
}

# --profile: Nsight Compute's DRAM bytes per point beside the model, for every variant.
SKIP: {
    skip 'ncu not installed: --profile not run', 3 if system('command -v ncu >/dev/null 2>&1') != 0;
    my $r = run('./sol2', '--profile', '--size', '256');
    is($r->{status}, 0, 'sol2 --profile: exit 0') or diag($r->{out} . $r->{err});
    my @rows = grep { /^(naive|bad_mapping)\s+\|/ } split /\n/, $r->{out};
    is(scalar @rows, 2, 'one profile row per variant');
    my ($read) = ($rows[0] // '') =~ /^naive\s+\|[^|]+\|\s+([\d.]+)/;
    ok(defined $read && $read >= 3.5 && $read < 28, "naive reads about 4 to 28 DRAM bytes per point (" . ($read // '?') . ")");
}

# Planted bugs, each built from a copy of the solution.
open my $bugs, '<', 'tests/bugs.txt' or die "tests/bugs.txt: $!";
my $n = 0;
while (my $line = <$bugs>) {
    chomp $line;
    next if $line =~ /^#/ || $line !~ /\S/;
    my ($lab, $variant, $what, $from, $to, $size, $tool) = split /\t/, $line;
    s/\\n/\n/g for $from, $to;
    $size = undef if defined $size && $size eq '';
    my $src = "$dir/bug" . $n++;
    mkdir $src;
    my $found = 0;
    for my $f (glob "solutions/$lab/*.cu") {
        open my $in, '<', $f or die;
        my $text = do { local $/; <$in> };
        $found ||= $text =~ s/\Q$from\E/$to/;
        (my $base = $f) =~ s{.*/}{};
        open my $out, '>', "$src/$base" or die;
        print $out $text;
    }
    ok($found, "$lab: bug '$what' planted") or next;
    my $b = run('make', '-s', 'program', "SRC=$src", "OUT=$src/bin");
    is($b->{status}, 0, "$lab with '$what' builds") or diag($b->{err}), next;
    my @where = defined $size && $size =~ /^--/ ? split(' ', $size) : ('--size', $size // $small{$lab});
    my @args = ('--variant', $variant, @where, '--reps', '1');
    if (($tool // '') eq 'racecheck') {
        my $r = run('compute-sanitizer', '--tool', 'racecheck', '--error-exitcode', '99', "$src/bin", @args);
        isnt($r->{status}, 0, "$lab $variant with '$what': racecheck fails it") or diag($r->{out});
        like($r->{out}, qr/RACECHECK SUMMARY: [1-9]\d* hazards|\| FAIL/, "$lab $variant with '$what': hazards or FAIL reported");
        next;
    }
    my $r = run("$src/bin", @args);
    is($r->{status}, 1, "$lab $variant with '$what': exit 1") or diag($r->{out});
    like($r->{out}, qr/\| FAIL/, "$lab $variant with '$what': reported FAIL");
}
done_testing();
