#!/usr/bin/env perl
# Every kernels file (skeleton and solution) and the harness's GPU side compile for every real
# architecture this nvcc knows from sm_75 up (make archs: the ptxas of each, no GPU needed), and
# ARCH takes a list, PTX-only entries and the names all and portable.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

my $jobs = `nproc 2>/dev/null` =~ s/\s+//r || 2;
my $r = run('make', '-s', "-j$jobs", 'archs');
is($r->{status}, 0, 'make archs compiles every kernels file for every architecture') or diag($r->{err});

my $gencode = run('make', '-s', '--no-print-directory', 'print-archs', 'ARCH=all');
my @all = $gencode->{out} =~ /\bsm_(\d+)\b/g;
ok((grep { $_ == 75 } @all) && (grep { $_ == 80 } @all) && (grep { $_ == 90 } @all), "ARCH=all lists sm_75, sm_80 and sm_90: @all");
my @files = ('common/harness/device.cu', map { ("labs/$_/kernels.cu", -f "solutions/$_/kernels.cu" ? "solutions/$_/kernels.cu" : ()) } labs());
for my $f (@files) {
    (my $log = "build/archs/$f") =~ s/\.cu$/.ptxas/;
    open my $fh, '<', $log or do { fail("$log: $!"); next };
    my %seen = map { $_ => 1 } do { local $/; <$fh> } =~ /Compiling entry function '[^']*' for 'sm_(\d+)'/g;
    my @missing = grep { !$seen{$_} } @all;
    is("@missing", '', "$f: ptxas compiled its kernels for every architecture") or diag("missing: sm_@missing");
}

# ARCH's forms, as make expands them (no compilation).
my %want = (
    'sm_86'            => [qr/arch=compute_86,code=sm_86/, qr/code=compute_86\b/],
    'sm_80 sm_90'      => [qr/arch=compute_80,code=sm_80/, qr/arch=compute_90,code=sm_90/, qr/code=compute_90\b/],
    'compute_80'       => [qr/^\s*-gencode arch=compute_80,code=compute_80\s*$/],
    'portable'         => [qr/code=sm_75/, qr/code=sm_80/, qr/code=sm_90/, qr/code=compute_90\b/],
);
for my $arch (sort keys %want) {
    my $g = run('make', '-s', '--no-print-directory', 'print-archs', "ARCH=$arch");
    my ($line) = $g->{out} =~ /^gencode (.*)$/m;
    like($line // '', $_, "ARCH='$arch' gives $_") for @{ $want{$arch} };
}
my $bad = run('make', '-s', 'print-archs', 'ARCH=volta');
isnt($bad->{status}, 0, 'ARCH=volta is refused');
like($bad->{err}, qr/neither sm_XX nor compute_XX/, 'with one line that says what ARCH takes');
done_testing();
