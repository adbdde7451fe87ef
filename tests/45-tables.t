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
# The rules behind two of the tables, on made-up rows: the headline row of a multi-GPU lab's
# variant is the run at the default size on the most processes; "over lab 8's best" divides by
# lab 8's queue4 of the same commit in the baseline file (lab9-bench's same-call measurement),
# else by lab 8's newest make bench rows.
{
    use lib 'plots';
    use Data qw(headline_rows lab8_best peer_pairs path_cells);
    my $row = sub { my %r = (lab => $_[0], variant => $_[1], nx => $_[2], ny => $_[2], nz => $_[2], steps => 6, status => 'PASS',
                             ranks => $_[3], gpus => $_[3], gpts => $_[4], commit => $_[5]); return \%r };
    my $shared = $row->('lab9_multigpu', 'mpi_staged', 512, 2, 60, 'c1');
    $shared->{gpus} = 1;
    my @h = headline_rows($row->('lab9_multigpu', 'nccl', 512, 1, 170, 'c1'), $row->('lab9_multigpu', 'nccl', 512, 2, 330, 'c1'),
                          $row->('lab9_multigpu', 'nccl', 768, 2, 320, 'c1'), $row->('lab8_wave', 'naive', 512, 1, 140, 'c0'),
                          $row->('lab9_multigpu', 'mpi_staged', 512, 1, 170, 'c1'), $shared);
    is_deeply([map { "$_->{variant} $_->{nx} $_->{ranks}" } @h], ['nccl 512 2', 'naive 512 1', 'mpi_staged 512 1'],
              'headline: a variant\'s default size on the most GPUs (not processes sharing one); a one-GPU lab\'s first row');
    my @bench = ($row->('lab8_wave', 'queue4_128x16', 512, 1, 177, 'c0'), $row->('lab8_wave', 'naive', 512, 1, 140, 'c0'));
    my @base = ($row->('lab8_wave', 'queue4_128x16', 512, 1, 174, 'c1'), $row->('lab8_wave', 'queue4_128x16', 512, 1, 175, 'c2'));
    is(lab8_best('512x512x512', 6, 'c1', \@base, @bench)->{gpts}, 174, 'lab 8\'s best: the baseline row of lab 9\'s commit');
    is(lab8_best('512x512x512', 6, 'c9', \@base, @bench)->{gpts}, 177, 'lab 8\'s best: else its fastest make bench row');
    is(lab8_best('512x512x512', 5, 'c1', \@base, @bench), undef, 'lab 8\'s best: none at another step count');
    my @warned;
    local $SIG{__WARN__} = sub { push @warned, @_ };
    is(lab8_best('512x512x512', 6, undef, \@base, @bench)->{gpts}, 177, 'lab 8\'s best: no commit given: its make bench rows');
    is(scalar @warned, 0, 'lab 8\'s best: no commit given: no warning');
    # a peer's ratio: from one session where one has both, else the newest of each, marked
    my $fig = sub { return { peer => 'P', problem => "p $_[0]", figure => $_[1], source => "peers.sh run at $_[2]" } };
    my @ours = ($row->('lab7_heat_multistep', 'tb', 64, 1, 100, 'aaaaaaa'), $row->('lab7_heat_multistep', 'tb', 64, 1, 130, 'ccccccc'),
                $row->('lab7_heat_multistep', 'tb', 32, 1, 90, 'ccccccc'));
    my @pairs = peer_pairs([ $fig->('64x64x64', 50, 'aaaaaaa'), $fig->('64x64x64', 60, 'bbbbbbb'), $fig->('32x32x32', 40, 'bbbbbbb'),
                             $fig->('16x16x16', 30, 'ccccccc') ], \@ours, [ grep { $_->{commit} eq 'ccccccc' } @ours ]);
    is_deeply([ map { join ' ', $_->[0]{figure}, ($_->[1] ? $_->[1]{gpts} : '-'), $_->[2] } @pairs ], [ '50 100 0', '40 90 1', '30 - 0' ],
              'peer pairs: an older figure of the same session beats a newer one of none; else the newest of each, marked; none at the size: no ratio');
    # the code paths: each path's newest row; a ratio only to the first path's row of the same commit
    my $path = sub { my $r = $row->('lab5b_register_queue', 'queue4_128x16', 512, 1, $_[2], $_[0]); $r->{order} = 8;
                     $r->{code_path} = $_[1]; return $r };
    my ($p, $keys, $cells) = path_cells($path->('c1', 'sm_90', 300), $path->('c1', 'sm_80', 330), $path->('c2', 'sm_80', 320),
                                        $path->('c2', 'sm_90', 310), $path->('c3', 'sm_75', 155), $path->('c1', 'sm_75', 150));
    is_deeply($p, [qw(sm_90 sm_80 sm_75)], 'paths: the newest architecture first');
    my $c = $cells->{$keys->[0]};
    is_deeply([ map { [ $c->{$_}[0]{gpts}, $c->{$_}[1] ] } @$p ], [ [310, undef], [320, 320 / 310], [150, 0.5] ],
              'paths: the newest row of each; a ratio to the first path in the same commit');
    ($p, $keys, $cells) = path_cells($path->('c1', 'sm_90', 300), $path->('c2', 'sm_80', 320));
    is($cells->{ $keys->[0] }{sm_80}[1], undef, 'paths: no ratio where the first path has no row of the same commit');
}

done_testing();
