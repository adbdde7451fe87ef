#!/usr/bin/env perl
# make release writes the student tree: no solutions, answers, planted bugs or cheats; it builds,
# `make lab1 && ./lab1` works in it, and its own make test passes. make gradescope builds the
# autograder zip, whose run_autograder writes a valid results.json in Gradescope's layout.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use JSON::PP;
use Cwd;
use TestLib;

plan skip_all => 'a student release has no release of its own to make' unless has_solutions();
my $dir = tmpdir();
my $rel = "$dir/release";
my $r = run('make', '-s', 'release', "RELEASE=$rel");
is($r->{status}, 0, 'make release exits 0') or diag($r->{err});
ok(-f "$rel/Makefile" && -d "$rel/labs" && -d "$rel/common" && -f "$rel/handouts/README.md", 'the release has the course');
ok(!-e "$rel/solutions", 'no solutions/ (kernels, planted bugs, answer keys)');
ok(!-e "$rel/tests/cheats", 'no cheating files (they are made from the solutions)');
ok(!glob("$rel/data/*-test.log") && glob("$rel/data/*-profile.csv"), 'no GPU test logs (the profiles are in data/*-profile.csv)');
my @leaks = grep { /\S/ } split /\n/, `grep -rl --include='*.cu' --include='*.c' --include='*.h' 'BEGIN SOLUTION' '$rel' 2>/dev/null`;
is("@leaks", '', 'no solution region in any source');
my @keys = grep { /\S/ } split /\n/, `find '$rel' -name 'answers*' -o -name 'bugs.txt'`;
is("@keys", '', 'no answer key, no planted bugs');
for my $lab (labs()) {
    ok(-f "$rel/labs/$lab/kernels.cu" && -f "$rel/labs/$lab/lab.c", "$lab: the skeleton and the definition are there");
}
$r = run("make -s -C '$rel' -j2 lab1");
is($r->{status}, 0, 'make lab1 in the release') or diag($r->{err});
$r = run("cd '$rel' && ./lab1 --help");
is($r->{status}, 0, './lab1 --help in the release');
{
    local $ENV{CUDA_VISIBLE_DEVICES} = has_gpu() ? $ENV{CUDA_VISIBLE_DEVICES} // '' : '';
    $r = run("cd '$rel' && ./lab1 --size 1000 --reps 1");
    if (has_gpu()) { is($r->{status}, 1, './lab1 on a GPU: the untouched skeleton FAILs (exit 1)') }
    else { is($r->{status}, 2, './lab1 without a GPU: exit 2, one line') }
}
$r = run("make -s -C '$rel' -j2 test 2>&1");
is($r->{status}, 0, "the release's own make test passes") or diag(substr($r->{out}, -3000));

# Gradescope: the zip, unpacked as /autograder would be, grades a submission.
$r = run('make', '-s', 'gradescope');
is($r->{status}, 0, 'make gradescope exits 0') or diag($r->{err});
my $ag = "$dir/autograder";
mkdir $ag;
$r = run("cd '$ag' && unzip -q '" . Cwd::getcwd() . "/build/autograder.zip'");
is($r->{status}, 0, 'the zip unpacks');
ok(-x "$ag/setup.sh" && -x "$ag/run_autograder" && -f "$ag/source/common/grader/check.pl", 'setup.sh, run_autograder and the course');
mkdir "$ag/submission";
system('cp', 'solutions/lab1_diff1d/kernels.cu', "$ag/submission/lab1_diff1d.cu") == 0 or die;
{
    local $ENV{AUTOGRADER_ROOT} = $ag;
    local $ENV{CHECK_ARGS} = '--labs lab1 --batch-time 0.1 --no-sanitize';
    $r = run("'$ag/run_autograder'");
}
is($r->{status}, 0, 'run_autograder exits 0 (the grade is in results.json)');
open my $fh, '<:raw', "$ag/results/results.json";
my $res = $fh ? eval { JSON::PP->new->utf8->decode(do { local $/; <$fh> }) } : undef;
ok($res && defined $res->{score} && ref $res->{tests} eq 'ARRAY', 'results.json in /autograder/results is valid');
if (has_gpu()) {
    is(scalar(grep { $_->{status} eq 'passed' } @{ $res->{tests} || [] }), 3, 'on a GPU: lab 1 graded, its 3 variants passed');
} else {
    like($res->{output} // '', qr/no CUDA device/, 'without a GPU: it says so');
}
done_testing();
