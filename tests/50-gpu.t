#!/usr/bin/env perl
# On a GPU, for every lab (its cases come from its definition, ./solN --list): every solution
# PASSes at its default size and at its test cases; the CSV and the dump are what the course
# guide says; a problem too big for the GPU and a problem a variant cannot do are refused; every
# untouched skeleton FAILs; every planted bug of solutions/<lab>/bugs.txt FAILs.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

plan skip_all => 'no solutions/ here (a student release): the course\'s own GPU tests need them' unless has_solutions();
plan skip_all => 'no CUDA GPU here (nvidia-smi lists none): solutions at default and odd sizes, '
    . 'CSV and dump, skeletons FAIL, planted bugs FAIL' unless has_gpu();

my $dir = tmpdir();

sub rows { my ($out) = @_; return grep { /\|\s*(PASS|FAIL)/ } split /\n/, $out }
sub args_of { my ($case) = @_; return shell_words($case) }
sub slurp { my ($f) = @_; open my $in, '<', $f or die "$f: $!"; local $/; return <$in> }
sub spew { my ($f, $text) = @_; open my $out, '>', $f or die "$f: $!"; print $out $text; close $out or die "$f: $!" }
# A case's command: its launcher (mpirun -np N for a case of kind npN: lab 9), the program, its
# options. %cases holds { args, np } per kind.
sub case_cmd { my ($bin, $c, @more) = @_; return (mpi_launch($c->{np}), $bin, args_of($c->{args}), @more) }
sub case_name { my ($c) = @_; return ($c->{np} > 1 ? "(np $c->{np}) " : '') . $c->{args} }

for my $lab (labs()) {
    my ($sol, $stu) = (sol_bin($lab), lab_bin($lab));
    my $l = listing($sol);
    my @v = @{ $l->{variants} };
    my %cases;
    for my $c (@{ $l->{cases} }) { push @{ $cases{$_} }, { args => $c->{args}, np => case_np($c) } for keys %{ $c->{kinds} } }

    my $r = run($sol, '--reps', '3');
    is($r->{status}, 0, "$sol at its default size: exit 0") or diag($r->{out} . $r->{err});
    my $skipped = () = $r->{out} =~ /^\(variant \S+ skipped: /mg;
    is(scalar(grep { /\| PASS/ } rows($r->{out})), @v - $skipped, "$sol: every variant that runs PASSes at the default size");
    like($r->{out}, qr/copy bandwidth \d+ GB\/s/, "$sol: the header gives the measured copy bandwidth");
    # TEST_CODE_PATH=sm_80 (common/tools/gpu-session.sh paths): the build of that path is what ran
    my $path = $ENV{TEST_CODE_PATH} // 'sm_\d+';
    like($r->{out}, qr/^code path: $path\b/m, "$sol: the header names the code path that ran ($path)");

    for my $case (@{ $cases{test} || [] }) {
        my $name = case_name($case);
        $r = run(case_cmd($sol, $case, '--reps', '2', '--seed', '7'));
        is($r->{status}, 0, "$sol $name: exit 0") or diag($r->{out} . $r->{err});
        $skipped = () = $r->{out} =~ /^\(variant \S+ skipped: /mg;
        is(scalar(grep { /\| PASS/ } rows($r->{out})), @v - $skipped, "$sol $name: every variant that runs PASSes");
        is(scalar(grep { /\| FAIL/ } rows($r->{out})), 0, "$sol $name: none FAILs");
    }

    my $small_case = $cases{small}[0] // die "$lab: no 'small' case in its definition\n";
    die "$lab: its 'small' case must run as one process\n" if $small_case->{np} > 1;
    my @small = args_of($small_case->{args});
    my $csv = "$dir/$lab.csv";
    $r = run($sol, @small, '--reps', '2', '--csv', $csv, '--quiet');
    is($r->{status}, 0, "$sol @small --quiet --csv: exit 0") or diag($r->{err});
    is($r->{out}, '', "$sol --quiet prints nothing");
    open my $fh, '<', $csv;
    my @lines = $fh ? <$fh> : ();
    chomp @lines;
    is($lines[0], $l->{csv}, "$lab: the CSV header is the schema (--list)");
    my $columns = () = $l->{csv} =~ /,/g;
    my @info = grep { /,empty_kernel,.*,INFO,/ } @lines;
    is(scalar @lines, 1 + @v + @info, "$lab: one CSV row per variant" . (@info ? ', and the empty kernel' : ''));
    is(scalar(grep { (() = /,/g) == $columns && /,PASS,/ } @lines[1 .. $#lines]), scalar @v,
        "$lab: every variant's row has every column, and PASS");
    $r = run($sol, @small, '--reps', '2', '--csv', $csv, '--quiet');
    is($r->{status}, 0, "$lab: a second run appends to the same CSV");
    open my $old, '>', "$dir/old.csv" or die;
    print $old "gpu,lab,variant\nx,y,z\n";
    close $old;
    $r = run($sol, @small, '--reps', '1', '--csv', "$dir/old.csv", '--quiet');
    is($r->{status}, 1, "$lab: a CSV with another header is not appended to (exit 1)");
    like($r->{err}, qr/has another header/, "$lab: and says so in one line") or diag($r->{err});

    # --timing b2b: the same checks, the CSV's timing column says which mode.
    $r = run($sol, @small, '--reps', '2', '--timing', 'b2b', '--csv', "$dir/$lab-b2b.csv");
    is($r->{status}, 0, "$sol @small --timing b2b: exit 0") or diag($r->{out} . $r->{err});
    like($r->{out}, qr/timed \d+ launches back to back/, "$lab --timing b2b: the header says how it timed");
    open my $b2bf, "<", "$dir/$lab-b2b.csv";
    my @b2b = $b2bf ? grep { !/^gpu,/ } <$b2bf> : ();
    ok(@b2b && !grep({ !/,b2b,sm_\d+$/ } @b2b), "$lab --timing b2b: every CSV row says b2b (" . scalar(@b2b) . ' rows)');

    # make check's sandbox (STENCIL_SANDBOX=1, a seccomp filter): the CUDA runtime still works.
    {
        local $ENV{STENCIL_SANDBOX} = 1;
        $r = run($sol, @small, '--reps', '2');
    }
    is($r->{status}, 0, "$sol @small in the sandbox: exit 0") or diag($r->{out} . $r->{err});
    $skipped = () = $r->{out} =~ /^\(variant \S+ skipped: /mg;
    is(scalar(grep { /\| PASS/ } rows($r->{out})), @v - $skipped, "$sol in the sandbox: every variant that runs PASSes");

    my $ls = listing($sol, @small);
    my $pts = 1;
    $pts *= $_ for @{ $ls->{size} };
    $r = run($sol, @small, '--reps', '1', '--variant', $v[0], '--dump', "$dir/$lab.raw", '--quiet');
    is(-s "$dir/$lab.raw", 4 * $pts, "$lab --dump writes $pts float32 values");
    # The grader's check: each variant's --dump against --dump-reference, outside the program.
    $r = run($sol, @small, '--reps', '1', '--seed', '5', '--dump', "$dir/$lab-%s.raw", '--quiet');
    for my $v (@v) {
        next unless -e "$dir/$lab-$v.raw";  # a variant that cannot run the small case
        run($sol, @small, '--seed', '5', '--variant', $v, '--dump-reference', "$dir/$lab-$v.f64");
        my $c = run('build/compare-dump', "$dir/$lab-$v.raw", "$dir/$lab-$v.f64", @{ $ls->{size} }, @{ $ls->{tolerance} });
        is($c->{status}, 0, "$lab $v: its --dump matches its --dump-reference ($c->{out})");
        open my $raw, '+<:raw', "$dir/$lab-$v.raw" or die;
        seek $raw, 4 * int($pts / 2), 0;
        print $raw pack('f<', 1e3);  # one wrong point
        close $raw;
        $c = run('build/compare-dump', "$dir/$lab-$v.raw", "$dir/$lab-$v.f64", @{ $ls->{size} }, @{ $ls->{tolerance} });
        is($c->{status}, 1, "$lab $v: one wrong point in the dump is caught");
    }

    for my $big (@{ $cases{'too-big'} || [] }) {
        my $name = case_name($big);
        $r = run(case_cmd($sol, $big, '--csv', "$dir/big.csv"));
        is($r->{status}, 2, "$sol $name: exit 2");
        like($r->{err}, qr/^\S+: the problem needs [\d.]+ GB of GPU memory.*, .* has [\d.]+ GB free\n/,
            "$sol $name: a line saying it does not fit");
        ok(!-e "$dir/big.csv", "$sol $name: no CSV file");
    }

    # A refusal is one line from the program (mpirun may add its own report after it).
    for my $refused (@{ $cases{refused} || [] }) {
        my $name = case_name($refused);
        $r = run(case_cmd($sol, $refused, '--csv', "$dir/refused.csv"));
        is($r->{status}, 2, "$sol $name is refused: exit 2");
        like($r->{err}, qr/^\S+: ((variant \S+ cannot run|no variant can run) this problem: .+|\d+ ranks give slabs of .+)\n/,
            "$sol $name: one line why");
        ok(!-e "$dir/refused.csv", "$sol $name: no CSV file");
    }

    $r = run($stu, @small, '--reps', '1');
    is($r->{status}, 1, "$stu (untouched skeleton): exit 1, not a crash") or diag($r->{out} . $r->{err});
    # given code (VARIANT_GIVEN: lab 8's queue4, lab 9's nccl_graph over the student's schedule) may PASS
    my @mine = grep { !$l->{given}{$_} } @v;
    my %failed = map { /^(\S+)\s*\|.*\| FAIL/ ? ($1 => 1) : () } rows($r->{out});
    is(scalar(grep { $failed{$_} } @mine), scalar @mine, "$stu: every variant the student writes FAILs");

    # Planted bugs, each built from a copy of the solution's kernels file.
    my $bugs = "solutions/$lab/bugs.txt";
    open my $bf, '<', $bugs or next;
    my $n = 0;
    while (my $line = <$bf>) {
        chomp $line;
        next if $line =~ /^#/ || $line !~ /\S/;
        my ($variant, $what, $from, $to, $where, $tool, $path) = split /\t/, $line;
        s/\\n/\n/g for $from, $to;
        my $src = "$dir/$lab-bug" . $n++;
        mkdir $src;
        # the text is the kernels file's, or else that of a given header it includes from
        # common/device/: the patched header goes beside the copy, where #include "..." looks first
        my $kernels = slurp("solutions/$lab/kernels.cu");
        my ($file, $text) = ('kernels.cu', $kernels);
        if (index($kernels, $from) < 0) {
            for my $h ($kernels =~ /^#include "([\w.]+)"/mg) {
                next unless -f "common/device/$h" && index(my $t = slurp("common/device/$h"), $from) >= 0;
                ($file, $text) = ($h, $t);
                last;
            }
        }
        my $found = $text =~ s/\Q$from\E/$to/;
        spew("$src/kernels.cu", $kernels) if $file ne 'kernels.cu';
        spew("$src/$file", $text);
        ok($found, "$lab: bug '$what' planted" . ($file ne 'kernels.cu' ? " (in $file)" : '')) or next;
        # a bug of the sm_80 path and later (bugs.txt) is none where an older path runs
        my ($needs) = ($path // '') =~ /^sm_(\d+)$/;
        my ($runs) = ($ENV{TEST_CODE_PATH} // '') =~ /^sm_(\d+)$/;
        if ($needs && $runs && $runs < $needs) {
            note("$lab: bug '$what' is a bug of the sm_$needs path and later: not run on sm_$runs");
            next;
        }
        my $b = run('make', '-s', 'program', "LAB=$lab", "KERNELS=$src/kernels.cu", "OUT=$src/bin");
        is($b->{status}, 0, "$lab with '$what' builds") or diag($b->{err}), next;
        # where: the options of the run that shows the bug; "np2 --size ..." runs it under mpirun
        my $np = $where && $where =~ s/^np(\d+)\s+// ? $1 : 1;
        my @args = ('--variant', $variant, ($where ? args_of($where) : @small), '--reps', '1');
        if (($tool // '') eq 'racecheck') {
            my $r = run('compute-sanitizer', '--tool', 'racecheck', '--error-exitcode', '99', "$src/bin", @args);
            isnt($r->{status}, 0, "$lab $variant with '$what': racecheck fails it") or diag($r->{out});
            like($r->{out}, qr/RACECHECK SUMMARY: [1-9]\d* hazards|\| FAIL/, "$lab $variant with '$what': hazards or FAIL reported");
            next;
        }
        my $r = run(mpi_launch($np), "$src/bin", @args);
        is($r->{status}, 1, "$lab $variant with '$what': exit 1") or diag($r->{out});
        like($r->{out}, qr/\| FAIL/, "$lab $variant with '$what': reported FAIL");
    }
}

# --profile: Nsight Compute's DRAM bytes per point beside the model, for every variant.
SKIP: {
    skip 'ncu not installed: --profile not run', 4 if system('command -v ncu >/dev/null 2>&1') != 0;
    my $r = run('./sol2', '--profile', '--size', '256');
    is($r->{status}, 0, 'sol2 --profile: exit 0') or diag($r->{out} . $r->{err});
    my @rows = grep { /^(naive|bad_mapping)\s+\|/ } split /\n/, $r->{out};
    is(scalar @rows, 2, 'one profile row per variant');
    my ($read) = ($rows[0] // '') =~ /^naive\s+\|[^|]+\|\s+([\d.]+)/;
    ok(defined $read && $read >= 3.5 && $read < 28, "naive reads about 4 to 28 DRAM bytes per point (" . ($read // '?') . ")");
    like($rows[0] // '', qr/\|\s+[\d.]+\s+\|\s+[\d.]+\s+\|\s+[\d.]+%\s+\|\s+[a-z].* [\d.]+, .* [\d.]+$/,
        'a row also gives L2 bytes, L1 sectors per request, occupancy and two stall reasons');
}
done_testing();
