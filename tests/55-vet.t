#!/usr/bin/env perl
# common/grader/Vet.pm, what make check runs before any of a student's code: every cheating kernels file
# of tests/cheats/static-*.patch (applied to its lab's solution) is refused by vet_source or vet_object for the reason its
# `expect: rejected REGEX` line names (the refusal line must match REGEX), and no honest kernels
# file is refused (the solutions, the untouched skeletons). A file marked `expect: not static:
# WHY` is an attack no static check can see: skipped, saying why. Every file is compiled as the
# Makefile compiles a kernels file ($(NVCC) $(NVFLAGS) -c, asked of make), into a folder of the
# test's, and must compile: a cheat is wrong only by its cheat. No GPU needed; the files are
# compiled and vetted VET_JOBS (default: the CPUs) at a time.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use JSON::PP;
use POSIX ();
use Text::ParseWords qw(shellwords);
use Time::HiRes qw(time);
use TestLib;
use lib 'common/grader';
use Vet qw(vet_source vet_object);

my $START = time;
my $NVCC = $ENV{NVCC} // 'nvcc';
plan skip_all => "$NVCC not found: the kernels files cannot be compiled" unless system("command -v '$NVCC' >/dev/null 2>&1") == 0;

my @labs = labs();
my @HARNESS = ((map { "build/common/harness/$_.o" } qw(check options reference csv program sandbox ranks limits fields run report convergence profile serve lab_main main device)),
               map { "build/common/stencils/$_.o" } qw(star wave));
my @missing = grep { !-f } @HARNESS, (map { ("build/labs/$_/lab.o", ref_bin($_)) } @labs);
if (@missing) {
    fail("the harness, the definitions and the programs are built (make all): missing @missing");
    done_testing();
    exit 0;
}

# The Makefile's compile command for a kernels file: build/%.o: %.cu -> $(NVCC) $(NVFLAGS) -c $< -o $@
my $r = do {
    local @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL)};
    delete @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL)};
    run('make', '-s', '--no-print-directory', '--eval', 'vet-test-flags: ; @echo $(NVCC) $(NVFLAGS)', 'vet-test-flags');
};
my ($nvcc, @flags) = shellwords($r->{out});
ok($r->{status} == 0 && $nvcc && grep({ $_ eq '-Icommon/harness' } @flags), "the Makefile's command: $nvcc @flags")
    or do { diag($r->{err}); done_testing(); exit 0 };

# ---- the files ----
my @jobs;
# VET_CHEATS=static-main,static-printf: those cheating files only (make test-quick)
my %only = map { ("tests/cheats/$_.patch" => 1) } split /,/, $ENV{VET_CHEATS} // '';
for my $patch (grep { !%only || $only{$_} } sort glob 'tests/cheats/static-*.patch') {
    my $c = cheat($patch);
    my %job = (file => $c ? $c->{file} : $patch, name => $patch, kind => 'cheat', what => $c && $c->{what}, lab => $c && $c->{lab});
    my $expect = $c ? $c->{expect} // '' : '';
    if ($expect =~ m{^rejected (\S.*)$}) { $job{expect} = $1 }
    elsif ($expect =~ m{^not static: (\S.*)$}) { $job{not_static} = $1 }
    my $re = defined $job{expect} ? eval { qr/$job{expect}/ } : undef;
    ok($c && $job{what} && (grep { $_ eq $job{lab} } @labs) && ($re || $job{not_static}),
       "$patch: applies to its lab's solution; its header says what it tries, its lab and what to expect")
        or next;
    $job{re} = $re;
    push @jobs, \%job;
}
if (-d 'tests/cheats') { ok(@jobs >= (%only ? keys %only : 20), scalar(@jobs) . " cheating files") }
else { note('no tests/cheats/ here (a student release): the honest files only') }
for my $lab (@labs) {
    push @jobs, { file => $_, kind => 'honest', lab => $lab } for grep { -f } "solutions/$lab/kernels.cu", "labs/$lab/kernels.cu";
}

# Honest, if unusual: what students write that the checks must not take for a cheat, vetted in a
# tree laid out as make check lays out a student's (common/, the Makefile, the lab's definition).
my $tmp = tmpdir();
my $HONEST_EXTRAS = <<'CU';

// ---- honest, if unusual ----
#include <cmath>
#include <cstdio>
__constant__ float weights[4];
__device__ float square(float x) { return x * x; }  // not inline: cudafe++ gives it a host body that calls exit
__device__ __forceinline__ unsigned lane(void)
{
    unsigned l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));  // inline PTX in device code
    return l;
}
__host__ __device__ inline float twice(float x)
{
#ifdef __CUDA_ARCH__
    float y;
    asm("add.f32 %0, %1, %1;" : "=f"(y) : "f"(x));
    return y;
#else
    return x + x;
#endif
}
template <int N> __global__ void extras(float *a) { a[threadIdx.x] = square(twice(weights[N % 4] + (float)lane())); }
extern "C" const char *setup_extras(float *a)
{
    static const float w[4] = {1, 2, 3, 4};
    volatile double h = 0.5;
    static const double base = std::exp(std::sin(h));  // libm, and a guarded function-local static
    static char line[64];
    snprintf(line, sizeof line, "%g", base + twice(1.0f));
    CUDA_CHECK(cudaMemcpyToSymbol(weights, w, sizeof w));
    extras<1><<<1, 32>>>(a);
    return line;
}
CU
if (grep { $_ eq 'lab1_diff1d' } @labs) {
    my $tree = "$tmp/tree";
    my $lab = 'lab1_diff1d';
    my $ok = system('mkdir', '-p', "$tree/labs/$lab") == 0 && system('cp', '-r', 'common', 'Makefile', $tree) == 0
        && system('cp', "labs/$lab/lab.c", "$tree/labs/$lab/") == 0;
    my $base = -f "solutions/$lab/kernels.cu" ? "solutions/$lab/kernels.cu" : "labs/$lab/kernels.cu";
    if ($ok && open(my $in, '<', $base) && open(my $out, '>', "$tree/labs/$lab/kernels.cu")) {
        print $out do { local $/; <$in> }, $HONEST_EXTRAS;
        close $out;
        push @jobs, { file => "labs/$lab/kernels.cu", dir => $tree, kind => 'honest', lab => $lab,
                      name => "$base with a __device__ function, inline PTX, libm and statics (in make check's layout)" };
    } else {
        fail("a tree laid out as make check's: $!");
    }
}

# ---- compile and vet, VET_JOBS at a time (each in a child, which reports in a file) ----
my $cpus = $ENV{VET_JOBS} || (`nproc 2>/dev/null` =~ /^(\d+)/ ? ($1 > 16 ? 16 : $1) : 2);
$cpus = 1 if $cpus < 1;
my @timeout = system('command -v timeout >/dev/null 2>&1') == 0 ? ('timeout', '-k', '10', '600') : ();
# What every child would look up again: the system's headers, libm, the symbols of each program.
Vet::system_include_dirs();
Vet::libm_symbol('sin');
Vet::program_symbols(ref_bin($_), "build/labs/$_/lab.o", @HARNESS) for @labs;

sub work {
    my ($i, $job) = @_;
    my $t = time;
    my $obj = "$tmp/$i.o";
    my $dir = $job->{dir} // '.';
    my $pid = fork // die "fork: $!";
    if (!$pid) {
        chdir $dir or POSIX::_exit(127);
        open STDIN, '<', '/dev/null';
        open STDOUT, '>', "$tmp/$i.log";
        open STDERR, '>&', \*STDOUT;
        exec(@timeout, $nvcc, @flags, '-c', $job->{file}, '-o', $obj) or POSIX::_exit(127);
    }
    waitpid $pid, 0;
    my %res = (compiled => $? == 0 && -f $obj ? 1 : 0);
    $res{log} = do { open my $fh, '<', "$tmp/$i.log"; local $/; $fh ? <$fh> // '' : '' };
    $res{source} = vet_source("$dir/$job->{file}", "$dir/labs/$job->{lab}", "$dir/common");
    $res{object} = vet_object($obj, ref_bin($job->{lab}), "build/labs/$job->{lab}/lab.o", @HARNESS) if $res{compiled};
    $res{seconds} = time - $t;
    return \%res;
}

my %running;
my $next = 0;
while ($next < @jobs || %running) {
    while ($next < @jobs && keys(%running) < $cpus) {
        my $i = $next++;
        my $pid = fork // die "fork: $!";
        if (!$pid) {
            my $res = eval { work($i, $jobs[$i]) } // { error => "$@" };
            if (open my $fh, '>', "$tmp/$i.json") { print $fh JSON::PP->new->canonical->encode($res); close $fh }
            POSIX::_exit(0);
        }
        $running{$pid} = $i;
    }
    my $pid = waitpid(-1, 0);
    last if $pid < 0;
    delete $running{$pid};
}

# ---- what each got ----
for my $i (0 .. $#jobs) {
    my $job = $jobs[$i];
    my $res = do { open my $fh, '<', "$tmp/$i.json"; $fh ? eval { decode_json(do { local $/; <$fh> }) } : undef }
        // { error => 'the child that vetted it reported nothing' };
    my $f = $job->{name} // $job->{file};
    if ($res->{error}) {
        fail("$f: vetted");
        diag($res->{error});
        next;
    }
    my @said = map { defined $res->{$_} ? "$_: $res->{$_}" : "$_: accepted" } qw(source object);
    ok($res->{compiled}, "$f compiles as a kernels file" . ($job->{kind} eq 'cheat' ? ' (only its cheat is wrong)' : ''))
        or diag(join "\n", grep { defined } (split /\n/, $res->{log})[0 .. 9]);
    if ($job->{kind} eq 'honest') {
        is($res->{source} // 'accepted', 'accepted', "$f: vet_source accepts it");
        is($res->{object} // 'accepted', 'accepted', "$f: vet_object accepts it") if $res->{compiled};
        next;
    }
    if ($job->{not_static}) {
        note("$f ($job->{what}): $said[0]; $said[1]");
        SKIP: { skip("$f: not static: $job->{not_static}", 1) }
        next;
    }
    my ($line) = grep { defined && $_ =~ $job->{re} } $res->{source}, $res->{object};
    ok(defined $line, "$f is refused: " . ($line // "not for /$job->{expect}/")) or diag("$job->{what}\n  " . join("\n  ", @said));
    note("  $said[0]\n  $said[1]") if defined $line;
}
note(sprintf "%d files compiled and vetted in %.1f s, %d at a time", scalar @jobs, time - $START, $cpus);

# Vet's compile steps stop at $Vet::TIME_LIMIT (make check sets it to the budget left): a file
# that includes a FIFO blocks the preprocessor, and is refused within the limit.
if (-d "$tmp/tree/labs/lab1_diff1d" && system('command -v mkfifo >/dev/null && command -v timeout >/dev/null') == 0) {
    my $lab = "$tmp/tree/labs/lab1_diff1d";
    system('mkfifo', "$lab/blocks.h");
    if (open my $fh, '>', "$lab/fifo.cu") { print $fh qq{#include "lab.h"\n#include "blocks.h"\n}; close $fh }
    local $Vet::TIME_LIMIT = 2;
    my $t = time;
    my $why = vet_source("$lab/fifo.cu", $lab, "$tmp/tree/common");
    my $took = time - $t;
    ok(defined $why && $took < 30, sprintf("a file that includes a FIFO: refused after %.1f s (%s)", $took, $why // 'accepted'));
}
done_testing();
