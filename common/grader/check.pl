#!/usr/bin/env perl
# SPDX-License-Identifier: MIT
# make check: grade students' kernels files against the reference solutions, on this GPU.
#   perl common/grader/check.pl [--submission DIR] [--results FILE] [--budget SECONDS] [--labs a,b]
# DIR holds a kernels file per lab, as DIR/labN_name/kernels.cu (a student's labs/ folder),
# DIR/labs/labN_name/kernels.cu (a whole tree) or DIR/labN_name.cu; default: this tree's labs/.
#
# The grader decides, with code the student does not control (the course guide, "Grading"):
# - Each kernels file is built against this tree's common/ and the lab's definition, in a
#   scratch folder that holds no solution and no reference program, after common/grader/Vet.pm has
#   checked what it includes, defines and calls. A refused or broken file costs its lab only.
#   Every lab program runs in common/harness/sandbox.c's seccomp filter (STENCIL_SANDBOX=1): no new
#   program or process, no signal to another, for what a file finds at run time.
# - Correct: at every case of the lab's definition marked 'grade' and at the default size, with
#   a fresh seed each, the output the student's program dumps matches the CPU reference of the
#   pristine definition (build/compare-dump, the harness's rule); compute-sanitizer memcheck
#   and racecheck find nothing at the lab's first sanitize case and at a graded case chosen here.
# - Fast: at the default size, student and reference runs alternate (ABAB) on this GPU; their
#   copy roofs must agree within 10% (else the GPU was shared: performance not graded); the time
#   the student's program reports must agree with the wall clock this grader measures (beyond
#   2.5 s of run-to-run jitter).
# A variant earns 7 points if correct, and then 3 on the performance curve: all of them at or
# under 1.2 times the reference's time T_ref, 3 * 1.2 T_ref / T up to 10 times, none beyond.
# results.json (Gradescope's format) is written on every path, atomically. Exit status: 0 every
# variant correct, 1 a check failed, 2 could not grade (no GPU, a broken reference).
use strict;
use warnings;
use Cwd qw(abs_path getcwd);
use Digest::SHA qw(sha256_hex);
use File::Basename qw(dirname);
use File::Copy qw(copy);
use File::Path qw(make_path remove_tree);
use File::Temp qw(tempdir);
use Getopt::Long;
use JSON::PP;
use POSIX qw(:sys_wait_h);
use Time::HiRes qw(time sleep);

my $ROOT;
BEGIN { $ROOT = dirname(dirname(dirname(abs_path($0)))) }
use lib "$ROOT/common/tools", "$ROOT/common/grader";
use Course qw(labs build_vars lab_number listing shell_words case_np mpi_launch %MPI_ENV);
use Vet qw(vet_source vet_object);

my ($CORRECT_PTS, $PERF_PTS) = (7, 3);
# budget: each lab's time (its builds, runs, sanitizers, timing): a hang costs its own lab only
my %opt = (budget => $ENV{CHECK_BUDGET} // 300, results => $ENV{CHECK_RESULTS} // 'results.json',
           'run-limit' => $ENV{CHECK_TIME_LIMIT} // 180, reps => 30, sanitize => 1);
GetOptions(\%opt, 'submission=s', 'results=s', 'budget=i', 'labs=s', 'run-limit=i', 'reps=i', 'sanitize!')
    or die "usage: check.pl [--submission DIR] [--results FILE] [--budget S] [--labs a,b] [--run-limit S]\n";
my $RESULTS = abs_path(dirname($opt{results})) . '/' . (split m{/}, $opt{results})[-1];
my $SUBMISSION = abs_path($opt{submission} // "$ROOT/labs");
my $START = time;
$| = 1;  # the table as it is made: a grader stopped by a time limit still shows how far it got
chdir $ROOT or die "check.pl: $ROOT: $!\n";
delete @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL)};  # make's own runs are ours, not a parent make's jobs

# ---- results.json, written on every path ----

my (@tests, @leaderboard, @log, $exit_status);
sub say_line { my ($line) = @_; print "$line\n"; push @log, $line }

sub clean_text {  # valid UTF-8, no control characters but newlines and tabs, at most $max characters
    my ($s, $max) = @_;
    $s //= ''; $max //= 4000;
    utf8::decode($s) or $s =~ s/[^\x09\x0a\x20-\x7e]/?/g;
    $s =~ s/[^\x09\x0a\x{20}-\x{7e}\x{a0}-\x{10ffff}]/?/g;
    # a long text keeps its start and its end (the score and the status are the last lines)
    return length $s > $max ? substr($s, 0, $max / 2) . "\n(cut)\n" . substr($s, -$max / 2) : $s;
}

sub write_results {
    my ($status_line) = @_;
    my $score = 0;
    $score += $_->{score} for @tests;
    my %r = (score => 0 + sprintf("%.2f", $score), execution_time => int(time - $START),
             output => clean_text(join("\n", @log, $status_line // ()), 32000), stdout_visibility => 'visible',
             visibility => 'visible', tests => [ map { { %$_, output => clean_text($_->{output}) } } @tests ],
             leaderboard => \@leaderboard);
    my $tmp = "$RESULTS.tmp$$";
    open my $fh, '>:raw', $tmp or do { warn "check.pl: cannot write $tmp: $!\n"; return };
    print $fh JSON::PP->new->utf8->canonical->pretty->encode(\%r);
    close $fh && rename $tmp, $RESULTS or warn "check.pl: cannot write $RESULTS: $!\n";
}

my %children;  # process groups still to kill
sub kill_children { kill 'KILL', -$_ for keys %children; %children = () }
for my $sig (qw(INT TERM HUP)) {
    $SIG{$sig} = sub { kill_children(); write_results("interrupted by SIG$sig: not every lab was graded"); exit 2 };
}
END { kill_children(); write_results() unless defined $exit_status }

sub finish {
    my ($status, $line) = @_;
    print STDERR "$line\n" if $line && $status == 2;
    write_results($line);
    $exit_status = $status;
    exit $status;
}

# ---- running one program: its own process group, a time limit, bounded output ----

my $PRIVATE = tempdir('check-XXXXXXXX', TMPDIR => 1, CLEANUP => !$ENV{CHECK_KEEP});
chmod 0700, $PRIVATE;
# PATH: the folders of nvcc and mpirun as found here (absolute: never '.'), then the system's.
my @TOOL_DIRS = grep { m{^/} && -d } map { my $p = `command -v $_ 2>/dev/null` =~ s/\s+$//r; $p =~ m{^/} ? dirname($p) : () } qw(nvcc mpirun);
my %ENV_MIN = (PATH => join(':', @TOOL_DIRS, '/usr/local/bin', '/usr/bin', '/bin'),
               LANG => 'C', NCCL_NVLS_ENABLE => 0,
               # the machine's own MPI settings (e.g. OMPI_MCA_plm=isolated where there is no ssh:
               # without them mpirun, and MPI_Init of one process, cannot start their daemon)
               (map { ($_ => $ENV{$_}) } grep { /^(OMPI_MCA_|PMIX_MCA_|PRTE_MCA_|OPAL_PREFIX$)/ } keys %ENV),
               # lab 9 under mpirun (Course.pm): as root if so, no single-copy shared memory
               # between its processes (process_vm_readv, which the sandbox forbids)
               %MPI_ENV,
               # every lab program takes common/harness/sandbox.c's seccomp filter before a kernels file runs
               STENCIL_SANDBOX => 1);
$ENV_MIN{CUDA_VISIBLE_DEVICES} = $ENV{CUDA_VISIBLE_DEVICES} if defined $ENV{CUDA_VISIBLE_DEVICES};
# grading as on a smaller GPU (the course guide, "Every GPU"): every program of the grading sees it
$ENV_MIN{STENCIL_EMULATE} = $ENV{STENCIL_EMULATE} if defined $ENV{STENCIL_EMULATE};

# CHECK_TRACE=FILE: every program run, its time and its exit status, appended to FILE (where
# the grading time goes).
sub trace {
    return unless $ENV{CHECK_TRACE};
    open my $fh, '>>', $ENV{CHECK_TRACE} or return;
    printf $fh "%8.1f %s\n", time - $START, $_[0];
}

# run(dir, limit, cmd...) -> {status, signal, timed_out, wall, out, err, err_last}
sub run {
    my ($dir, $limit, @cmd) = @_;
    my ($out, $err) = ("$dir/.stdout", "$dir/.stderr");
    my $t0 = time;
    my $pid = fork // die "check.pl: fork: $!\n";
    if (!$pid) {
        POSIX::setsid();
        chdir $dir or POSIX::_exit(126);
        %ENV = (%ENV_MIN, HOME => $dir);
        open STDIN, '<', '/dev/null';
        open STDOUT, '>', $out;
        open STDERR, '>', $err;
        # Files of at most 4 GB (512-byte blocks): a flood of output ends the program, not the disk.
        { exec '/bin/sh', '-c', 'ulimit -f 8388608; exec "$@"', 'sh', @cmd }
        POSIX::_exit(127);
    }
    $children{$pid} = 1;
    my ($status, $timed_out) = (undef, 0);
    while (1) {
        my $w = waitpid($pid, WNOHANG);
        if ($w == $pid) { $status = $?; last }
        if (time - $t0 > $limit) { kill 'KILL', -$pid; $timed_out = 1; waitpid($pid, 0); $status = $?; last }
        sleep 0.02;
    }
    kill 'KILL', -$pid;  # whatever it left behind
    delete $children{$pid};
    my %r = (status => ($status & 127) ? 128 + ($status & 127) : $status >> 8, signal => $status & 127,
             timed_out => $timed_out, wall => time - $t0);
    trace(sprintf "%7.2fs exit %d: %s", $r{wall}, $r{status}, join ' ', @cmd);
    for my $k (qw(out err)) {
        my $f = $k eq 'out' ? $out : $err;
        my $size = -s $f // 0;
        open my $fh, '<:raw', $f;
        seek $fh, $size > 65536 ? $size - 65536 : 0, 0 if $fh;
        local $/;
        $r{$k} = $fh ? <$fh> // '' : '';
        unlink $f;
    }
    # the last line that says something (not one of mpirun's rules of dashes), and the last
    # report of a failed call on any process (the harness's "... failed: why")
    my @lines = grep { /\S/ && !/^[\s*=-]+$/ } split /\n/, $r{err};
    $r{err_last} = $lines[-1] // '';
    ($r{err_failed}) = grep { /failed:/ } reverse @lines;
    return \%r;
}

# A line a student's program or compiler wrote, to show in a verdict: printable ASCII (no terminal
# escapes, no broken UTF-8), 200 characters at most.
sub said {
    my ($s) = @_;
    ($s //= '') =~ s/[^\x20-\x7e]/?/g;
    return length $s > 200 ? substr($s, 0, 200) . '...' : $s;
}

sub why_failed {
    my ($r, $limit) = @_;
    return "not graded: the time budget ($opt{budget}s) ran out" if $r->{timed_out} && budget_left() <= 0;
    return "timed out after ${limit}s" if $r->{timed_out};
    return "crashed (signal $r->{signal})" if $r->{signal};
    return 'a CUDA call failed: ' . said($r->{err_failed}) if $r->{err_failed};
    return $r->{status} == 1 ? 'a check failed' . ($r->{err_last} ne '' ? ': ' . said($r->{err_last}) : '')
         : $r->{status} == 2 ? 'could not run: ' . said($r->{err_last}) : "exit status $r->{status}";
}

my $LAB_START = $START;  # when the lab being graded started (the builds: when they started)
sub budget_left { return $opt{budget} - (time - $LAB_START) }
# A student run's time limit: `want` seconds, or what is left of the budget (a second at least).
sub limit {
    my ($want) = @_;
    my $left = budget_left();
    return $left >= $want ? $want : $left > 1 ? $left : 1;
}
sub new_seed { return 1 + int(rand(2**31)) }
# The work of a case: the points of its --size (one number: every dimension of the lab's default
# size that is not 1; none: the default size) times its --steps.
sub case_points {
    my ($args, $default) = @_;
    my $dims = grep { $_ > 1 } @$default;
    my ($size) = $args =~ /--size[= ](\S+)/;
    my ($steps) = $args =~ /--steps[= ](\d+)/;
    return ($steps // 1) * $default->[0] * $default->[1] * $default->[2] unless $size;
    my @n = split /x/, $size;
    my $p = $steps // 1;  # the work a run does: points x steps
    $p *= $_ for @n == 1 ? (($n[0]) x ($dims || 1)) : @n;
    return $p;
}

# ---- the reference programs, this tree's, kept where no student program looks ----

# A valid results.json from the start: a grader killed outright (no signal to catch) still
# leaves one, which says grading did not finish.
write_results('make check: started; grading did not finish');
my $arch = $ENV{ARCH} // '';
# What this tree's make builds here (the GPU's architecture, from nvidia-smi), passed to every
# build: the scratch folders' builds run with a PATH too short to find nvidia-smi, and a student's
# kernels must be built as the reference was.
if ($arch eq '') {
    my $o = `make -s --no-print-directory print-archs 2>/dev/null`;
    ($arch) = $o =~ /^archs (.*\S)\s*$/m;
    $arch //= '';
}
my @make = ('make', '-s', ($arch ? "ARCH=$arch" : ()));
my @labs = labs();
@labs = grep { my $l = $_; grep { $l =~ /^\Q$_\E(_|$)/ } split /,/, $opt{labs} } @labs if $opt{labs};
die "check.pl: no labs found under $ROOT/labs\n" unless @labs;
my @sols = map { 'sol' . lab_number($_) } grep { -f "solutions/$_/kernels.cu" } @labs;
my $built = system(@make, @sols, 'build/compare-dump', 'build/common/harness/main.o') >> 8;
finish(2, "make check: the reference solutions do not build (make @sols)") if $built;
make_path("$PRIVATE/ref");
my %sha;
for my $f (@sols, 'build/compare-dump') {
    (my $name = $f) =~ s{.*/}{};
    copy($f, "$PRIVATE/ref/$name") && chmod(0755, "$PRIVATE/ref/$name") or finish(2, "make check: cannot copy $f");
    open my $fh, '<:raw', "$PRIVATE/ref/$name";
    $sha{$name} = sha256_hex(do { local $/; <$fh> });
}
# A grader program that changed on disk since it was copied is never used.
sub private_program {
    my ($name) = @_;
    open my $fh, '<:raw', "$PRIVATE/ref/$name" or finish(2, "make check: $name is gone");
    finish(2, "make check: $name changed on disk while grading: stopped") if sha256_hex(do { local $/; <$fh> }) ne $sha{$name};
    return "$PRIVATE/ref/$name";
}

# No GPU: one line, a results.json that says so, exit 2.
{
    my $prog = @sols ? private_program($sols[0]) : abs_path('./lab' . lab_number($labs[0]));
    finish(2, "make check: nothing to probe the GPU with (make all first)") unless $prog && -x $prog;
    my $probe = run($PRIVATE, 60, $prog, '--size', '16', '--reps', '1', '--quiet');
    finish(2, "make check: $probe->{err_last}") if $probe->{status} == 2 && $probe->{err} =~ /no CUDA device/;
}
say_line(sprintf "make check: %s, %d labs, time budget %ds a lab", $SUBMISSION, scalar @labs, $opt{budget});

# ---- one lab ----

sub kernels_file {
    my ($lab) = @_;
    my $n = lab_number($lab);
    for my $f ("$SUBMISSION/$lab/kernels.cu", "$SUBMISSION/labs/$lab/kernels.cu", "$SUBMISSION/$lab.cu", "$SUBMISSION/lab$n.cu") {
        return $f if -f $f;
    }
    return undef;
}

sub perf_fraction {
    my ($ratio) = @_;
    return 0 if $ratio > 10;
    return 1 if $ratio <= 1.2;
    return 1.2 / $ratio;
}

# The rows of a CSV as hashes, keyed by variant (the last row of a variant wins).
sub csv_rows {
    my ($path) = @_;
    open my $fh, '<', $path or return {};
    chomp(my $head = <$fh> // '');
    my @cols = split /,/, $head;
    my %rows;
    while (my $line = <$fh>) {
        chomp $line;
        my @f = split /,/, $line, -1;
        next unless @f == @cols;
        my %r;
        @r{@cols} = @f;
        $rows{ $r{variant} } = \%r;
    }
    return \%rows;
}

# Time `variants` of a lab at its default size: student (s) and reference (r) programs
# alternate, a short run of each and then a long one. Both student runs dump their outputs; the
# dumps of one of them, chosen at random, are checked against the reference (a 512^3 comparison
# takes a second). Returns medians by variant (ts, tr), copy roofs, Gpoints/s, whether a student
# run stopped early, and the scale its times need if they disagree with the wall clock.
my %scale;
# Two runs of the same program at the default size differed by up to 0.9 s of wall time on the
# H100 (the CPU references, the dumps, the start); on an H200 host (2026-11-26) lab 6's runs of
# about 7 s moved 0.8 s each, the student's long run up and the reference's down, 1.6 s net, and
# 1.5 s here scaled the reference solution's own times by 1.96. Wall time the long run's extra
# reps cannot account for counts only beyond this.
my $WALL_JITTER = 2.5;
sub time_abab {
    my ($lab, $l, $work, $bin, $ref, $variants, $t) = @_;
    my %a = (ts => {}, tr => {}, gpts => {}, roofs => [], abnormal => 0, scale => 1);
    my @only = map { ('--variant', $_) } @$variants;
    my ($short, $long) = (5, 5 + $opt{reps});
    my $checked = rand() < 0.5 ? $short : $long;
    my %wall;
    for my $run (['s', $short], ['r', $short], ['s', $long], ['r', $long]) {
        if (budget_left() <= 0) {
            push @{ $t->{$_}{fails} }, "not graded: the time budget ($opt{budget}s) ran out" for @$variants;
            return \%a;
        }
        my ($who, $reps) = @$run;
        my $seed = new_seed();
        my $dir = $who eq 's' ? $work : $PRIVATE;
        unlink "$dir/t.csv";
        my $prog = $who eq 's' ? $bin : private_program($ref);
        my $r = run($dir, $who eq 's' ? limit($opt{'run-limit'}) : $opt{'run-limit'}, $prog, @only, '--reps', $reps, '--seed', $seed, '--csv', "$dir/t.csv",
                    '--dump', "$dir/def-%s.raw", '--quiet');
        $wall{"$who$reps"} = $r->{wall};
        # A student run that did not end normally gives no times (its rows may be written before a
        # crash at exit, which would also skip the wall-clock check below).
        my $abnormal = $who eq 's' && ($r->{timed_out} || $r->{signal} || $r->{status} > 1);
        $a{abnormal} ||= $abnormal;
        my $rows = csv_rows("$dir/t.csv");
        # exit status 1 says a check failed (lab 7's analytic check, say): a student run whose rows
        # all say PASS besides has failed them all, for the grader cannot tell which
        if ($who eq 's' && !$abnormal && $r->{status} == 1 && !grep { $rows->{$_} && $rows->{$_}{status} ne 'PASS' } @$variants) {
            push @{ $t->{$_}{fails} }, 'default size: the program exited 1 (a check failed) though its rows said PASS' for @$variants;
            $a{abnormal} = 1;
            return \%a;
        }
        my %refs;
        for my $v (@$variants) {
            my $row = $rows->{$v};
            push @{ $a{roofs} }, $row->{copy_gbps} if $row && $row->{copy_gbps} > 0;
            if ($who eq 'r') {
                push @{ $a{tr}{$v} }, $row->{median_ms} if $row && $row->{status} eq 'PASS';
                next;
            }
            if (!$row || $row->{status} ne 'PASS' || !-f "$dir/def-$v.raw") {
                push @{ $t->{$v}{fails} }, 'default size: ' . ($row ? 'the program reported FAIL' : why_failed($r, $opt{'run-limit'}))
                    unless !$row && $a{abnormal} && @$variants > 1;  # those get runs of their own
                next;
            }
            if ($abnormal) {
                push @{ $t->{$v}{fails} }, 'default size: ' . why_failed($r, $opt{'run-limit'}) if @$variants == 1;
                next;  # several: each gets a run of its own
            }
            my $timed = sub {  # a finite, positive time (what the program wrote is not trusted)
                my ($ms, $g) = ($row->{median_ms}, $row->{gpts});
                return unless $ms =~ /^[0-9.]+(e[-+]?[0-9]+)?$/i && $ms > 0 && $ms < 1e9;
                push @{ $a{ts}{$v} }, $ms;
                $a{gpts}{$v} = $g if $g =~ /^[0-9.]+(e[-+]?[0-9]+)?$/i && $g < 1e9 && (!defined $a{gpts}{$v} || $g > $a{gpts}{$v});
            };
            if ($reps != $checked) {
                $timed->();
                next;
            }
            my $kind = $l->{kind}{$v};
            my $rf = "$PRIVATE/def-$kind.f64";
            if (!$refs{$kind}) {
                my $rr = run($PRIVATE, 600, private_program($ref), '--seed', $seed, '--variant', $v, '--dump-reference', $rf);
                finish(2, "make check: the reference of $lab failed: $rr->{err_last}") if $rr->{status};
                $refs{$kind} = 1;
            }
            my $c = run($PRIVATE, 600, private_program('compare-dump'), "$dir/def-$v.raw", $rf, @{ $l->{size} }, @{ $l->{tolerance} });
            chomp(my $res = $c->{out});
            if ($c->{status}) {
                push @{ $t->{$v}{fails} }, "default size: output wrong ($res)";
            } else {
                $timed->();
            }
        }
        unlink glob("$dir/def-*.raw"), glob("$PRIVATE/def-*.f64");
    }
    # The reported times must agree with the wall clock: the long run's extra reps cost the
    # student's program, beyond what they cost the reference's (the same harness, the same
    # fields), the extra time of its kernels.
    my @timed = grep { $a{ts}{$_} && $a{tr}{$_} } @$variants;
    if (@timed && !$a{abnormal}) {
        my ($sum_s, $sum_r) = (0, 0);
        $sum_s += $a{ts}{$_}[-1], $sum_r += $a{tr}{$_}[-1] for @timed;
        my $extra = ($wall{"s$long"} - $wall{"s$short"}) - ($wall{"r$long"} - $wall{"r$short"});
        my $implied = $sum_r + 1e3 * ($extra - $WALL_JITTER) / ($long - $short);
        if ($implied > 1.25 * $sum_s + 0.1 * $sum_r + 1) {
            $a{scale} = $implied / $sum_s;
            push @{ $t->{$_}{notes} }, sprintf("the times the program reported (%.3f ms in all) disagree with the wall clock (%.3f ms): scaled by %.2f",
                                               $sum_s, $implied, $a{scale}) for @timed;
        }
    }
    return \%a;
}

# Build every lab's kernels file at once (the compiler is the slow part), each against the
# pristine harness and definition in its own scratch folder; vet it before and after.
trace('building the kernels files');
$LAB_START = time;
system(@make, map { "build/labs/$_/lab.o" } @labs) == 0 or finish(2, "make check: the lab definitions do not build");
my (%work, %verdict, %builder);
for my $lab (@labs) {
    my $n = lab_number($lab);
    my $student = kernels_file($lab);
    if (!$student) {
        $verdict{$lab} = "no kernels file submitted for $lab";
        next;
    }
    my $work = $work{$lab} = tempdir("student-$lab-XXXXXX", TMPDIR => 1, CLEANUP => !$ENV{CHECK_KEEP});
    system('cp', '-r', "$ROOT/common", "$ROOT/Makefile", $work) == 0 or finish(2, "make check: cannot copy the harness");
    make_path("$work/labs/$lab", "$work/build/common/harness", "$work/build/common/stencils", "$work/build/labs/$lab");
    # the course's files of the lab (lab 9: its build flags, the calls its kernels file may make)
    copy("$ROOT/labs/$lab/$_", "$work/labs/$lab/$_") for grep { -f "$ROOT/labs/$lab/$_" } qw(lab.c build.mk symbols.allow);
    # the targets' stamp first: the objects copied after it are newer, and make keeps them
    copy($_, "$work/$_") for "build/gencode.txt", glob("build/common/*/*.o"), "build/version.o", "build/version.c",
        "build/labs/$lab/lab.o";
    copy($student, "$work/labs/$lab/kernels.cu");
    my $pid = fork // die "check.pl: fork: $!\n";
    if (!$pid) {
        $Vet::TIME_LIMIT = limit(300);  # each of Vet's compile steps, within the budget
        my $why = vet_source("$work/labs/$lab/kernels.cu", "$work/labs/$lab", "$work/common");
        if (!$why) {
            my $r = run($work, limit(900), 'make', '-s', ($arch ? "ARCH=$arch" : ()), 'COMMIT=student', build_vars(), "lab$n");
            $why = "it does not build: " . said((grep { /error/i } split /\n/, $r->{err})[0] // $r->{err_last}) if $r->{status};
        }
        $Vet::TIME_LIMIT = limit(300);
        $why //= vet_object("$work/build/labs/$lab/kernels.o", "$work/lab$n", "$work/build/labs/$lab/lab.o",
                            grep { -f } glob("$work/build/common/*/*.o"));
        open my $fh, '>', "$PRIVATE/verdict-$lab" or POSIX::_exit(1);
        print $fh $why // '';
        close $fh;
        POSIX::_exit(0);
    }
    $builder{$pid} = $lab;
}
while (%builder) {
    my $pid = waitpid(-1, 0);
    last if $pid < 0;
    my $lab = delete $builder{$pid} // next;
    open my $fh, '<', "$PRIVATE/verdict-$lab";
    $verdict{$lab} = $fh ? do { local $/; <$fh> } : "the build did not finish";
}

trace('built and vetted');
my $number = 0;
my $all_correct = 1;
for my $lab (@labs) {
    $number++;
    $LAB_START = time;
    my $n = lab_number($lab);
    my $ref = -f "$PRIVATE/ref/sol$n" ? "sol$n" : undef;
    my $l = listing($ref ? private_program($ref) : "./lab$n");
    my @variants = @{ $l->{variants} };
    my %t;  # variant -> { fails => [...], notes => [...], owed => cases it was run at, refused => why }
    $t{$_} = { fails => [], notes => [], owed => 0 } for @variants;
    my $fail_all = sub { my ($why) = @_; push @{ $t{$_}{fails} }, $why for @variants };
    my $work = $work{$lab};
    my $bin;
    if ($verdict{$lab}) {
        my $why = $verdict{$lab} =~ /^no kernels file/ ? $verdict{$lab} : "refused: " . said($verdict{$lab});
        $fail_all->($why);
        say_line("$lab: $why");
    } else {
        $bin = "$work/lab$n";
    }

    my @phase_t = (time);  # where a lab's grading time goes: cases, sanitizers, timing
    # Correctness at the graded cases: the student's dumps against the pristine CPU reference.
    # Without a reference solution (a student's release tree), the references come from the program
    # built here: --dump-reference and --list run only the pristine definition's host code.
    my $refprog = sub { $ref ? private_program($ref) : $bin };
    my @cases = grep { $_->{kinds}{grade} } @{ $l->{cases} };
    for my $gc ($bin ? @cases : ()) {
        if (budget_left() <= 0) { $fail_all->("not graded: the time budget ran out"); last }
        my $case = $gc->{args};
        my @args = shell_words($case);
        my @launch = mpi_launch(case_np($gc));  # lab 9's cases of several processes: mpirun
        my $cl = listing([ @launch, $refprog->() ], @args);
        # A variant that failed once has lost its correctness points: it is not run again.
        my @owed = grep { !$cl->{refuses}{$_} && !@{ $t{$_}{fails} } } @variants;
        $t{$_}{refused} //= $cl->{refuses}{$_} for grep { $cl->{refuses}{$_} } @variants;
        $t{$_}{owed}++ for @owed;
        if (case_np($gc) > 1) {  # lab 9: what the variant does across processes
            $t{$_}{owed_np}++ for @owed;
            $t{$_}{refused_np} //= $cl->{refuses}{$_} for grep { $cl->{refuses}{$_} } @variants;
        }
        next unless @owed;
        my $seed = new_seed();
        my @only = map { ('--variant', $_) } @owed;
        my $r = run($work, limit($opt{'run-limit'}), @launch, $bin, @args, @only, '--reps', '1', '--seed', $seed, '--dump', "$work/out-%s.raw", '--quiet');
        my %refs;
        for my $v (@owed) {
            my $dump = "$work/out-$v.raw";
            if (!-f $dump && @owed > 1) {
                # No output: wrong, or never run because another variant stopped the program. Alone,
                # it gets its own chance.
                $r = run($work, limit($opt{'run-limit'}), @launch, $bin, @args, '--variant', $v, '--reps', '1', '--seed', $seed, '--dump', $dump, '--quiet');
            }
            if (!-f $dump) {
                push @{ $t{$v}{fails} }, "$case: " . why_failed($r, $opt{'run-limit'});
                next;
            }
            my $kind = $cl->{kind}{$v};
            my $rf = "$PRIVATE/ref-$kind.f64";
            if (!$refs{$kind}) {
                my $rr = run($PRIVATE, 600, $refprog->(), @args, '--seed', $seed, '--variant', $v, '--dump-reference', $rf);
                finish(2, "make check: the reference of $lab at '$case' failed: $rr->{err_last}") if $rr->{status};
                $refs{$kind} = 1;
            }
            my $c = run($PRIVATE, 600, private_program('compare-dump'), $dump, $rf, @{ $cl->{size} }, @{ $cl->{tolerance} });
            chomp(my $res = $c->{out});
            push @{ $t{$v}{fails} }, "$case: output wrong (relative L2 error, bad points, NaN, points: $res)" if $c->{status};
            unlink $dump;
        }
        unlink glob("$PRIVATE/ref-*.f64"), glob("$work/out-*.raw");
    }

    push @phase_t, time;
    # compute-sanitizer on the lab's first sanitize case, and on one of its graded cases of one
    # process chosen here at random (a file that races only where lab.c does not look is seen
    # too): a race or a bad access costs correctness.
    my ($first_san) = map { $_->{args} } grep { $_->{kinds}{sanitize} } @{ $l->{cases} };
    my @small = grep { case_np($_) == 1 && case_points($_->{args}, $l->{size}) <= 4e6 } @cases;
    my $second = @small ? $small[ int rand @small ]{args} : undef;
    for my $san ($first_san // (), ($first_san && $second && $second ne $first_san) ? $second : ()) {
    next unless $bin && $opt{sanitize};
    # the variants the reference runs at this case: the others are not asked for (one that the
    # student's program refuses where the reference does not is a failure below)
    my $sl = listing([ $refprog->() ], shell_words($san)) // { refuses => {} };
    my @at = grep { !$sl->{refuses}{$_} } @variants;
    if (budget_left() <= 0) {  # unchecked is not clean
        push @{ $t{$_}{fails} }, "not graded: the time budget ($opt{budget}s) ran out" for grep { !@{ $t{$_}{fails} } } @at;
        next;
    }
    {
        for my $tool (qw(memcheck racecheck)) {
            my @san = ('compute-sanitizer', '--tool', $tool, '--error-exitcode', '99');
            my @clean = grep { !@{ $t{$_}{fails} } } @at;
            last unless @clean;
            my $r = run($work, limit(2 * $opt{'run-limit'}), @san, $bin, shell_words($san), (map { ('--variant', $_) } @clean), '--reps', '1', '--quiet');
            next if $r->{status} == 0 && $r->{out} =~ /(ERROR|RACECHECK) SUMMARY: 0 (errors|hazards)/;
            for my $v (@clean) {  # which one
                if (budget_left() <= 0) {  # unchecked is not clean
                    push @{ $t{$v}{fails} }, "not graded: the time budget ($opt{budget}s) ran out";
                    next;
                }
                my $r1 = run($work, limit(2 * $opt{'run-limit'}), @san, $bin, shell_words($san), '--variant', $v, '--reps', '1', '--quiet');
                next if $r1->{status} == 0;  # clean
                my ($summary) = $r1->{out} =~ /((?:ERROR|RACECHECK) SUMMARY: \d+ \w+)/;
                push @{ $t{$v}{fails} }, "$tool at '$san': " . ($summary // why_failed($r1, 2 * $opt{'run-limit'}));
            }
        }
    }
    }

    push @phase_t, time;
    # Timing at the default size, student and reference alternating (ABAB), and correctness there.
    my (%ts, %tr, %gpts, @roofs);
    my ($contended, $scale) = (0, 1);
    if ($bin && $ref && budget_left() <= 0) {  # never timed nor checked at the default size: not clean
        push @{ $t{$_}{fails} }, "not graded: the time budget ($opt{budget}s) ran out"
            for grep { !$l->{refuses}{$_} && !@{ $t{$_}{fails} } } @variants;
    } elsif ($bin && $ref) {
        my @todo = grep { !$l->{refuses}{$_} && !@{ $t{$_}{fails} } } @variants;
        $t{$_}{owed}++ for @todo;
        my $abab = @todo ? time_abab($lab, $l, $work, $bin, $ref, \@todo, \%t) : {ts => {}, tr => {}, gpts => {}, roofs => [], scale => 1};
        # A run that stopped early: every variant it did not report gets runs of its own.
        if ($abab->{abnormal}) {
            for my $v (grep { !$abab->{ts}{$_} && !@{ $t{$_}{fails} } } @todo) {
                my $one = time_abab($lab, $l, $work, $bin, $ref, [$v], \%t);
                $abab->{ts}{$v} = $one->{ts}{$v} if $one->{ts}{$v};
                $abab->{tr}{$v} = $one->{tr}{$v} if $one->{tr}{$v};
                $abab->{gpts}{$v} = $one->{gpts}{$v} if $one->{gpts}{$v};
                push @{ $abab->{roofs} }, @{ $one->{roofs} };
                $scale{"$lab $v"} = $one->{scale};
            }
        }
        %ts = %{ $abab->{ts} };
        %tr = %{ $abab->{tr} };
        %gpts = %{ $abab->{gpts} };
        @roofs = @{ $abab->{roofs} };
        $scale = $abab->{scale};
        if (@roofs) {
            my ($lo, $hi) = (sort { $a <=> $b } @roofs)[0, -1];
            $contended = $hi > 1.10 * $lo;
            push @{ $t{$_}{notes} }, sprintf("copy roofs %.0f-%.0f GB/s: the GPU was shared, performance not graded", $lo, $hi)
                for $contended ? @variants : ();
        }
    }

    push @phase_t, time;
    # on the terminal only: results.json's output keeps its room for the grades
    printf "%s: graded in %ds (cases %ds, sanitizers %ds, timing %ds)\n", $lab, $phase_t[3] - $phase_t[0],
        map { $phase_t[$_ + 1] - $phase_t[$_] } 0 .. 2 if $bin;
    # Points.
    for my $v (@variants) {
        my $x = $t{$v};
        $x->{refused} //= $l->{refuses}{$v};
        my $correct = $bin && !@{ $x->{fails} };
        my ($pts, $max, @out) = (0, $CORRECT_PTS + $PERF_PTS);
        # The reference refuses every graded case and the default size on this GPU (its shared
        # memory, say): nothing to check the variant against, no points to give or to lose.
        # not gradable: the reference refused every graded case and the default size, and nothing
        # of the variant failed (a variant cut by the budget before any case is not this)
        my $gradable = !$bin || $x->{owed} || !$x->{refused} || !$l->{refuses}{$v} || @{ $x->{fails} };
        # a variant no case of several processes exercised, where the lab has such cases (lab 9's
        # NCCL variants on a machine of one GPU): what it does across processes was never seen
        my $across = !$bin || $x->{owed_np} || !$x->{refused_np};
        if (!$gradable) {
            ($correct, $max) = (1, 0);
            push @out, 'not gradable on this GPU: the reference refuses every case (' . said($x->{refused}) . ')';
        } elsif (!$across && !@{ $x->{fails} }) {
            ($correct, $max) = (1, 0);
            push @out, 'not graded here: its cases of several processes were refused on this machine (' . said($x->{refused_np}) . ')';
        } elsif ($correct) {
            $pts = $CORRECT_PTS;
            push @out, 'correct at ' . (@cases + 1) . ' cases' . ($first_san && $opt{sanitize} ? ', memcheck and racecheck clean' : '');
            if ($ts{$v} && $tr{$v} && !$contended) {
                my ($t_s) = sort { $a <=> $b } @{ $ts{$v} };
                my ($t_r) = sort { $a <=> $b } @{ $tr{$v} };
                $t_s *= $scale{"$lab $v"} // $scale;
                my $ratio = $t_s / $t_r;
                my $perf = $PERF_PTS * perf_fraction($ratio);
                $pts += $perf;
                push @out, sprintf("median %.4f ms, reference %.4f ms: %.2f x the reference, %.2f of %d performance points", $t_s, $t_r, $ratio, $perf, $PERF_PTS);
            } elsif ($contended) {
                $max = $CORRECT_PTS;
            } elsif (!$l->{refuses}{$v}) {
                push @out, 'not timed: ' . ($ref ? 'the reference did not run' : 'no reference solution in this tree');
                $max = $CORRECT_PTS unless $ref;
            } else {
                push @out, "not timed: the reference refuses the default size ($l->{refuses}{$v})";
                $max = $CORRECT_PTS;
            }
        } else {
            $all_correct = 0 unless $l->{optional}{$v};
            my @f = @{ $x->{fails} };
            push @out, 'FAIL: ' . ($f[0] // 'not graded'), (@f > 1 ? ('(' . (@f - 1) . ' more: ' . join('; ', @f[1 .. ($#f < 3 ? $#f : 3)]) . ')') : ());
        }
        push @out, @{ $x->{notes} };
        # A "going further" variant (the lab definition's VARIANT_OPTIONAL): extra credit, its
        # points on top of a maximum that does not count it; failing it costs nothing.
        if ($l->{optional}{$v}) {
            push @out, "optional (going further): extra credit, out of a maximum of 0";
            $max = 0;
        }
        push @tests, { name => "$lab $v", number => "$number." . (1 + (grep { $variants[$_] eq $v } 0 .. $#variants)[0]),
                       score => 0 + sprintf("%.2f", $pts), max_score => $max,
                       status => $correct ? 'passed' : 'failed', output => join("\n", @out) };
        say_line(sprintf "%-22s %-16s %5.2f / %2d  %s", $lab, $v, $pts, $max, $out[0]);
    }
    my ($best) = sort { $b <=> $a } values %gpts;
    push @leaderboard, { name => "lab $n Gpoints/s", value => 0 + sprintf("%.1f", $best), order => 'desc' } if defined $best;
    write_results('grading: ' . ($number < @labs ? "lab $number of " . scalar @labs . ' done' : 'done'));
    remove_tree($work) if $work && !$ENV{CHECK_KEEP};
}

my $score = 0;
my $max = 0;
$score += $_->{score}, $max += $_->{max_score} for @tests;
say_line(sprintf "score %.1f of %d; %s written", $score, $max, $RESULTS);
finish($all_correct ? 0 : 1);
