#!/usr/bin/env perl
# Bad input and a machine with no GPU: one clear line on stderr, exit 2, nothing on stdout,
# no output file left behind. Runs without a GPU (CUDA_VISIBLE_DEVICES= hides one that is there).
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

my $dir = tmpdir();
my @bad = (
    [ '--bogus' ],            [ '--size', '0' ],        [ '--size', '-5' ],
    [ '--size', 'abc' ],      [ '--size', '12x' ],      [ '--size', '99999999999999999999' ],
    [ '--size', '1x2x3x4' ],  [ '--variant', 'nope' ],  [ '--reps', '0' ],
    [ '--reps', 'x' ],        [ '--seed', '-3' ],       [ '--order', '3' ],
    [ '--steps', '0' ],       [ '--dump', "$dir/d.raw" ], [ '--size' ],
    [ '--diffusion', '9' ],   [ '--dump', "$dir/%d.raw" ], [ '--dump-reference', "$dir/r.f64" ],
    [ '--timing', 'often' ],  [ '--courant', '0.5' ],   [ '--sponge', '-1' ],
);
for my $lab (labs()) {
    for my $bin (programs($lab)) {
        for my $args (@bad) {
            my $csv = "$dir/out.csv";
            unlink $csv;
            my $r = run($bin, @$args, '--csv', $csv);
            my @lines = split /\n/, $r->{err};
            is($r->{status}, 2, "$bin @$args: exit 2") or diag("stderr: $r->{err}");
            is(scalar @lines, 1, "$bin @$args: one line on stderr: $lines[0]");
            like($lines[0] // '', qr/^\Q${\ substr($bin, 2)}\E: /, "$bin @$args: the line names the program");
            is($r->{out}, '', "$bin @$args: nothing on stdout");
            ok(!-e $csv && !-e "$dir/d.raw" && !-e "$dir/r.f64", "$bin @$args: no output file left behind");
        }
        my $csv = "$dir/nogpu.csv";
        local $ENV{CUDA_VISIBLE_DEVICES} = '';
        my $r = run($bin, '--csv', $csv, '--dump', "$dir/x.raw", '--variant', (variants_of($bin))[0]);
        $r = run($bin, '--csv', $csv) if $r->{status} != 2 || $r->{err} !~ /no CUDA device/;
        is($r->{status}, 2, "$bin without a GPU: exit 2");
        like($r->{err}, qr/^\S+: no CUDA device found \(.+\)\n\z/, "$bin without a GPU: one line saying so");
        ok(!-e $csv, "$bin without a GPU: no CSV file");
    }
}

# --dump-reference needs no GPU: the CPU reference of the seed's input, float64, x fastest.
for my $lab (labs()) {
    my $bin = ref_bin($lab);
    local $ENV{CUDA_VISIBLE_DEVICES} = '';
    my ($v) = variants_of($bin);
    my $l = listing($bin, '--size', '7');
    my $pts = 1;
    $pts *= $_ for @{ $l->{size} };
    my $r = run($bin, '--size', '7', '--variant', $v, '--seed', '3', '--dump-reference', "$dir/ref.f64");
    is($r->{status}, 0, "$bin --dump-reference without a GPU: exit 0") or diag($r->{err});
    is(-s "$dir/ref.f64", 8 * $pts, "$bin --dump-reference: $pts float64 values");
    unlink "$dir/ref.f64";
}

# --profile without Nsight Compute: one line naming it.
SKIP: {
    skip 'ncu is installed here: --profile runs (tested with the GPU)', 2 if system('command -v ncu >/dev/null 2>&1') == 0;
    my $r = run(ref_bin('lab2_naive7pt'), '--profile');
    is($r->{status}, 2, '--profile without ncu: exit 2');
    like($r->{err}, qr/^(sol|lab)2: --profile needs Nsight Compute \(ncu\)[^\n]*\n\z/, 'one line naming ncu');
}

# A missing tool is one line naming what to install.
my $r = run('make', 'NVCC=/nonexistent/nvcc', 'need-nvcc');
isnt($r->{status}, 0, 'make without nvcc fails');
like($r->{err}, qr/nvcc not found: install the CUDA Toolkit/, 'and names the CUDA Toolkit');
mkdir "$dir/empty";
$r = run("PATH=$dir/empty /usr/bin/make need-gnuplot");
isnt($r->{status}, 0, 'make plots without gnuplot fails');
like($r->{err}, qr/gnuplot not found: install it \(Debian: apt-get install gnuplot-nox\)/, 'and names gnuplot-nox');

# make doctor: one screen, every part named, and a line per lab with what it needs (its --list).
$r = run('make', '-s', 'doctor');
is($r->{status}, 0, 'make doctor exits 0');
like($r->{out}, qr/^$_\s/m, "make doctor reports $_") for ('toolkit', 'make builds', 'Nsight Compute', 'sanitizer', 'MPI', 'NCCL', 'gnuplot', 'host memory');
like($r->{out}, has_gpu() ? qr/^GPU 0\s+.*compute capability/m : qr/^GPU\s+none visible/m, 'and the GPUs, or that there are none');
for my $lab (labs()) {
    my $l = listing(ref_bin($lab));
    my $gb = sprintf '%.1f', $l->{memory}{gpu} / 1e9;
    like($r->{out}, qr/^$lab\s+\S+\s+\Q$gb\E\s/m, "make doctor: $lab needs $gb GB of GPU memory at its default size");
}
# The course guide's table of what each lab needs ("Every GPU") says what --list says.
{
    open my $g, '<', 'handouts/README.md' or die "handouts/README.md: $!";
    my %row = map { /^\| (\d+[a-z]?) \w+ \| [^|]+ \| ([\d.]+) GB[^|]* \| ([\d.]+) \/ ([\d.]+) GB \|/ ? ($1 => [$2, $3, $4]) : () } <$g>;
    for my $lab (labs()) {
        # at the default size, which a machine with too little memory would scale down
        my ($default) = run(ref_bin($lab), '--help')->{out} =~ /grid size \(default ([\dx]+)\)/;
        my $l = listing(ref_bin($lab), '--size', $default // 1);
        my $n = Course::lab_number($lab);
        my @want = map { sprintf '%.1f', $_ / 1e9 } @{ $l->{memory} }{qw(gpu host reference)};
        is(join(' ', @{ $row{$n} || [] }), "@want", "the guide's table: lab $n needs @want GB (GPU, host, reference)");
    }
}
{
    my $l = listing(ref_bin('lab8_wave'));
    ok($l->{memory}{gpu} > 2.6e9 && $l->{memory}{gpu} < 2.8e9 && $l->{memory}{reference} > 4.7e9 && $l->{memory}{reference} < 5e9,
       'lab 8 at 512^3: 2.7 GB on the GPU, 4.8 GB of host memory for --dump-reference (five fields; three inputs and two double arrays)')
        if grep { $_ eq 'lab8_wave' } labs();
}
# make bench's runs (common/tools/bench.pl) against a GPU and a solution that only say what they
# were given: every run of bench.args in order, npN under mpirun, --csv added; BENCH_RUNS=A-B
# only runs A to B.
{
    use Cwd qw(getcwd);
    my $top = getcwd();
    my $b = tmpdir();
    mkdir "$b/$_" for qw(bin solutions solutions/lab1_fake);
    open my $fh, '>', "$b/solutions/lab1_fake/bench.args" or die;
    print $fh "# a comment\n--reps 1\n\nnp2 --reps 2\n--size 8 --reps 3\n";
    close $fh;
    for (["$b/bin/nvidia-smi", 'echo "Fake GPU"'], ["$b/sol1", 'echo "sol1 $*"'], ["$b/bin/mpirun", 'echo "mpirun $*"']) {
        open my $f, '>', $_->[0] or die;
        print $f "#!/bin/sh\n$_->[1]\n";
        close $f;
        chmod 0755, $_->[0];
    }
    local $ENV{PATH} = "$b/bin:$ENV{PATH}";
    local $ENV{PERL5LIB} = "$top/common/tools";
    my $bench = sub { my $r = run('sh', '-c', "cd '$b' && perl '$top/common/tools/bench.pl' lab1_fake"); return ($r, [grep { !/^\+/ } split /\n/, $r->{out}]) };
    my ($r, $out) = $bench->();
    is($r->{status}, 0, 'make bench: exit 0 when every run does');
    is_deeply($out, ['sol1 --reps 1 --csv data/Fake_GPU.csv', 'mpirun --oversubscribe --bind-to none -np 2 ./sol1 --reps 2 --csv data/Fake_GPU.csv',
                     'sol1 --size 8 --reps 3 --csv data/Fake_GPU.csv'], 'make bench: every run in order, npN under mpirun, the CSV of this GPU');
    local $ENV{BENCH_RUNS} = '2-3';
    ($r, $out) = $bench->();
    is(scalar @$out, 2, 'BENCH_RUNS=2-3: two runs') and like($out->[0], qr/-np 2 .*--reps 2 /, 'BENCH_RUNS=2-3: from the second');
    $ENV{BENCH_RUNS} = '3-';
    ($r, $out) = $bench->();
    is_deeply($out, ['sol1 --size 8 --reps 3 --csv data/Fake_GPU.csv'], 'BENCH_RUNS=3-: the third to the last');
    for my $bad ('two', '0-', '3-2') {
        $ENV{BENCH_RUNS} = $bad;
        ($r, $out) = $bench->();
        ok($r->{status} != 0 && $r->{err} =~ /BENCH_RUNS is A-B/ && !@$out, "BENCH_RUNS=$bad: refused with one line, nothing run");
    }
    $ENV{BENCH_RUNS} = '';
    ($r, $out) = $bench->();
    is(scalar @$out, 3, 'BENCH_RUNS set but empty: every run');
}

done_testing();
