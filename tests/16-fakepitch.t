#!/usr/bin/env perl
# Padded rows (problem.pitch, lab.h) without a GPU: labs 5b and 8 (row_align 64 and 32) linked with the
# whole harness, a GPU made of host memory (tests/fakegpu/gpu.c) and a kernels file whose every
# variant answers with the lab's own CPU reference on the packed rows
# (tests/fakegpu/reference-kernels.c). What it proves: the padded uploads and fills, the check of
# the inputs' padding, the packing of the output before the comparison, --dump of an unpadded
# grid, the smooth input's and --convergence's uploads, the source point through device_index;
# and that a kernel ignoring the pitch or reading the padding FAILs where there is padding, that
# writing the output's padding is allowed and writing an input's is not. What it cannot prove:
# anything about the CUDA kernels (50-gpu.t, on a GPU).
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

my %bin = ('5b' => 'build/tests/fake5', 8 => 'build/tests/fake8');
plan skip_all => 'build/tests/fake5 and build/tests/fake8 not built (make build/tests/fake5 build/tests/fake8)'
    unless -x $bin{'5b'} && -x $bin{8};

my $dir = tmpdir();
delete @ENV{qw(FAKE_BUG FAKE_BUG_VARIANT)};
my @reps = ('--reps', '2');
sub rows { my ($out) = @_; return grep { /\|\s*(PASS|FAIL)/ } split /\n/, $out }
sub args { my ($s) = @_; return split ' ', $s }

# The variants of lab N that can run these arguments (--list names those the fake GPU refuses).
sub runnable {
    my ($lab, @args) = @_;
    my $l = listing($bin{$lab}, @args) or return ();
    return grep { !$l->{refuses}{$_} } @{ $l->{variants} };
}

# Run lab N with these arguments: { status, out, err, pass, fail, want } (want: the variants that
# can run it); every row that is neither PASS nor FAIL is left out.
sub run_lab {
    my ($lab, $case, @more) = @_;
    my $r = run($bin{$lab}, args($case), @reps, @more);
    my @rows = rows($r->{out});
    $r->{pass} = grep { /\| PASS/ } @rows;
    $r->{fail} = grep { /\| FAIL/ } @rows;
    $r->{want} = scalar runnable($lab, args($case));
    return $r;
}

sub all_pass {
    my ($lab, $case, $what) = @_;
    my $r = run_lab($lab, $case);
    ok($r->{status} == 0 && $r->{want} > 0 && $r->{pass} == $r->{want} && $r->{fail} == 0,
       "lab $lab $case$what: every variant that can run it PASSes ($r->{pass} of $r->{want}, exit $r->{status})")
        or diag($r->{out} . $r->{err});
    return $r;
}

# ---- correct kernels: every variant PASSes, padded (nx no multiple of the row alignment) or not ----
all_pass('5b', '--size 37x9x7', ' (padded: pitch 64)');
all_pass('5b', '--order 4 --size 45x20x11', ' (padded)');
all_pass('5b', '--order 12 --size 33x15x14', ' (padded, the widest star)');
all_pass('5b', '--size 64x5x6', ' (no padding)');
all_pass(8, '--size 37x20x21 --steps 3', ' (padded)');
all_pass(8, '--size 64x12x13 --steps 2', ' (no padding)');
all_pass(8, '--size 37x20x21 --steps 4 --model 1 --sponge 4', ' (padded; the source through device_index)');
{
    # deep enough for the smooth input's analytic answer (WAVE_R (S - 1) points inside the boundary
    # layer): its upload through the padded copy, and the error against it
    my $r = all_pass(8, '--size 45x40x36 --steps 2', ' (padded)');
    my @lines = grep { /\| RMS error/ } split /\n/, $r->{out};
    is(scalar(grep { /within the tolerance/ } @lines), $r->{want},
       'and every variant\'s error against the analytic answer of the smooth input is within the tolerance')
        or diag(join "\n", @lines);
}

# ---- --dump of a padded run: nx ny nz floats, the CPU reference's answer ----
for my $d (['5b', '--order 4 --size 45x20x11', 'queue_16x16', ''],
           ['8', '--size 37x20x21 --steps 3 --model 1 --sponge 4', 'queue4_128x16', ''],
           ['5b', '--size 37x9x7', 'queue_32x32', 'write-out-padding']) {
    my ($lab, $case, $v, $bug) = @$d;
    my $tag = "lab $lab $case, $v" . ($bug ? " with FAKE_BUG=$bug (the output's padding written 0)" : '');
    local $ENV{FAKE_BUG} = $bug if $bug;
    my ($dump, $ref) = ("$dir/dump$lab-$v.raw", "$dir/ref$lab-$v.f64");
    my $r = run($bin{$lab}, args($case), @reps, '--variant', $v, '--dump', $dump, '--quiet');
    is($r->{status}, 0, "$tag --dump: exit 0") or diag($r->{out} . $r->{err});
    my $l = listing($bin{$lab}, args($case));
    my $points = 1;
    $points *= $_ for @{ $l->{size} };
    is(-s $dump, 4 * $points, "$tag: the dump holds nx ny nz floats (@{ $l->{size} }), no padding");
    $r = run($bin{$lab}, args($case), '--variant', $v, '--dump-reference', $ref);
    is(-s $ref, 8 * $points, "$tag: --dump-reference writes nx ny nz doubles") or diag($r->{err});
    SKIP: {
        skip 'build/compare-dump not built', 1 unless -x 'build/compare-dump';
        my $c = run('build/compare-dump', $dump, $ref, @{ $l->{size} }, @{ $l->{tolerance} });
        chomp $c->{out};
        is($c->{status}, 0, "$tag: build/compare-dump accepts the dump against the reference ($c->{out})") or diag($c->{err});
    }
    # the same by hand: floats against doubles, 1e-5 relative (to the point and the RMS)
    my ($f, $g) = map { open my $fh, '<:raw', $_ or die "$_: $!"; local $/; my $s = <$fh>; $s } $dump, $ref;
    my @got = unpack 'f<*', $f;
    my @want = unpack 'd<*', $g;
    my $rms = 0;
    $rms += $_ * $_ for @want;
    $rms = sqrt($rms / (@want || 1));
    my @bad = grep { !($got[$_] == $got[$_]) || abs($got[$_] - $want[$_]) > 1e-5 * (abs($want[$_]) + $rms) } 0 .. $#want;
    ok(@got == @want && !@bad, "$tag: every dumped point within 1e-5 of the reference (" . scalar(@bad) . ' off)')
        or diag("first off: point $bad[0]: $got[$bad[0]] against $want[$bad[0]]");
}

# ---- lab 8 --convergence: the smooth input uploaded through the padded copy at every size ----
{
    my $r = run($bin{8}, '--convergence', '--variant', 'naive');
    my @rows = grep { /^naive\s+\|\s+\d+ \|/ } split /\n/, $r->{out};
    is($r->{status}, 0, 'lab 8 --convergence: exit 0') or diag($r->{out} . $r->{err});
    is(scalar(@rows), 7, 'one row per size, 32 to 256 (48: rows padded to 64)')
        or diag($r->{out});
    my @order = map { /\|\s*([\d.]+)\s*$/ ? $1 : () } @rows;
    ok(@order == 6 && !grep({ $_ < 1.8 || $_ > 2.6 } @order),
       "the observed orders are the time step's 2, padded sizes included (@order)") or diag($r->{out});
}

# ---- planted bugs ----
sub verdict {
    my ($lab, $case, $bug, $want_pass, $note) = @_;
    local $ENV{FAKE_BUG} = $bug;
    my $r = run_lab($lab, $case);
    if ($want_pass) {
        ok($r->{status} == 0 && $r->{pass} == $r->{want} && $r->{fail} == 0,
           "FAKE_BUG=$bug, lab $lab $case: every variant PASSes ($r->{pass} of $r->{want}; $note)") or diag($r->{out} . $r->{err});
    } else {
        ok($r->{status} == 1 && $r->{fail} == $r->{want} && $r->{pass} == 0,
           "FAKE_BUG=$bug, lab $lab $case: every variant FAILs ($r->{fail} of $r->{want}; $note)") or diag($r->{out} . $r->{err});
    }
    return $r;
}

for my $lab ('5b', 8) {
    my ($padded, $unpadded) = $lab eq '5b' ? ('--size 37x9x7', '--size 64x5x6') : ('--size 37x20x21 --steps 2', '--size 64x12x13 --steps 2');
    verdict($lab, $padded, 'ignore-pitch', 0, 'rows nx apart where they are pitch apart');
    verdict($lab, $unpadded, 'ignore-pitch', 1, 'no padding: pitch = nx');
    my $r = verdict($lab, $padded, 'read-padding', 0, 'the NaN of the padding in the answer');
    like($r->{out}, qr/FAIL: \d+ of \d+ points NaN/, "  and the note says NaN points");
    verdict($lab, $unpadded, 'read-padding', 1, 'no padding: the element after a row is the next row\'s first point');
    verdict($lab, $padded, 'write-out-padding', 1, 'the output\'s padding may be written');
    $r = verdict($lab, $padded, 'write-in-padding', 0, 'an input\'s padding may not be written');
    my $input = $lab eq '5b' ? 'in' : 'u_prev';
    is(scalar(grep { /\| FAIL: wrote into the input '\Q$input\E'/ } rows($r->{out})), $r->{want},
       "  every note says: wrote into the input '$input'");
    $r = verdict($lab, $padded, 'write-in-last', 0, 'the last row\'s padding of the last input is checked too');
    my $last = $lab eq '5b' ? 'in' : 'vsq';
    is(scalar(grep { /\| FAIL: wrote into the input '\Q$last\E'/ } rows($r->{out})), $r->{want},
       "  every note says: wrote into the input '$last'");
}

# A bug in one variant: only that one FAILs.
for my $bug ('ignore-pitch', 'read-padding') {
    local $ENV{FAKE_BUG} = $bug;
    local $ENV{FAKE_BUG_VARIANT} = 'queue_32x32';
    my $r = run_lab('5b', '--size 37x9x7');
    my @rows = rows($r->{out});
    ok($r->{status} == 1 && (grep { /^queue_32x32 .*\| FAIL/ } @rows) == 1 && $r->{pass} == $r->{want} - 1,
       "FAKE_BUG=$bug in queue_32x32 alone: it FAILs, the other " . ($r->{want} - 1) . " PASS") or diag($r->{out});
}
for my $bug ('write-in-padding', 'write-in-last') {
    # The inputs' padding is poisoned again before every run, all of it: a variant that wrote
    # it is the only one told so.
    local $ENV{FAKE_BUG} = $bug;
    local $ENV{FAKE_BUG_VARIANT} = 'queue_32x32';
    my $r = run_lab('5b', '--size 37x9x7');
    my @rows = rows($r->{out});
    ok($r->{status} == 1 && (grep { /^queue_32x32 .*\| FAIL: wrote into the input/ } @rows) == 1 && $r->{pass} == $r->{want} - 1,
       "FAKE_BUG=$bug in queue_32x32 alone: it FAILs, the other " . ($r->{want} - 1) . ' PASS')
        or diag(join "\n", @rows);
}

done_testing();
