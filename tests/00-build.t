#!/usr/bin/env perl
# Every lab skeleton and every reference solution builds (make test builds them first), and
# answers --help with the same variants.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

my @labs = labs();
ok(@labs >= 2, "labs found: @labs");
for my $lab (@labs) {
    for my $bin (lab_bin($lab), sol_bin($lab)) {
        ok(-x $bin, "$bin is built");
        my $r = run($bin, '--help');
        is($r->{status}, 0, "$bin --help exits 0");
        like($r->{out}, qr/^variants:/m, "$bin --help lists its variants");
    }
    my @sv = variants_of(sol_bin($lab));
    ok(@sv >= 2, "$lab has variants: @sv");
    is_deeply([ variants_of(lab_bin($lab)) ], \@sv, "$lab: skeleton and solution have the same variants");
}
my $help = run('make', '-s', 'help');
is($help->{status}, 0, 'make help exits 0');
like($help->{out}, qr/^\s+$_\s/m, "make help lists $_") for qw(check test bench plots clean);
done_testing();
