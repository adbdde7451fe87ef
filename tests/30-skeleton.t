#!/usr/bin/env perl
# The committed skeletons in labs/ are exactly the solutions with their marked regions cut
# (common/skeleton.awk), and every region is announced by a TODO(student) comment.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

for my $lab (labs()) {
    my @sources = glob("solutions/$lab/*.cu solutions/$lab/*.h");
    ok(@sources, "$lab has sources");
    for my $src (@sources) {
        (my $skel = $src) =~ s{^solutions/}{labs/};
        my $r = run('awk', '-f', 'common/skeleton.awk', $src);
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
    }
}
done_testing();
