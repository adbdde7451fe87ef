#!/usr/bin/env perl
# make plots makes its figures from the committed data: PNG files of a readable size.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

plan skip_all => 'gnuplot not installed (Debian: gnuplot-nox): make plots not run'
    if system('command -v gnuplot >/dev/null') != 0;
my $dir = tmpdir();
my $r = run("make -s plots PLOTDIR=$dir");
is($r->{status}, 0, 'make plots exits 0') or diag($r->{err});
for my $png (qw(bandwidth.png lab1_convergence.png lab6_convergence.png redundancy.png lab5_table1.png redundancy_measured.png)) {
    my $path = "$dir/$png";
    ok(-s $path && -s $path > 10_000, "$png made (" . (-s $path // 0) . " bytes)");
    open my $fh, '<:raw', $path or next;
    read $fh, my $magic, 8;
    is($magic, "\x89PNG\r\n\x1a\n", "$png is a PNG");
}
done_testing();
