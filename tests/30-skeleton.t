#!/usr/bin/env perl
# The committed skeletons labs/*/kernels.cu are exactly the solutions' kernels files with their
# marked regions cut (common/tools/skeleton.awk), every region is announced by a TODO(student)
# comment, and the kernels file is the only file of a lab with student regions.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

plan skip_all => 'no solutions/ here (a student release): the skeletons have nothing to match' unless has_solutions();
for my $lab (labs()) {
    my $src = "solutions/$lab/kernels.cu";
    my $skel = "labs/$lab/kernels.cu";
    ok(-f $src, "$src exists") or next;
    my $r = run('awk', '-f', 'common/tools/skeleton.awk', $src);
    is($r->{status}, 0, "$src: regions are well formed") or diag($r->{err});
    ok(-f $skel, "$skel is committed");
    open my $fh, '<', $skel or next;
    my $committed = do { local $/; <$fh> };
    ok($committed eq $r->{out}, "$skel matches the solution with its regions cut (make skeletons)");
    open my $sf, '<', $src or next;
    my @lines = <$sf>;
    my $regions = grep { /BEGIN SOLUTION/ } @lines;
    ok($regions >= 1, "$src has $regions student regions");
    my $announced = 0;
    for my $i (0 .. $#lines) {
        next unless $lines[$i] =~ /BEGIN SOLUTION/;
        my $j = $i - 1;
        $j-- while $j > 0 && $lines[$j] =~ m{^\s*//} && $lines[$j] !~ /TODO\(student\)/;
        $announced++ if $lines[$j] =~ /TODO\(student\)/;
    }
    is($announced, $regions, "$src: every region follows a TODO(student) comment");
    my @others = grep { $_ ne $skel && $_ ne $src } glob("labs/$lab/* solutions/$lab/*");
    my @marked = grep { open my $o, '<', $_; my $t = do { local $/; <$o> } // ''; $t =~ /TODO\(student\)|BEGIN SOLUTION/ } @others;
    is("@marked", '', "$lab: no student region outside the kernels file");
    # labs/labN/HINTS.md: a ladder of three hints (where to look, the idea, the shape) for every TODO
    my $todos = grep { /TODO\(student\)/ } do { open my $k, '<', $skel or die; <$k> };
    if (open my $h, '<', "labs/$lab/HINTS.md") {
        my @sections = split /^## /m, do { local $/; <$h> };
        shift @sections;
        my ($covered, @short) = (0);
        for my $s (@sections) {
            my ($head) = split /\n/, $s;
            $covered += $head =~ /^TODOs (\d+)-(\d+)/ ? $2 - $1 + 1 : 1;
            push @short, $head unless $s =~ /^1\. \*Where to look/m && $s =~ /^2\. \*The idea/m && $s =~ /^3\. \*The shape/m;
        }
        is($covered, $todos, "labs/$lab/HINTS.md: a section for each of the skeleton's $todos TODOs");
        is("@short", '', "labs/$lab/HINTS.md: every section has its three hints");
    } else {
        fail("labs/$lab/HINTS.md: a hint ladder for the lab's TODOs");
    }
}
done_testing();
