#!/usr/bin/env perl
# make check, the grader. Without a GPU: exit 2, one line, a valid results.json. On a GPU: the
# untouched skeletons get no points; the solutions, graded as a student's files, get every
# point; each cheating or broken kernels file of tests/cheats/gpu-*.patch gets what its `expect:`
# line says (fail: no points; pass: its correctness points; timed: graded with a time that
# includes its work) while the other labs of the same run are graded as usual.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use File::Copy;
use File::Path qw(make_path);
use JSON::PP;
use TestLib;

my $dir = tmpdir();
my @labs = labs();

sub results {
    my ($path) = @_;
    open my $fh, '<:raw', $path or return undef;
    my $json = do { local $/; <$fh> };
    my $r = eval { JSON::PP->new->utf8->decode($json) };
    return $r;
}

sub gradescope_shape {
    my ($res, $what) = @_;
    ok($res && defined $res->{score} && ref $res->{tests} eq 'ARRAY' && defined $res->{output}
        && defined $res->{execution_time} && $res->{visibility} && $res->{stdout_visibility},
        "$what: results.json is valid UTF-8 JSON in Gradescope's format");
    my @bad = grep { !defined $_->{name} || !defined $_->{score} || !defined $_->{max_score} || !$_->{status}
                     || !defined $_->{output} || !defined $_->{number} } @{ $res->{tests} || [] };
    is(scalar @bad, 0, "$what: every test has name, number, score, max_score, status, output");
}

{
    local $ENV{CUDA_VISIBLE_DEVICES} = '';
    my $r = run('perl', 'common/grader/check.pl', '--results', "$dir/nogpu.json");
    is($r->{status}, 2, 'make check without a GPU: exit 2');
    (my $err = $r->{err}) =~ s/^lab 9 skipped: .*\n//mg;  # the build's own line where MPI or NCCL is missing
    like($err, qr/^make check: \S+: no CUDA device found \(.+\)\n\z/, 'one line saying so');
    my $res = results("$dir/nogpu.json");
    gradescope_shape($res, 'without a GPU');
    like($res->{output} // '', qr/no CUDA device/, 'results.json says why nothing was graded');
}
{
    # a machine without MPI (the Makefile leaves lab 9 out): a submitted lab 9 is said to be not
    # graded here, in results.json too, not dropped
    local @ENV{qw(MPI_LIBS MPI_CFLAGS CUDA_VISIBLE_DEVICES)} = ('', '', '');
    my $sub = "$dir/sub9";
    mkdir $sub;
    mkdir "$sub/lab9_multigpu";
    copy('labs/lab9_multigpu/kernels.cu', "$sub/lab9_multigpu/kernels.cu") or die;
    run('perl', 'common/grader/check.pl', '--submission', $sub, '--results', "$dir/nompi.json");
    my ($t) = grep { $_->{name} =~ /^lab9_multigpu/ } @{ results("$dir/nompi.json")->{tests} || [] };
    ok($t && $t->{max_score} == 0 && $t->{output} =~ /^not graded here: .*no MPI here/,
       'without MPI, a submitted lab 9: "not graded here" in results.json, 0 of 0, and why');
    my $r = run('perl', 'common/grader/check.pl', '--submission', $sub, '--labs', 'lab9', '--results', "$dir/nompi9.json");
    is($r->{status}, 2, 'without MPI, --labs lab9: could not grade (exit 2)');
    like(results("$dir/nompi9.json")->{output} // '', qr/lab9_multigpu: not graded here: .*no MPI here/, 'and results.json says why');
}
unless (has_gpu() && has_solutions()) {
    done_testing();
    exit 0;
}

# CHECK_PARTS=skeletons,solutions,cheats runs some of the parts (a device call has a time limit).
my %part = map { $_ => 1 } split /,/, $ENV{CHECK_PARTS} // 'skeletons,solutions,cheats';
# given variants (VARIANT_GIVEN: queue4_128x16 of labs 5b and 8, lab 9's nccl_graph) are not graded
my %n_variants = map { my $l = listing(sol_bin($_)); ($_ => scalar grep { !$l->{given}{$_} } @{ $l->{variants} }) } @labs;
my $total = 0;
$total += $_ for values %n_variants;

# 1. The untouched skeletons: no points, quickly (a variant that failed is not run again).
my ($r, $res);
if ($part{skeletons}) {
$r = run('perl', 'common/grader/check.pl', '--results', "$dir/skel.json", '--no-sanitize', '--labs', join(',', @labs));
is($r->{status}, 1, 'make check on the untouched skeletons: exit 1') or diag($r->{out} . $r->{err});
$res = results("$dir/skel.json");
gradescope_shape($res, 'skeletons');
is(scalar @{ $res->{tests} || [] }, $total, "one test per variant ($total)");
is(scalar(grep { $_->{status} eq 'failed' && $_->{score} == 0 } @{ $res->{tests} || [] }), $total,
    'every skeleton variant failed with 0 points');
}

# 2. The solutions as a student's files: every point (correct, sanitizers clean, within 1.2x),
# within the default time budget.
if ($part{solutions}) {
my $sub = "$dir/solutions";
for my $lab (@labs) {
    make_path("$sub/$lab");
    copy("solutions/$lab/kernels.cu", "$sub/$lab/kernels.cu") or die;
}
$r = run('perl', 'common/grader/check.pl', '--submission', $sub, '--results', "$dir/good.json", '--labs', join(',', @labs));
is($r->{status}, 0, 'make check on the solutions: exit 0') or diag($r->{out} . $r->{err});
print map { "# $_\n" } split /\n/, $r->{out};
$res = results("$dir/good.json");
gradescope_shape($res, 'solutions');
# an optional variant (VARIANT_OPTIONAL, none at present) is extra credit: 10 points of a maximum of 0
my %optional = map { my $lab = $_; my $l = listing(sol_bin($lab)); map { ("$lab $_" => 1) } keys %{ $l->{optional} || {} } } @labs;
ok(!grep({ $_->{name} eq 'lab5b_register_queue queue4_128x16' } @{ $res->{tests} || [] }),
    'lab 5b\'s queue4_128x16 is given code: not graded') if grep { /^lab5b_/ } @labs;
# (on a machine of one GPU, lab 9's NCCL variants are "not graded here": 0 of 0)
my @full = grep { $_->{status} eq 'passed' && $_->{score} == 10 && $_->{max_score} == ($optional{ $_->{name} } ? 0 : 10) } @{ $res->{tests} || [] };
my @here = grep { $_->{status} eq 'passed' && $_->{score} == 0 && $_->{max_score} == 0 && $_->{output} =~ /^not graded here/ } @{ $res->{tests} || [] };
is(scalar @full + scalar @here, $total, 'every variant got all 10 points (of 10, or of 0 as extra credit), or is not graded here')
    or diag(join "\n", map { "$_->{name}: $_->{score}/$_->{max_score} $_->{output}" } @{ $res->{tests} || [] });
ok(!grep({ $_->{name} !~ /^lab9_\S+ nccl/ } @here), 'only lab 9\'s NCCL variants may be not graded here: ' . join(', ', map { $_->{name} } @here));
ok(@{ $res->{leaderboard} || [] } >= @labs, 'a leaderboard entry (best Gpoints/s) per lab');
}

# 2b. The solutions on an emulated GPU of 48 KB a block (STENCIL_EMULATE; CHECK_PARTS=small): a
# variant whose reference is refused at every case (a ring that does not fit) is "not
# gradable on this GPU", 0 of a maximum of 0; every other variant still gets all its points.
if ($part{small}) {
my $sub = "$dir/small";
for my $lab (@labs) {
    make_path("$sub/$lab");
    copy("solutions/$lab/kernels.cu", "$sub/$lab/kernels.cu") or die;
}
{
    local $ENV{STENCIL_EMULATE} = 'smem=48K';
    $r = run('perl', 'common/grader/check.pl', '--submission', $sub, '--results', "$dir/small.json", '--labs', join(',', @labs));
}
is($r->{status}, 0, 'make check on the solutions, a GPU of 48 KB a block: exit 0') or diag($r->{out} . $r->{err});
print map { "# $_\n" } split /\n/, $r->{out};
$res = results("$dir/small.json");
gradescope_shape($res, 'solutions, 48 KB a block');
my @tests = @{ $res->{tests} || [] };
my @not = grep { $_->{output} =~ /not gradable on this GPU/ } @tests;
my @bad_not = grep { $_->{score} != 0 || $_->{max_score} != 0 || $_->{status} ne 'passed' } @not;
is(scalar @bad_not, 0, 'a variant not gradable here: 0 of a maximum of 0, not failed');
ok(!(grep { $_->{name} =~ /^lab8_wave queue4|^lab9_multigpu nccl_graph/ } @tests), 'given variants are not graded')
    if grep { /^lab[89]_/ } @labs;
my @short = grep { $_->{output} !~ /not gradable/ && !($_->{status} eq 'passed' && $_->{score} == 10) } @tests;
is(scalar @short, 0, 'every other variant: all 10 points') or diag(join "\n", map { "$_->{name}: $_->{score}/$_->{max_score} $_->{output}" } @short);
}

# 3. Cheating and broken kernels files, one per lab in a run; the runs are short (fewer reps,
# a short time limit per program run).
my %cheats;
# CHECK_CHEATS=file,file,... grades those files only.
for my $f ($ENV{CHECK_CHEATS} ? split(/,/, $ENV{CHECK_CHEATS}) : sort glob 'tests/cheats/gpu-*.patch') {
    my $c = cheat($f) or die "$f: does not apply to its lab's solution\n";
    push @{ $cheats{ $c->{lab} } }, { file => $c->{file}, name => $f, expect => { map { split /=/ } split ' ', $c->{expect} } };
}
my $round = 0;
while ($part{cheats} && grep { @$_ } values %cheats) {
    $round++;
    my $cs = "$dir/cheats$round";
    my %in_round;
    for my $lab (@labs) {
        my $c = shift @{ $cheats{$lab} || [] } or next;
        make_path("$cs/$lab");
        copy($c->{file}, "$cs/$lab/kernels.cu") or die;
        $in_round{$lab} = $c;
    }
    my $sanitize = grep { $_->{name} =~ /race|sanitiz/ } values %in_round;
    $r = run('perl', 'common/grader/check.pl', '--submission', $cs, '--results', "$dir/cheats$round.json", '--batch-time', 0.1,
        '--run-limit', 30, '--labs', join(',', sort keys %in_round), ($sanitize ? () : '--no-sanitize'));
    isnt($r->{status}, 2, "cheats round $round: graded (exit $r->{status})") or diag($r->{err});
    print map { "# $_\n" } split /\n/, $r->{out};
    $res = results("$dir/cheats$round.json");
    gradescope_shape($res, "cheats round $round");
    my %test = map { ($_->{name} => $_) } @{ $res->{tests} || [] };
    for my $lab (sort keys %in_round) {
        my $c = $in_round{$lab};
        for my $v (sort keys %{ $c->{expect} }) {
            my $t = $test{"$lab $v"};
            my $want = $c->{expect}{$v};
            my $what = "$c->{name}: $lab $v";
            ok($t, "$what is graded") or next;
            # lab 9's NCCL variants on a machine of one GPU: nothing to expect of them here
            next if $t->{max_score} == 0 && $t->{output} =~ /^not graded here/;
            if ($want eq 'fail') {
                ok($t->{status} eq 'failed' && $t->{score} == 0, "$what: no points ($t->{output})");
            } elsif ($want eq 'pass') {
                ok($t->{status} eq 'passed' && $t->{score} >= 7, "$what: still graded, its correctness points ($t->{score})");
            } elsif ($want eq 'timed') {
                my ($ratio) = $t->{output} =~ /([\d.]+) x the reference/;
                ok($t->{status} eq 'passed' && defined $ratio && $ratio > 0.8,
                    "$what: timed with its work (" . ($ratio // '?') . " x the reference)");
            }
        }
    }
}
done_testing();
