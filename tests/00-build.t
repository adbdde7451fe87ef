#!/usr/bin/env perl
# Every lab skeleton and every reference solution builds (make test builds them first), answers
# --help and --list, and a kernels file holds only kernels: no main, no lab definition.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

my @labs = labs();
ok(@labs >= 2, "labs found: @labs");
for my $lab (@labs) {
    for my $bin (programs($lab)) {
        ok(-x $bin, "$bin is built");
        my $r = run($bin, '--help');
        is($r->{status}, 0, "$bin --help exits 0");
        like($r->{out}, qr/^variants:/m, "$bin --help lists its variants");
    }
    my $l = listing(ref_bin($lab));
    ok($l && @{ $l->{variants} } >= 2, "$lab: --list names its variants: @{ $l ? $l->{variants} : [] }");
    ok($l && $l->{csv} && $l->{tolerance}, "$lab: --list gives the CSV columns and the tolerance");
    ok($l && ($l->{flops} // 0) > 0, "$lab: --list counts the stencil's flops per point (" . ($l && $l->{flops} // 'none') . ') for the roofline');
    is_deeply([ variants_of(lab_bin($lab)) ], $l ? $l->{variants} : [], "$lab: skeleton and solution have the same variants");
    for my $obj ("build/labs/$lab/kernels.o", has_solutions() ? "build/solutions/$lab/kernels.o" : ()) {
        my @defined = map { (split ' ')[2] // () } grep { /^\S+ [A-TV-Z] / } `nm $obj 2>/dev/null`;
        ok(@defined, "$obj defines symbols");
        my @bad = grep { /^(main|LAB)$/ } @defined;
        is("@bad", '', "$obj defines neither main nor the lab (LAB)");
        # a setup_kernels that the definition never names is never called (the weights would
        # stay zero in constant memory)
        if (grep { $_ eq 'setup_kernels' } @defined) {
            my @used = map { (split ' ')[1] // () } grep { /^\s+U / } `nm build/labs/$lab/lab.o 2>/dev/null`;
            ok((grep { $_ eq 'setup_kernels' } @used), "$obj defines setup_kernels: the definition calls it (.setup)");
        }
    }
    open my $k, '<', "labs/$lab/kernels.cu" or die "labs/$lab/kernels.cu: $!";
    my $text = do { local $/; <$k> };
    unlike($text, qr/\bint\s+main\s*\(|struct\s+lab\s*\w*\s*=|l2_tol|default_n/,
        "labs/$lab/kernels.cu has no main, no struct lab, no tolerance and no default size");
}
my $help = run('make', '-s', 'help');
is($help->{status}, 0, 'make help exits 0');
like($help->{out}, qr/^\s+$_\s/m, "make help lists $_") for qw(check test bench plots clean release gradescope);
done_testing();
