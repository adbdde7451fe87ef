#!/usr/bin/env perl
# Unit tests of the harness (tests/unit.c), make check's sandbox (tests/sandbox.c), and each lab's host-side checks of its own CPU
# reference (./solN --self-test): TAP from C, gathered here.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

for my $cmd ('build/tests/unit', 'build/tests/sandbox', map { ref_bin($_) . ' --self-test' } labs()) {
    my $r = run($cmd);
    my @not_ok = grep { /^not ok/ } split /\n/, $r->{out};
    my ($plan) = $r->{out} =~ /^1\.\.(\d+)/m;
    is($r->{status}, 0, "$cmd exits 0") or diag($r->{out} . $r->{err});
    ok(defined $plan && !@not_ok, "$cmd: " . ($plan // 0) . ' checks, none failed') or diag(join "\n", @not_ok);
}
done_testing();
