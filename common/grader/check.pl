#!/usr/bin/env perl
# SPDX-License-Identifier: MIT
# make check: grade students' kernels files against the reference solutions, on this GPU.
#   perl common/grader/check.pl [--submission DIR] [--results FILE] [--budget SECONDS] [--labs a,b]
# DIR holds a kernels file per lab, as DIR/labN_name/kernels.cu (a student's labs/ folder),
# DIR/labs/labN_name/kernels.cu (a whole tree) or DIR/labN_name.cu; default: this tree's labs/.
#
# The grader decides, in its own process, with code the student does not control (the course
# guide, "Grading", says what it trusts and why):
# - Each kernels file is built against this tree's common/ and the lab's definition, in a
#   scratch folder that holds no solution and no reference program, after common/grader/Vet.pm has
#   checked what it includes, defines and calls; the program is linked without the lab's CPU
#   reference (STENCIL_GRADING). A refused or broken file costs its lab only.
# - Every student program runs in common/harness/sandbox.c: Landlock lets it write only in its
#   scratch folder and read only there and in the system's folders; seccomp forbids new programs
#   and processes and signals to others. It runs --serve (common/harness/serve.c): it checks and
#   times nothing, it runs the seeds it is given and answers with digests of what came out.
# - Correct: at every case of the lab's definition marked 'grade', the output the student's
#   program dumps matches the CPU reference of the pristine definition (build/compare-dump, the
#   harness's rule); compute-sanitizer memcheck and racecheck find nothing at the lab's first
#   sanitize case and at a graded case chosen here.
# - Fast, at the default size: the reference's program, the student's, the reference's again,
#   never two at once, each answering requests of runs on fresh seeds that this grader draws and
#   times with its own clock; the harness's own part of a run (the reference's null runs) is
#   taken off. After the student's runs, one of each variant's timed runs, chosen then, is run
#   again and dumped: its digest must be the one it answered when timed, its output must match
#   the CPU reference, and every timed run must have left the inputs as the reference made them.
#   If the reference's two turns disagree by more than 10%, the GPU was shared: not graded.
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
use Course qw(labs skipped_labs build_vars lab_number listing shell_words case_np mpi_launch %MPI_ENV);
use Vet qw(vet_source vet_object);

my ($CORRECT_PTS, $PERF_PTS) = (7, 3);
# budget: each lab's time (its builds, runs, sanitizers, timing): a hang costs its own lab only
my %opt = (budget => $ENV{CHECK_BUDGET} // 300, results => $ENV{CHECK_RESULTS} // 'results.json',
           'run-limit' => $ENV{CHECK_TIME_LIMIT} // 180, 'batch-time' => 0.25, sanitize => 1);
# batch-time: seconds of the reference's work in each timed request (two a variant and turn)
GetOptions(\%opt, 'submission=s', 'results=s', 'budget=i', 'labs=s', 'run-limit=i', 'batch-time=f', 'sanitize!')
    or die "usage: check.pl [--submission DIR] [--results FILE] [--budget S] [--labs a,b] [--run-limit S] [--batch-time S]\n";
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
$SIG{PIPE} = 'IGNORE';  # a --serve program that died: its request pipe says so with an error, not a signal
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

# What a program of the grading may touch (common/harness/sandbox.c's Landlock part): write only
# beneath its folder, /dev (the GPU, /dev/null, shared memory) and its own /proc/self (the CUDA
# runtime names its threads there); read only beneath those, the system's folders and a few
# files of /proc: not this grader's private folder, another lab's scratch folder, nor another
# process's /proc (as the same user it could read and write the grader's memory there).
my @READ_DIRS = grep { -e } qw(/usr /lib /lib32 /lib64 /bin /sbin /etc /opt /sys /run /var/lib /var/run /proc/driver /proc/sys
                               /proc/cpuinfo /proc/meminfo /proc/stat /proc/devices /proc/modules /proc/filesystems /proc/version);
push @READ_DIRS, grep { defined && -d } map { my $p = `command -v $_ 2>/dev/null` =~ s/\s+$//r; $p =~ m{^/} ? dirname(dirname(abs_path($p))) : undef } qw(nvcc mpirun);
sub sandbox_env {
    my ($dir) = @_;
    return (STENCIL_SANDBOX_WRITE => "$dir:/dev:/proc/self", STENCIL_SANDBOX_READ => join(':', @READ_DIRS), TMPDIR => $dir);
}

# A run's stderr summed up: the last line that says something (not one of mpirun's rules of
# dashes) as err_last, and the last report of a failed call on any process (the harness's
# "... failed: why") as err_failed.
sub last_words {
    my ($r) = @_;
    my @lines = grep { /\S/ && !/^[\s*=-]+$/ } split /\n/, $r->{err};
    $r->{err_last} = $lines[-1] // '';
    ($r->{err_failed}) = grep { /failed:/ } reverse @lines;
    return $r;
}

# A file of --serve requests for a program in `dir`: "dump VARIANT SEED OUT" for each variant,
# OUT being `out` with %s for the variant ("-": nothing written). Returns its path.
sub dump_requests {
    my ($dir, $seed, $out, @variants) = @_;
    open my $fh, '>', "$dir/requests" or finish(2, "make check: cannot write in $dir");
    printf $fh "dump %s %s %s\n", $_, $seed, $out =~ /%s/ ? sprintf($out, $_) : $out for @variants;
    close $fh;
    return "$dir/requests";
}

# run(dir, limit, cmd...) -> {status, signal, timed_out, wall, out, err, err_last}; the program
# reads $RUN_STDIN (default /dev/null), in the sandbox of `dir` unless $RUN_TRUSTED or `dir` is this
# grader's private folder (its own programs: the references, compare-dump).
our ($RUN_STDIN, $RUN_TRUSTED);
sub run {
    my ($dir, $limit, @cmd) = @_;
    my ($out, $err) = ("$dir/.stdout", "$dir/.stderr");
    my $t0 = time;
    my $pid = fork // die "check.pl: fork: $!\n";
    if (!$pid) {
        POSIX::setsid();
        chdir $dir or POSIX::_exit(126);
        %ENV = (%ENV_MIN, ($RUN_TRUSTED || $dir eq $PRIVATE ? () : sandbox_env($dir)), HOME => $dir);
        open STDIN, '<', $RUN_STDIN // '/dev/null';
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
    return last_words(\%r);
}

# A line a student's program or compiler wrote, to show in a verdict: printable ASCII (no terminal
# escapes, no broken UTF-8), 200 characters at most.
sub said {
    my ($s) = @_;
    ($s //= '') =~ s/[^\x20-\x7e]/?/g;
    return length $s > 200 ? substr($s, 0, 200) . '...' : $s;
}

# ---- a program in --serve mode: requests down a pipe, each answer timed by this process ----

# serve_start(dir, limit, cmd...) -> session, or undef with $serve_error set (why it did not start)
our $serve_error;
sub serve_start {
    my ($dir, $limit, @cmd) = @_;
    pipe(my $req_r, my $req_w) && pipe(my $ans_r, my $ans_w) or die "check.pl: pipe: $!\n";
    my $pid = fork // die "check.pl: fork: $!\n";
    if (!$pid) {
        POSIX::setsid();
        chdir $dir or POSIX::_exit(126);
        %ENV = (%ENV_MIN, ($dir eq $PRIVATE ? () : sandbox_env($dir)), HOME => $dir);
        close $req_w;
        close $ans_r;
        open STDIN, '<&', $req_r;
        open STDOUT, '>&', $ans_w;
        open STDERR, '>', "$dir/.serve-stderr";
        { exec '/bin/sh', '-c', 'ulimit -f 8388608; exec "$@"', 'sh', @cmd }
        POSIX::_exit(127);
    }
    close $req_r;
    close $ans_w;
    $children{$pid} = 1;
    my $s = { pid => $pid, w => $req_w, r => $ans_r, buf => '', dir => $dir, cmd => "@cmd" };
    my $ready = serve_read($s, $limit);
    return $s if defined $ready && $ready eq 'ready';
    $serve_error = serve_stop($s);
    return undef;
}

# The next answer line (ok ..., error ..., ready), or undef at the end of the output or the limit.
# Other lines (what a kernels file printed) are skipped.
sub serve_read {
    my ($s, $limit) = @_;
    my $t0 = time;
    while (1) {
        while ($s->{buf} =~ s/^([^\n]*)\n//) {
            my $line = $1;
            return $line if $line =~ /^(ok|error|ready)\b/;
        }
        substr($s->{buf}, 0, length($s->{buf}) - 65536) = '' if length $s->{buf} > 65536;  # a flood without newlines
        my $left = $limit - (time - $t0);
        if ($left <= 0) { $s->{timed_out} = 1; return undef }
        my $rin = '';
        vec($rin, fileno($s->{r}), 1) = 1;
        next unless select(my $rout = $rin, undef, undef, $left) > 0;
        my $got = sysread($s->{r}, my $chunk, 1 << 16);
        return undef unless $got;
        $s->{buf} .= $chunk;
    }
}

# serve_ask(session, request, limit) -> (answer or undef, seconds from request to answer)
sub serve_ask {
    my ($s, $request, $limit) = @_;
    my $t0 = time;
    return (undef, 0) unless syswrite($s->{w}, "$request\n");
    my $answer = serve_read($s, $limit);
    return ($answer, time - $t0);
}

# End the program (its input closed, then killed); why it failed, if it did: a line like run()'s.
sub serve_stop {
    my ($s) = @_;
    close $s->{w};
    my $t0 = time;
    my $w = 0;
    while (($w = waitpid($s->{pid}, WNOHANG)) == 0 && time - $t0 < 10) { sleep 0.02 }
    my $status = $w == $s->{pid} ? $? : do { kill 'KILL', -$s->{pid}; waitpid($s->{pid}, 0); $s->{timed_out} = 1; $? };
    kill 'KILL', -$s->{pid};
    delete $children{ $s->{pid} };
    my %r = (status => ($status & 127) ? 128 + ($status & 127) : $status >> 8, signal => $status & 127,
             timed_out => $s->{timed_out} // 0, err => '');
    if (open my $fh, '<:raw', "$s->{dir}/.serve-stderr") {
        seek $fh, -65536, 2 if (-s $fh // 0) > 65536;
        local $/;
        $r{err} = <$fh> // '';
    }
    unlink "$s->{dir}/.serve-stderr";
    trace(sprintf "serve exit %d: %s", $r{status}, $s->{cmd});
    return last_words(\%r);
}

sub why_failed {
    my ($r, $limit) = @_;
    return "not graded: the time budget ($opt{budget}s) ran out" if $r->{timed_out} && budget_left() <= 0;
    return "timed out after ${limit}s" if $r->{timed_out};
    return "crashed (signal $r->{signal})" if $r->{signal};
    return 'a CUDA call failed: ' . said($r->{err_failed}) if $r->{err_failed};
    return $r->{status} == 1 ? 'it failed' . ($r->{err_last} ne '' ? ': ' . said($r->{err_last}) : '')
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
# A lab this machine cannot build (lab 9 without MPI or NCCL) that the student submitted: said,
# in the log and as a test of 0 points of 0, so that results.json does not drop it silently.
my %skipped = skipped_labs();
finish(2, "make check: " . join('; ', map { "$_: not graded here: $skipped{$_}" } sort keys %skipped))
    if !@labs && %skipped && $opt{labs};
die "check.pl: no labs found under $ROOT/labs\n" unless @labs;
for my $lab (sort keys %skipped) {
    next if $opt{labs} && !grep { $lab =~ /^\Q$_\E(_|$)/ } split /,/, $opt{labs};
    next unless kernels_file($lab);
    say_line("$lab: not graded here: $skipped{$lab}");
    push @tests, { name => "$lab (all variants)", number => lab_number($lab) . '.0', score => 0, max_score => 0,
                   status => 'passed', output => "not graded here: this machine cannot build the lab ($skipped{$lab})" };
}
# The reference programs: built from solutions/ here, or prebuilt without their source (a
# student's release tree: ./solN, make release).
my @sols = map { 'sol' . lab_number($_) } grep { -f "solutions/$_/kernels.cu" || -x 'sol' . lab_number($_) } @labs;
my @from_source = map { 'sol' . lab_number($_) } grep { -f "solutions/$_/kernels.cu" } @labs;
my $built = system(@make, @from_source, 'build/compare-dump', 'build/common/harness/main.o') >> 8;
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
    # in the sandbox that students' programs get: it must leave the GPU usable
    make_path("$PRIVATE/probe");
    my $probe = run("$PRIVATE/probe", 60, $prog, '--size', '16', '--reps', '1', '--quiet');
    finish(2, "make check: $probe->{err_last}") if $probe->{status} == 2 && $probe->{err} =~ /no CUDA device/;
    finish(2, "make check: the sandbox for students' programs does not work here: " . said($probe->{err_last} || why_failed($probe, 60)))
        if $probe->{status};
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

# Seeds for runs, from the operating system, drawn when they are sent: nothing in this process's
# memory says what the next ones will be.
sub fresh_seeds {
    my ($n) = @_;
    open my $fh, '<:raw', '/dev/urandom' or finish(2, "make check: /dev/urandom: $!");
    read($fh, my $bytes, 8 * $n) == 8 * $n or finish(2, 'make check: /dev/urandom gave too little');
    return map { 1 + ($_ % 9007199254740991) } unpack('Q<*', $bytes);  # 1 .. 2^53 - 1: exact in a double too
}

# The digests of an answer "ok OUT:IN ..." -> ([out, in], ...), or () if it is not one of `runs` pairs.
sub digests {
    my ($answer, $runs) = @_;
    return () unless defined $answer && $answer =~ /^ok((?: [0-9a-f]{16}:[0-9a-f]{16})+)$/;
    my @d = map { [ split /:/ ] } split ' ', $1;
    return @d == $runs ? @d : ();
}

# Timing at the default size (the design is in the header, and in the course guide, "Grading"):
# the reference's program (turn 1), the student's, the reference's (turn 2), one at a time.
# Returns {ts, tr => {variant => ms a run}, gpts => {variant => Gpoint-steps/s}, contended};
# failures and notes go into $t. The student's turn also checks the variants' outputs there.
sub time_served {
    my ($lab, $l, $work, $bin, $ref, $variants, $t) = @_;
    my %a = (ts => {}, tr => {}, gpts => {}, contended => 0);
    my $fail = sub { my ($v, $why) = @_; push @{ $t->{$v}{fails} }, "default size: $why" unless @{ $t->{$v}{fails} } };
    my (%runs, %in_digest, %null_ms, %tref, %seeds);  # runs a request; inputs' digest by seed; ...
    my $ref_failed = sub { finish(2, "make check: the reference of $lab failed at the default size: " . ($_[0] // 'no answer')) };

    my $reference_turn = sub {
        my ($turn) = @_;
        my $s = serve_start($PRIVATE, $opt{'run-limit'}, private_program($ref), '--serve', '--quiet')
            or finish(2, "make check: the reference of $lab does not start --serve: " . why_failed($serve_error, $opt{'run-limit'}));
        for my $v (@$variants) {
            # a short request first (the first launches load the kernels); in the first turn it
            # says how many runs make batch-time seconds
            my ($ans, $sec) = serve_ask($s, "run $v " . join(' ', fresh_seeds(2)), $opt{'run-limit'});
            $ref_failed->($ans) unless digests($ans, 2);
            my $n = int($opt{'batch-time'} / ($sec / 2));
            $runs{$v} //= $n < 2 ? 2 : $n > 400 ? 400 : $n;
            for (1, 2) {
                my ($ans, $sec) = serve_ask($s, "run $v " . join(' ', fresh_seeds($runs{$v})), $opt{'run-limit'});
                $ref_failed->($ans) unless digests($ans, $runs{$v});
                push @{ $tref{$turn}{$v} }, 1e3 * $sec / $runs{$v};
            }
        }
        # The student's seeds, drawn now: two warm-up runs and two requests a variant. The null
        # runs (the harness's part of a run) of turn 1 are theirs: the digests of their inputs are
        # what every student run must leave.
        if ($turn == 1) {
            $seeds{$_} = [ map { [ fresh_seeds($_) ] } 2, $runs{$_}, $runs{$_} ] for @$variants;
        }
        my @null = $turn == 1 ? map { @$_ } map { @{ $seeds{$_} } } @$variants : fresh_seeds(200);
        while (my @chunk = splice @null, 0, 400) {
            my ($ans, $sec) = serve_ask($s, 'null ' . join(' ', @chunk), $opt{'run-limit'});
            my @d = digests($ans, scalar @chunk) or $ref_failed->($ans);
            $in_digest{ $chunk[$_] } = $d[$_][1] for 0 .. $#chunk;
            push @{ $null_ms{$turn} }, 1e3 * $sec / @chunk;
        }
        serve_stop($s);
    };
    $reference_turn->(1);

    # The student's turn. A variant that stops the program fails; the others go on in a new one.
    my (%committed, %ms);  # seed -> [out, in] as answered in a timed run; variant -> [ms, ms]
    my @todo = @$variants;
    while (@todo) {
        if (budget_left() <= 0) {
            $fail->($_, "not graded: the time budget ($opt{budget}s) ran out") for @todo;
            last;
        }
        my $s = serve_start($work, limit($opt{'run-limit'}), $bin, '--serve', '--quiet');
        if (!$s) {
            $fail->($_, why_failed($serve_error, $opt{'run-limit'})) for @todo;
            last;
        }
        while (my $v = shift @todo) {
            my $ok = 1;
            for my $k (0, 1, 2) {
                my @sd = @{ $seeds{$v}[$k] };
                my ($ans, $sec) = serve_ask($s, "run $v @sd", limit($opt{'run-limit'}));
                my @d = digests($ans, scalar @sd);
                if (!@d) {
                    my $why = defined $ans ? "the program answered '" . said($ans) . "'" : undef;
                    my $r = serve_stop($s);
                    $fail->($v, $why // why_failed($r, $opt{'run-limit'}));
                    ($s, $ok) = (undef, 0);
                    last;
                }
                $committed{ $sd[$_] } = $d[$_] for 0 .. $#sd;
                push @{ $ms{$v} }, 1e3 * $sec / @sd if $k;
            }
            last unless $s;  # the rest in a new program
            # Which timed run is seen in full, chosen now that they have run.
            my @timed = (@{ $seeds{$v}[1] }, @{ $seeds{$v}[2] });
            my $seed = $timed[ int rand @timed ];
            unlink "$work/def-$v.raw";
            my ($ans) = serve_ask($s, "dump $v $seed def-$v.raw", limit($opt{'run-limit'}));
            my ($d) = digests($ans, 1);
            if (!$d) {
                my $r = serve_stop($s);
                $fail->($v, 'its checked run: ' . (defined $ans ? "the program answered '" . said($ans) . "'" : why_failed($r, $opt{'run-limit'})));
                $s = undef;
                last;
            }
            my @changed = grep { $committed{$_}[1] ne $in_digest{$_} } map { @$_ } @{ $seeds{$v} };
            if (@changed) {
                $fail->($v, sprintf "%d of its runs changed their inputs", scalar @changed);
            } elsif ($d->[0] ne $committed{$seed}[0]) {
                $fail->($v, 'a timed run and the same run again gave different outputs (a digest differs): '
                    . 'the kernels must compute the same answer from the same inputs every time');
            } else {
                my $rf = "$PRIVATE/def.f64";
                my $rr = run($PRIVATE, 600, private_program($ref), '--seed', $seed, '--variant', $v, '--dump-reference', $rf);
                finish(2, "make check: the reference of $lab failed: $rr->{err_last}") if $rr->{status};
                my $c = run($PRIVATE, 600, private_program('compare-dump'), "$work/def-$v.raw", $rf, @{ $l->{size} }, @{ $l->{tolerance} });
                chomp(my $res = $c->{out});
                unlink $rf;
                $fail->($v, "output wrong (relative L2 error, bad points, NaN, points: $res)") if $c->{status};
            }
            unlink "$work/def-$v.raw";
        }
        serve_stop($s) if $s;
    }

    $reference_turn->(2);
    # The times: the fastest request of each, less the harness's part of a run (the fastest null
    # request of the reference); the reference's two turns must agree.
    my $min = sub { (sort { $a <=> $b } @_)[0] };
    my $null = $min->(map { @$_ } values %null_ms);
    my ($sum1, $sum2) = (0, 0);
    for my $v (@$variants) {
        my ($r1, $r2) = map { $min->(@{ $tref{$_}{$v} }) } 1, 2;
        $sum1 += $r1, $sum2 += $r2;
        my $floor = sub { my ($x) = @_; my $net = $x - $null; return $net > 0.02 * $x ? $net : 0.02 * $x };
        $a{tr}{$v} = $floor->($r1 < $r2 ? $r1 : $r2);
        next if @{ $t->{$v}{fails} } || !$ms{$v};
        $a{ts}{$v} = $floor->($min->(@{ $ms{$v} }));
        my $work_points = $l->{size}[0] * $l->{size}[1] * $l->{size}[2] * (($l->{steps} // 0) || 1);
        $a{gpts}{$v} = $work_points / $a{ts}{$v} / 1e6;
    }
    $a{contended} = $sum1 > 1.10 * $sum2 || $sum2 > 1.10 * $sum1;
    $a{null_ms} = $null;
    return \%a;
}

# Build every lab's kernels file at once (the compiler is the slow part), each against the
# pristine harness and definition in its own scratch folder; vet it before and after.
trace('building the kernels files');
$LAB_START = time;
# A lab with a reference program here is graded with a program built without the CPU reference
# (GRADING=1, definition.h's LAB_REFERENCE); without one the program itself must make the
# references (and is not timed).
my %grading = map { ($_ => -f "solutions/$_/kernels.cu" || -x 'sol' . lab_number($_)) } @labs;
system(@make, map { ("build/labs/$_/lab.o", $grading{$_} ? "build/grading/labs/$_/lab.o" : ()) } @labs) == 0
    or finish(2, "make check: the lab definitions do not build");
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
    copy($_, "$work/$_") for "build/gencode.txt", glob("build/common/*/*.o"), "build/version.o", "build/version.c";
    copy(($grading{$lab} ? "build/grading" : "build") . "/labs/$lab/lab.o", "$work/build/labs/$lab/lab.o");
    copy($student, "$work/labs/$lab/kernels.cu");
    my $pid = fork // die "check.pl: fork: $!\n";
    if (!$pid) {
        $Vet::TIME_LIMIT = limit(300);  # each of Vet's compile steps, within the budget
        my $why = vet_source("$work/labs/$lab/kernels.cu", "$work/labs/$lab", "$work/common");
        if (!$why) {
            local $RUN_TRUSTED = 1;  # the compiler, not the student's program
            my $r = run($work, limit(900), 'make', '-s', ($arch ? "ARCH=$arch" : ()), 'COMMIT=student', ($grading{$lab} ? 'GRADING=1' : ()),
                        build_vars(), "lab$n");
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
    my @variants = grep { !$l->{given}{$_} } @{ $l->{variants} };  # given code is not graded
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
        my ($seed) = fresh_seeds(1);
        # one dump request a variant, read from a file: the program answers them in turn
        my $requests = sub { dump_requests($work, $seed, 'out-%s.raw', @_) };
        my $r = do { local $RUN_STDIN = $requests->(@owed); run($work, limit($opt{'run-limit'}), @launch, $bin, '--serve', @args, '--quiet') };
        my %refs;
        for my $v (@owed) {
            my $dump = "$work/out-$v.raw";
            if (!-f $dump && @owed > 1) {
                # No output: wrong, or never run because another variant stopped the program. Alone,
                # it gets its own chance.
                local $RUN_STDIN = $requests->($v);
                $r = run($work, limit($opt{'run-limit'}), @launch, $bin, '--serve', @args, '--quiet');
            }
            $r->{err_last} ||= (grep { /^error / } split /\n/, $r->{out})[0] // '';
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
    my %named = map { ($_ => 1) } $san =~ /--variant[= ](\S+)/g;  # a case may name the variants it is for
    my @at = grep { !$sl->{refuses}{$_} && (!%named || $named{$_}) } @variants;
    my ($seed) = fresh_seeds(1);
    my $requests = sub { dump_requests($work, $seed, '-', @_) };  # a run of each variant, nothing written
    if (budget_left() <= 0) {  # unchecked is not clean
        push @{ $t{$_}{fails} }, "not graded: the time budget ($opt{budget}s) ran out" for grep { !@{ $t{$_}{fails} } } @at;
        next;
    }
    {
        for my $tool (qw(memcheck racecheck)) {
            my @san = ('compute-sanitizer', '--tool', $tool, '--error-exitcode', '99');
            my @clean = grep { !@{ $t{$_}{fails} } } @at;
            last unless @clean;
            my $r = do { local $RUN_STDIN = $requests->(@clean); run($work, limit(2 * $opt{'run-limit'}), @san, $bin, '--serve', shell_words($san), '--quiet') };
            next if $r->{status} == 0 && $r->{out} =~ /(ERROR|RACECHECK) SUMMARY: 0 (errors|hazards)/ && !grep { !/^ok / } grep { /^(ok|error)\b/ } split /\n/, $r->{out};
            for my $v (@clean) {  # which one
                if (budget_left() <= 0) {  # unchecked is not clean
                    push @{ $t{$v}{fails} }, "not graded: the time budget ($opt{budget}s) ran out";
                    next;
                }
                my $r1 = do { local $RUN_STDIN = $requests->($v); run($work, limit(2 * $opt{'run-limit'}), @san, $bin, '--serve', shell_words($san), '--quiet') };
                next if $r1->{status} == 0 && $r1->{out} =~ /^ok /m;  # clean
                my ($summary) = $r1->{out} =~ /((?:ERROR|RACECHECK) SUMMARY: \d+ \w+)/;
                push @{ $t{$v}{fails} }, "$tool at '$san': " . ($summary // why_failed($r1, 2 * $opt{'run-limit'}));
            }
        }
    }
    }

    push @phase_t, time;
    # Timing at the default size (the reference's turn, the student's, the reference's), and
    # correctness there.
    my (%ts, %tr, %gpts);
    my $contended = 0;
    if ($bin && $ref && budget_left() <= 0) {  # never timed nor checked at the default size: not clean
        push @{ $t{$_}{fails} }, "not graded: the time budget ($opt{budget}s) ran out"
            for grep { !$l->{refuses}{$_} && !@{ $t{$_}{fails} } } @variants;
    } elsif ($bin && $ref) {
        my @todo = grep { !$l->{refuses}{$_} && !@{ $t{$_}{fails} } } @variants;
        $t{$_}{owed}++ for @todo;
        if (@todo) {
            my $served = time_served($lab, $l, $work, $bin, $ref, \@todo, \%t);
            %ts = %{ $served->{ts} };
            %tr = %{ $served->{tr} };
            %gpts = %{ $served->{gpts} };
            $contended = $served->{contended};
            push @{ $t{$_}{notes} }, "the reference's two turns differ by more than 10%: the GPU was shared, performance not graded"
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
                my ($t_s, $t_r) = ($ts{$v}, $tr{$v});
                my $ratio = $t_s / $t_r;
                my $perf = $PERF_PTS * perf_fraction($ratio);
                $pts += $perf;
                push @out, sprintf("%.4f ms a run, reference %.4f ms (this grader's clock): %.2f x the reference, %.2f of %d performance points", $t_s, $t_r, $ratio, $perf, $PERF_PTS);
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
