#!/usr/bin/env perl
# make check, the grader: without a GPU it says so (exit 2); on a GPU the untouched skeletons
# FAIL every variant (exit 1), a student tree holding the solutions passes (exit 0), and a lab
# that hangs or faults costs only its own variant.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use JSON::PP;
use TestLib;

my @labs = labs();
{
    local $ENV{CUDA_VISIBLE_DEVICES} = '';
    my $r = run('perl', 'common/check.pl', @labs);
    is($r->{status}, 2, 'make check without a GPU: exit 2');
    like($r->{err}, qr/^make check: \S+: no CUDA device found \(.+\)\n\z/, 'one line saying so');
}
unless (has_gpu()) {
    done_testing();
    exit 0;
}

sub results {
    my ($path) = @_;
    open my $fh, '<', $path or return undef;
    return decode_json(do { local $/; <$fh> });
}
my $dir = tmpdir();
my $n_variants = 0;
$n_variants += scalar variants_of(sol_bin($_)) for @labs;

# 1. The untouched skeletons.
my $r = run("CHECK_RESULTS=$dir/skel.json perl common/check.pl @labs");
is($r->{status}, 1, 'make check on the untouched skeletons: exit 1') or diag($r->{out} . $r->{err});
my $res = results("$dir/skel.json");
ok($res && @{ $res->{tests} } == $n_variants, "results.json has one test per variant ($n_variants)");
is(scalar(grep { $_->{status} eq 'failed' && $_->{score} == 0 } @{ $res->{tests} || [] }), $n_variants,
    'every skeleton variant failed with 0 points');

# 2. A student tree whose labs are the solutions, with one hanging and one faulting kernel.
my $tree = "$dir/tree";
mkdir $tree;
system("cp -r Makefile common labs solutions tests $tree/") == 0 or die 'cp';
for my $lab (@labs) { system("cp solutions/$lab/*.cu $tree/labs/$lab/") == 0 or die 'cp' }
my $b = run("make -s -C $tree -j8 all");
is($b->{status}, 0, 'the student tree builds') or diag($b->{err});
$r = run("cd $tree && CHECK_RESULTS=$dir/good.json perl common/check.pl @labs");
is($r->{status}, 0, 'make check on the solutions: exit 0') or diag($r->{out} . $r->{err});
$res = results("$dir/good.json");
is(scalar(grep { $_->{status} eq 'passed' && $_->{score} >= 7 } @{ $res->{tests} || [] }), $n_variants,
    'every variant passed with its correctness points');

sub plant {
    my ($file, $from, $to) = @_;
    open my $in, '<', $file or die "$file: $!";
    my $text = do { local $/; <$in> };
    my $ok = $text =~ s/\Q$from\E/$to/;
    open my $out, '>', $file or die;
    print $out $text;
    return $ok;
}
ok(plant("$tree/labs/lab1_diff1d/diff1d.cu", "        float4 c = f4[q];\n",
    "        for (long long t0 = clock64(); clock64() - t0 < (1ll << 62);) {}\n        float4 c = f4[q];\n"),
    'planted a hang in lab1 vec4');
ok(plant("$tree/labs/lab2_naive7pt/naive7pt.cu",
    "out[s] = on_face(x, y, z, nx, ny, nz) ? in[s] : star7(in, s, sy, sz);",
    "out[s + (1ull << 40)] = on_face(x, y, z, nx, ny, nz) ? in[s] : star7(in, s, sy, sz);"),
    'planted an out-of-bounds write in lab2 naive');
$b = run("make -s -C $tree -j8 all");
is($b->{status}, 0, 'the broken tree builds');
$r = run("cd $tree && CHECK_TIME_LIMIT=20 CHECK_RESULTS=$dir/bad.json perl common/check.pl @labs");
is($r->{status}, 1, 'make check with a hang and a fault: exit 1');
$res = results("$dir/bad.json");
my %status = map { ($_->{name} => $_->{status}) } @{ $res->{tests} || [] };
is($status{'lab1_diff1d vec4'}, 'failed', 'the hanging variant failed');
like($r->{out}, qr/lab1_diff1d\s+\|\s+vec4\s+\|\s+FAIL.*timed out/, 'and the table says it timed out');
is($status{'lab2_naive7pt naive'}, 'failed', 'the faulting variant failed');
is($status{'lab1_diff1d naive'}, 'passed', 'the other variants of the hanging lab were still graded');
is($status{'lab2_naive7pt bad_mapping'}, 'passed', 'the other variant of the faulting lab was still graded');
done_testing();
