#!/usr/bin/env perl
# make release writes the student tree: no solutions, answers, planted bugs or cheats, the
# reference programs prebuilt (./solN runs there); it builds,
# `make lab1 && ./lab1` works in it, and its own make test passes. make gradescope builds the
# autograder zip, whose run_autograder writes a valid results.json in Gradescope's layout.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use JSON::PP;
use Cwd;
use File::Temp ();
use TestLib;

plan skip_all => 'a student release has no release of its own to make' unless has_solutions();
my $dir = tmpdir();
my $rel = "$dir/release";
my $r = run('make', '-s', 'release', "RELEASE=$rel");
is($r->{status}, 0, 'make release exits 0') or diag($r->{err});
ok(-f "$rel/Makefile" && -d "$rel/labs" && -d "$rel/common" && -f "$rel/handouts/README.md", 'the release has the course');
ok(!-e "$rel/solutions", 'no solutions/ (kernels, planted bugs, answer keys)');
ok(!-e "$rel/tests/cheats", 'no cheating files (they are made from the solutions)');
ok(!-e "$rel/handouts/debriefs", 'no debriefs (the course\'s measured answers, for after the lab)');
ok(!glob("$rel/data/*-test.log") && glob("$rel/data/*-profile.csv"), 'no GPU test logs (the profiles are in data/*-profile.csv)');
my @leaks = grep { /\S/ } split /\n/, `grep -rl --include='*.cu' --include='*.c' --include='*.h' 'BEGIN SOLUTION' '$rel' 2>/dev/null`;
is("@leaks", '', 'no solution region in any source');
my @keys = grep { /\S/ } split /\n/, `find '$rel' -name 'answers*' -o -name 'bugs.txt'`;
is("@keys", '', 'no answer key, no planted bugs');
my ($CUOBJDUMP) = grep { -x } map { "$_/cuobjdump" } split(/:/, $ENV{PATH} // ''),
    map { m{^/} ? s{/[^/]*$}{}r : () } (`command -v nvcc 2>/dev/null` =~ s/\s+$//r);
for my $lab (labs()) {
    ok(-f "$rel/labs/$lab/kernels.cu" && -f "$rel/labs/$lab/lab.c", "$lab: the skeleton and the definition are there");
    # the reference program, prebuilt (the handouts' `make solN && ./solN`; make check times
    # against it): for every code path and with PTX for newer GPUs, as ARCH=portable builds
    my $sol = sol_bin($lab, $rel);
    next if $lab =~ /^lab9_/ && !-x sol_bin($lab);  # lab 9 only where MPI and NCCL are
    ok(-x $sol, "$lab: $sol is there, prebuilt") or next;
    my $n = (split m{/}, $sol)[-1];
    is(run("make -s -C '$rel' $n")->{status}, 0, "$lab: make $n in the release (nothing to build)");
    is(run("cd '$rel' && ./$n --help")->{status}, 0, "$lab: ./$n --help");
    my $l = run("cd '$rel' && ./$n --list");
    ok($l->{status} == 0 && $l->{out} =~ /^variant /m, "$lab: ./$n --list");
    SKIP: {
        skip 'no cuobjdump here (a toolkit without it): the release\'s code paths not listed', 1 unless $CUOBJDUMP;
        my $elf = `'$CUOBJDUMP' --list-elf '$sol' 2>/dev/null`;
        my $ptx = `'$CUOBJDUMP' --list-ptx '$sol' 2>/dev/null`;
        ok($elf =~ /sm_75/ && $elf =~ /sm_80/ && $elf =~ /sm_90/ && $ptx =~ /sm_90|compute_90/,
           "$lab: $n holds sm_75, sm_80 and sm_90 code and compute_90 PTX");
    }
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
# the release's own quick tier (its build, unit, CLI, skeleton, tables, vet and grader tests) and
# its figures: the whole suite there repeats this one's (3 of the CPU suite's 10 minutes)
$r = run("make -s -C '$rel' -j2 test-quick 2>&1 && cd '$rel' && prove tests/40-plots.t 2>&1");
is($r->{status}, 0, "the release's own make test-quick and tests/40-plots.t pass") or diag(substr($r->{out}, -3000));

# Gradescope: the zip, unpacked as /autograder would be, grades a submission.
$r = run('make', '-s', 'gradescope');
is($r->{status}, 0, 'make gradescope exits 0') or diag($r->{err});
# in a folder of its own under the system's temporary folder: run_autograder, as root, grades as
# nobody, who must reach it (as /autograder on Gradescope)
my $ag = File::Temp::tempdir('autograder-XXXXXX', TMPDIR => 1, CLEANUP => 1);
chmod 0755, $ag;
$r = run("cd '$ag' && unzip -q '" . Cwd::getcwd() . "/build/autograder.zip'");
is($r->{status}, 0, 'the zip unpacks');
ok(-x "$ag/setup.sh" && -x "$ag/run_autograder" && -f "$ag/source/common/grader/check.pl", 'setup.sh, run_autograder and the course');
my @secret = grep { /\S/ } split /\n/, `cd '$ag/source' && find . -name 'answers*' -o -name bugs.txt -o -path './tests/cheats' -o -path './handouts/debriefs' -o -name '*-test.log'`;
is("@secret", '', 'the zip ships no answer key, planted bug, cheat test or GPU log');
mkdir "$ag/submission";
system('cp', 'solutions/lab1_diff1d/kernels.cu', "$ag/submission/lab1_diff1d.cu") == 0 or die;
{
    local $ENV{AUTOGRADER_ROOT} = $ag;
    local $ENV{CHECK_ARGS} = '--labs lab1 --batch-time 0.1 --no-sanitize';
    # one PTX target for the zip's whole build (reference and submission alike), not the three
    # code paths and PTX of ARCH=portable: on 2 cores that build took 82 of this test's 127 s (43
    # with one target), and every architecture's build is tests/05-arch.t's to check. On a GPU
    # the driver compiles the PTX.
    local $ENV{ARCH} = 'compute_75';
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
