#!/usr/bin/env perl
# The result tables in README.md and handouts/ are the ones make tables generates from data/:
# no number in them is typed by hand or left stale.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use File::Copy;
use TestLib;

my $dir = tmpdir();
for my $doc ('README.md', glob('handouts/*.md'), glob('handouts/debriefs/*.md'), glob('solutions/*/answers.md')) {
    (my $copy = "$dir/$doc") =~ s{/(handouts|solutions)/}{/}; $copy =~ s{/([^/]+)/answers\.md$}{/$1-answers.md}; $copy =~ s{/debriefs/}{/debrief-};
    copy($doc, $copy) or die "$doc: $!";
    my $r = run('perl', 'plots/tables.pl', $copy);
    is($r->{status}, 0, "$doc: tables regenerate") or diag($r->{err});
    my $slurp = sub { open my $f, '<', $_[0] or die; local $/; <$f> };
    ok($slurp->($copy) eq $slurp->($doc), "$doc: generated tables are up to date (make tables)")
        or diag(`diff '$doc' '$copy' | head -n 20`);
    unlike($slurp->($doc), qr/no data yet/, "$doc: every table has data");
}
done_testing();
