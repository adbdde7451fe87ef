#!/usr/bin/env perl
# make plots makes its figures from the committed data: every plots/NAME.gp draws NAME.png, a
# PNG of a readable size. The figures are found, not listed, so a lab's new figure is tested
# by adding its script.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use File::Basename qw(basename);
use TestLib;

plan skip_all => 'gnuplot not installed (Debian: gnuplot-nox): make plots not run'
    if system('command -v gnuplot >/dev/null') != 0;
my @scripts = glob 'plots/*.gp';
ok(@scripts, 'plots/ has gnuplot scripts (' . scalar(@scripts) . ')');
my $dir = tmpdir();
my $r = run("make -s plots PLOTDIR=$dir");
is($r->{status}, 0, 'make plots exits 0') or diag($r->{err});
for my $gp (@scripts) {
    my $png = basename($gp, '.gp') . '.png';
    my $path = "$dir/$png";
    # the shipped data has every figure's inputs: a script that skipped its figure is a failure
    ok(-s $path && -s $path > 10_000, "$gp made $png (" . (-s $path // 0) . " bytes)");
    open my $fh, '<:raw', $path or next;
    read $fh, my $magic, 8;
    is($magic, "\x89PNG\r\n\x1a\n", "$png is a PNG");
}
done_testing();
