#!/usr/bin/env perl
# --serve (common/harness/serve.c), make check's way of running a student's program, without a
# GPU: labs 5 and 8 on the fake GPU (tests/fakegpu), lab 9 under mpirun. What it proves: each run
# answers the digests of its output and inputs; the same seed gives the same digests in a batch
# and in a dump, other seeds others; a dump is the grid the CPU reference checks (compare-dump);
# the null runs' input digests are what a run that leaves its inputs alone answers, and one that
# writes into an input answers another; bad requests get one error line each and the program goes
# on; lab 9's digests and dumps do not depend on the number of processes; and a program built
# for grading (no CPU reference) runs --serve only.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

my %bin = ('5b' => 'build/tests/fake5', 8 => 'build/tests/fake8', 9 => 'build/tests/fake9');
plan skip_all => 'build/tests/fake5 not built' unless -x $bin{'5b'};
my $dir = tmpdir();
delete @ENV{qw(FAKE_BUG FAKE_BUG_VARIANT)};

# serve(bin, [args], requests...) -> (status, answer lines after "ready", stderr)
sub serve {
    my ($cmd, $args, @requests) = @_;
    open my $fh, '>', "$dir/requests" or die;
    print $fh map { "$_\n" } @requests;
    close $fh;
    local $TestLib::STDIN = "$dir/requests";
    my $r = run(@$cmd, '--serve', @$args);
    my @lines = split /\n/, $r->{out};
    is(shift(@lines) // '', 'ready', "@$cmd @$args: says ready first") or diag($r->{err});
    return ($r->{status}, \@lines, $r->{err});
}
sub pairs { my ($line) = @_; return $line =~ /^ok ((?:[0-9a-f]{16}:[0-9a-f]{16} ?)+)$/ ? [ map { [ split /:/ ] } split ' ', $1 ] : undef }

for my $lab ('5b', 8) {
    my @args = ('--size', $lab eq '5b' ? '40x33x20' : '36x20x30', ($lab eq '8' ? ('--steps', '3') : ()));
    my ($v) = grep { !/queue4/ } variants_of($bin{$lab});
    my $l = listing($bin{$lab}, @args);
    my ($st, $a) = serve([ $bin{$lab} ], \@args, "run $v 11 12 13", 'null 11 12 13', "dump $v 12 $dir/out.raw", "dump $v 12 -",
                         'bogus 1', 'run nosuch 1', "run $v", "run $v x1", "run $v 14");
    is($st, 0, "lab $lab: exit 0 at the end of its input");
    is(scalar @$a, 9, "lab $lab: one answer a request");
    my ($run, $null, $dump, $dump2) = map { pairs($a->[$_]) } 0 .. 3;
    ok($run && @$run == 3, "lab $lab: a run of three seeds answers three digest pairs") or diag($a->[0]);
    ok($run && $run->[0][0] ne $run->[1][0] && $run->[1][0] ne $run->[2][0], "lab $lab: other seeds, other outputs");
    is_deeply([ map { $_->[1] } @$null ], [ map { $_->[1] } @$run ], "lab $lab: the runs left their inputs as the null runs made them");
    is_deeply($dump, [ $run->[1] ], "lab $lab: the dump of seed 12 answers what its run did");
    is_deeply($dump2, $dump, "lab $lab: a dump to - too");
    like($a->[$_], qr/^error \S/, "lab $lab: bad request $_ gets an error line: $a->[$_]") for 4 .. 7;
    ok(pairs($a->[8]), "lab $lab: and the program goes on");
    my $ref = run($bin{$lab}, @args, '--seed', 12, '--variant', $v, '--dump-reference', "$dir/ref.f64");
    my $c = run('build/compare-dump', "$dir/out.raw", "$dir/ref.f64", @{ $l->{size} }, @{ $l->{tolerance} });
    is($c->{status}, 0, "lab $lab: the dump matches the CPU reference of its seed ($c->{out})");
}

# A run that writes into an input (its padding: lab 5b's rows are padded) answers other input digests.
{
    local $ENV{FAKE_BUG} = 'write-in-padding';
    my ($v) = variants_of($bin{'5b'});
    my ($st, $a) = serve([ $bin{'5b'} ], [ '--size', '40x33x20' ], "run $v 11", 'null 11');
    my ($run, $null) = map { pairs($_) } @$a;
    ok($run && $null && $run->[0][1] ne $null->[0][1], 'a run that writes into an input: its input digest differs from the null run\'s');
}

SKIP: {
    skip 'no MPI or build/tests/fake9', 3 unless -x $bin{9} && system('command -v mpirun >/dev/null') == 0;
    my @args = ('--size', '40x33x41', '--steps', '6', '--model', '0', '--sponge', '4');
    my ($v) = variants_of($bin{9});
    my (undef, $one) = serve([ $bin{9} ], \@args, "run $v 5 6", "dump $v 6 $dir/one.raw");
    my (undef, $two) = serve([ mpi_launch(2), $bin{9} ], \@args, "run $v 5 6", "dump $v 6 $dir/two.raw");
    ok(pairs($one->[0]) && $one->[0] ne (split ' ', $one->[0])[1], 'lab 9: two seeds, two digests');
    is_deeply($two, $one, 'lab 9: two processes answer what one does');
    is(run('cmp', "$dir/one.raw", "$dir/two.raw")->{status}, 0, 'lab 9: and dump the same grid');
}
# make check's build of a program (GRADING=1, build/grading/solN): no CPU reference, no check of
# it, nothing only they call; it answers --serve and --list, and nothing else.
my $REFERENCE_CODE = qr/^(reference|star_reference|wave_reference|wave_steps|heat_steps|self_test)(\.|$)/;
sub functions { my ($bin) = @_; return grep { $_ =~ $REFERENCE_CODE } map { (split ' ')[2] // () } grep { / [tT] / } split /\n/, `nm $bin` }
for my $sol (map { s{.*/}{}r } grep { -x } glob 'build/grading/sol*') {
    my @normal = -x $sol ? functions("./$sol") : ();
    my @graded = functions("build/grading/$sol");
    ok(!@graded, "build/grading/$sol holds no reference code" . (@normal ? " (./$sol has @normal)" : '')) or diag("@graded");
    my $r = run("build/grading/$sol", '--size', '16');
    ok($r->{status} == 2 && $r->{err} =~ /built for make check/, "build/grading/$sol: a table run is refused") or diag($r->{err});
    is(run("build/grading/$sol", '--list')->{status}, 0, "build/grading/$sol: --list works");
}
done_testing();
