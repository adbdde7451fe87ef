#!/usr/bin/env perl
# make plots makes its figures from the committed data: every plots/NAME.gp draws NAME.png, a
# PNG of a readable size. The figures are found, not listed, so a lab's new figure is tested
# by adding its script. The numbers the figures draw are checked where they are computed
# (plots/figures.pl, plots/Data.pm): the roofline's intensities, the 7-point journey's rows, the stale profiles;
# and `make compare` draws a student's CSV beside the reference.
use strict;
use warnings;
use lib 'tests', 'plots';
use Data ();
use Test::More;
use File::Basename qw(basename);
use File::Spec;
use TestLib;

my $GPU = 'NVIDIA_H100_80GB_HBM3';
my $CSV = "data/$GPU.csv";

sub data_pl {
    my $r = run('perl', 'plots/figures.pl', @_);
    is($r->{status}, 0, "figures.pl @_ exits 0") or diag($r->{err});
    return $r->{out};
}

# data lines (not comments, not block heads) split into fields; quoted fields kept whole
sub rows_of {
    my ($text, $block) = @_;
    my @blocks = split /\n\n\n/, $text;
    my @out;
    for my $b (defined $block ? ($blocks[$block] // '') : @blocks) {
        for my $line (split /\n/, $b) {
            next if $line =~ /^#/ || $line !~ /\S/ || $line =~ /^"/;
            push @out, [ $line =~ /("[^"]*"|\S+)/g ];
        }
    }
    return @out;
}

sub head_of { my ($text, $key) = @_; return $text =~ /^# \Q$key\E (.*)$/m ? $1 : undef }

# The newest bench session of each lab in the data file, as Data.pm's latest() reads it.
my (@csv, %last_commit);
{
    open my $fh, '<', $CSV or die "$CSV: $!";
    chomp(my $h = <$fh>);
    my @cols = split /,/, $h;
    while (my $line = <$fh>) {
        chomp $line;
        next unless length $line;
        my %r;
        @r{@cols} = split /,/, $line, -1;
        push @csv, \%r;
        $last_commit{ $r{lab} } = $r{commit};
    }
}
my @latest = grep { $_->{commit} eq $last_commit{ $_->{lab} } } @csv;

# ---- the roofline: flop per point of each stencil as written, over the minimal bytes ----
{
    my $out = data_pl('roofline', $GPU);
    is(head_of($out, 'gpu'), 'NVIDIA H100 80GB HBM3', 'roofline: the GPU is named from the data');
    like(head_of($out, 'commit') // '', qr/\Q$last_commit{lab5b_register_queue}\E/, 'roofline: the commit of the latest session');
    my @rows = rows_of($out);
    ok(@rows >= 40, 'roofline: every variant placed (' . scalar(@rows) . ' points)');
    my @blocks = grep { /\S/ } split /\n\n\n/, $out;
    my %want = (1 => 2, 6 => 11);  # lab => flop per point (lab 1's difference, lab 6's derivative)
    my $bad = 0;
    for my $b (@blocks[ 1 .. $#blocks ]) {
        my ($lab) = $b =~ /^"lab (\d+)/m or next;
        for my $f (rows_of($b)) {
            my ($variant, $order, $dims, $flop, $bytes, $ai, $gflops) = @$f;
            my $expect = $lab == 1 ? 2 : $lab <= 5 ? 1 + 3.5 * ($order || 2) : $lab == 6 ? 11
                : $lab == 7 ? ($dims == 3 ? 9 : 7) : 33;
            my $bpp = $lab == 8 ? 16 : 8;
            if ($flop != $expect || $bytes != $bpp || abs($ai - $expect / $bpp) > 1e-3) {
                diag("lab $lab $variant order $order: $flop flop / $bytes B = $ai, expected $expect / $bpp");
                $bad++;
            }
            # a passing row of the latest session with these Gpts/s x flop
            my @src = grep { lab_n($_->{lab}) == $lab && $_->{variant} eq $variant && $_->{order} == $order
                && $_->{status} eq 'PASS' && abs($gflops - $_->{gpts} * $expect) <= 0.1 + 1e-4 * $gflops } @latest;
            if (!@src) {
                diag("lab $lab $variant order $order: $gflops Gflop/s is no row's Gpts/s x $expect");
                $bad++;
            }
        }
    }
    is($bad, 0, 'roofline: flop/byte = the stencil\'s flop count / 8 bytes (7-point: 1, order k: (1 + 3.5k)/8) and Gflop/s = Gpts/s x flop');
    my %ai = map { ("$_->[0] $_->[1]" => $_->[5]) } grep { $_->[0] =~ /^queue_16x16$/ } @rows;
    is($ai{'queue_16x16 12'}, '5.3750', 'roofline: order 12 is 43 flop over 8 bytes');
    is($ai{'queue_16x16 2'}, '1.0000', 'roofline: the 7-point stencil is 8 flop over 8 bytes');
}
sub lab_n { return ($_[0] =~ /^lab(\d+)/)[0] }
# the figures' lab column is plots/Data.pm's lab_style (the number, + 10 for a part b: 5a 5, 5b 15);
# its lab_number orders the labs (5a and 5b between 5 and 6)
sub lab_s { return Data::lab_style(@_) }
sub lab_order { return Data::lab_number(@_) }

# ---- the 7-point journey: labs 2-5 on one problem, in lab order ----
{
    my $out = data_pl('journey', $GPU);
    my @rows = rows_of($out, 0);
    my @labs = map { $_->[1] } @rows;
    my %lab_of_style = map { (lab_s($_->{lab}) => $_->{lab}) } @latest;
    my @order = map { lab_order($lab_of_style{$_} // '') } @labs;
    is_deeply([ sort { $a <=> $b } @order ], \@order, 'journey: variants in lab order');
    is_deeply([ sort { $a <=> $b } keys %{ { map { $_ => 1 } @labs } } ], [ 2, 3, 4, 5, 15 ], 'journey: labs 2 to 5b');
    my %csv_gpts = map { ("$_->{lab} $_->{variant}" => $_) }
        grep { $_->{nx} == 512 && $_->{ny} == 512 && $_->{nz} == 512 && ($_->{order} || 2) == 2 && !$_->{steps} } @latest;
    my $bad = 0;
    for my $r (@rows) {
        my ($row) = grep { lab_s($_->{lab}) == $r->[1] && $_->{variant} eq $r->[2] } values %csv_gpts;
        if (!$row || abs($r->[3] - $row->{gpts}) > 0.01 || abs($r->[4] - $row->{copy_gbps} / 8) > 0.01) {
            diag("lab $r->[1] $r->[2]: $r->[3] Gpts/s, bound $r->[4]");
            $bad++;
        }
    }
    is($bad, 0, 'journey: Gpts/s and the bound copy GB/s / 8 of the 512^3 order-2 rows');
    is(scalar(@rows), scalar(grep { /^lab[2-5][a-z]?_/ } keys %csv_gpts), 'journey: every variant of labs 2-5b at 512^3');
}

# ---- bandwidth: one group per lab, each with its own copy roof ----
{
    my $out = data_pl('bandwidth', $GPU);
    my @groups = rows_of($out, 1);
    my @labs = map { $_->[2] } @groups;
    my %labs = map { ($_->{lab} => 1) } @latest;
    is_deeply(\@labs, [ map { lab_s($_) } sort { lab_order($a) <=> lab_order($b) } keys %labs ], 'bandwidth: a group per lab, in order');
    my $overlap = grep { $groups[$_][0] <= $groups[ $_ - 1 ][1] + 1 } 1 .. $#groups;
    is($overlap, 0, 'bandwidth: an empty slot between labs');
}

# ---- the profiles: a bar older than its lab's newest profile is stale ----
{
    my $out = data_pl('measured', $GPU);
    my @rows = rows_of($out);
    my @stale = map { $_->[2] } grep { $_->[-1] == 1 } @rows;
    # lab 5b was profiled at orders 8 and 12 after its order 2 profile (lab 5a's, order 2, is its only
    # one); lab 7's gm and tb again at
    # 5a8b1a0 (the profile's count of runs fixed), its shm and fused_s4 not
    my @other = grep { !(/^"lab5b / && !/ k(8|12)"$/) && !/^"lab7 (shm|fused_s4)"$/ } @stale;
    ok(@stale && !@other, "measured: the shipped profiles' stale bars are lab 5b's order 2 and lab 7's shm and fused_s4 profiles (@stale)");
    # two runs of make profile: the second re-profiles one variant only
    my $dir = tmpdir();
    open my $fh, '>', "$dir/Fake-profile.csv" or die;
    print $fh <<'CSV';
gpu,lab,variant,nx,ny,nz,order,steps,model_read,model_write,dram_read_bytes,dram_write_bytes,l2_read_bytes,l1_sectors_per_request,occupancy_pct,stall_1,stall_1_cpi,stall_2,stall_2_cpi,commit,code_path
Fake GPU,lab3_shared_tiling,tile_T4,512,512,512,0,0,8.00,1.00,4.00,3.90,,,,,,,,aaaaaaa,sm_90
Fake GPU,lab3_shared_tiling,tile_T6,512,512,512,0,0,3.38,1.00,4.00,3.90,,,,,,,,aaaaaaa,sm_90
Fake GPU,lab3_shared_tiling,tile_T4,512,512,512,0,0,8.00,1.00,5.20,3.90,,,,,,,,bbbbbbb,sm_90
CSV
    close $fh;
    my $rel = File::Spec->abs2rel($dir);  # figures.pl reads data/GPU-profile.csv
    my $fake = data_pl('measured', "../$rel/Fake");
    my %st = map { ($_->[2] => "$_->[4] $_->[5] $_->[6]") } rows_of($fake);
    is($st{'"lab3 tile_T4"'}, '1.30 bbbbbbb 0', 'measured: a re-profiled bar takes the newest profile, not stale');
    is($st{'"lab3 tile_T6"'}, '1.00 aaaaaaa 1', 'measured: a bar only in an older profile of its lab is stale');
    is(head_of($fake, 'commit'), 'bbbbbbb', 'measured: the title names the newest profile');
}

# ---- lab 9: the speed-up over one process, and how much of the exchange the overlap hides ----
{
    my $d = tmpdir();
    open my $in, '<', $CSV or die;
    chomp(my $head = <$in>);
    my @cols = split /,/, $head;
    open my $fh, '>', "$d/Two.csv" or die;
    print $fh "$head\n";
    # variant, nz, ranks, gpus, ms for 6 steps of 512x512xnz
    # the one-process runs at a slab plus its ghost zone (256 + 4 planes) are each variant's baseline
    for my $r (['mpi_staged', 512, 1, 1, 10.0], ['mpi_overlap', 512, 1, 1, 10.2], ['mpi_staged', 260, 1, 1, 5.0],
               ['mpi_overlap', 260, 1, 1, 5.1], ['nccl', 260, 1, 1, 5.0], ['nccl_overlap', 260, 1, 1, 5.1],
               ['mpi_staged', 256, 1, 1, 4.9],  # a slab without its ghost zone: not the baseline
               ['mpi_staged', 512, 2, 2, 6.0], ['mpi_overlap', 512, 2, 2, 5.2], ['nccl', 512, 2, 2, 5.5],
               ['nccl_overlap', 512, 2, 2, 5.12], ['mpi_staged', 512, 2, 2, 9.9],  # a repeated run: the first counts
               ['mpi_staged', 512, 2, 1, 13.0], ['mpi_overlap', 512, 2, 1, 11.0],
               ['nccl_graph', 512, 2, 2, 5.0], ['nccl_overlap', 1024, 2, 2, 10.5], ['nccl_overlap', 512, 1, 1, 10.2],
               ['copy_overlap', 260, 1, 1, 5.1], ['copy_overlap', 512, 2, 2, 5.14],  # no staged twin
               # thinner slabs, for the slab figure (it needs three thicknesses)
               ['nccl_overlap', 128, 1, 1, 2.6], ['nccl_overlap', 128, 2, 2, 2.0], ['nccl_overlap', 1024, 1, 1, 20.4]) {
        my ($v, $nz, $ranks, $gpus, $ms) = @$r;
        my %row = (gpu => 'Two GPUs', lab => 'lab9_multigpu', variant => $v, nx => 512, ny => 512, nz => $nz, order => 0,
                   steps => 6, median_ms => $ms, min_ms => $ms, gpts => sprintf('%.3f', 512 * 512 * $nz * 6 / $ms / 1e6),
                   status => 'PASS', commit => 'c0ffee', ranks => $ranks, gpus => $gpus, timing => 'launch');
        print $fh join(',', map { $row{$_} // 0 } @cols), "\n";
    }
    close $fh;
    my $two = '../' . File::Spec->abs2rel($d) . '/Two';
    my %speedup = map { ("$_->[0] $_->[2]/$_->[3]" => $_->[6]) } rows_of(data_pl('scaling', $two));
    is(sprintf('%.3f', $speedup{'mpi_staged 2/2'}), '1.667', 'scaling: 2 processes against 1 of the same variant and size');
    is(sprintf('%.3f', $speedup{'mpi_overlap 2/2'}), '1.962', 'scaling: the overlapped variant against its own 1-process row');
    ok(exists $speedup{'mpi_staged 2/1'}, 'scaling: a run whose processes shared a GPU is listed (the table marks it)');
    my @h = rows_of(data_pl('hiding', $two));
    is(scalar(@h), 3, 'hiding: one row per staged/overlapped pair, and per overlapped variant with no twin, on one GPU per process (shared GPUs left out)');
    my %h = map { ($_->[0] => "@$_[2,4,5,6,7]") } @h;
    # compute 5 ms / 6 steps; the exchange over 5 steps: (6 - 5) ms staged, (5.2 - 5.1) ms still
    # exposed by the overlapped variant against its own baseline: 90% hidden
    is($h{'mpi_staged/mpi_overlap'}, '256 833.33 200.00 20.00 0.900', 'hiding: slab compute, exchange, exposed part, hidden share (MPI)');
    is($h{'nccl/nccl_overlap'}, '256 833.33 100.00 4.00 0.960', 'hiding: the same for NCCL, each variant against its own 1-process slab');
    # copy_overlap: (5.14 - 5.1) ms over 5 steps still exposed; no exchange of its own to hide
    is($h{'-/copy_overlap'}, '256 850.00 - 8.00 -', 'hiding: a variant with no staged twin shows only what it exposes');
    my %weak = map { ($_->[0] => "@$_[1,3,4,6]") } rows_of(data_pl('weak', $two));
    # 512x512x1024 on 2 GPUs in 10.5 ms against 512^3 on one in 10.2: 10.2 / 10.5 of perfect
    is($weak{nccl_overlap}, '512x512x512 512x512x1024 2 0.9714', 'weak: N stacked grids on N GPUs against one grid on one');
    # mpi_staged: 512^3 on 2 GPUs (6.0 ms) against 512x512x256 on one (4.9 ms); nccl (no 256 row) not listed
    is($weak{mpi_staged}, '512x512x256 512x512x512 2 0.8167', 'weak: any N-process run whose 1/N grid ran on one process');
    is(scalar(keys %weak), 2, 'weak: only runs whose one-process grid was measured');
    my @g = rows_of(data_pl('graphs', $two));
    is(scalar(@g), 1, 'graphs: a row where nccl_overlap and nccl_graph both ran');
    is("@{ $g[0] }", '512x512x512 2 2 853.33 833.33 20.00', 'graphs: per step, each, and what the graph saves');
    my $slabs = data_pl('slabs', $two);
    my @blocks = grep { /\S/ } split /\n\n\n/, $slabs;
    is(scalar(@blocks), 3, 'slabs: a block per variant with a 1-process row, runs on shared GPUs left out');
    like($slabs, qr/^mpi_overlap planes speedup\n256 1\.9615$/m, 'slabs: planes per slab and the speed-up over one process');
  SKIP: {
        skip 'gnuplot not installed', 3 if system('command -v gnuplot >/dev/null') != 0;
        my $r = run('gnuplot', '-e', "out='$d/slabs.png'; gpu='Two GPUs'; gpufile='$two'", 'plots/lab9_slabs.gp');
        is($r->{status}, 0, 'lab9_slabs.gp draws made-up 2-GPU rows') or diag($r->{err});
        unlike($r->{err}, qr/no valid points/, 'lab9_slabs.gp: no empty block after the last variant');
        ok(-s "$d/slabs.png" && -s "$d/slabs.png" > 10_000, 'lab9_slabs.gp: a PNG of a readable size');
    }
}

# ---- make compare's data: a student's CSV beside the reference rows of the same problem ----
my $dir = tmpdir();
my @lab3 = grep { $_->{lab} eq 'lab3_shared_tiling' && $_->{status} eq 'PASS' && $_->{nx} == 512 } @latest;
ok(@lab3 >= 2, 'the data has lab 3 rows at 512^3 to make a student CSV from');
{
    open my $in, '<', $CSV or die;
    chomp(my $head = <$in>);
    my @cols = split /,/, $head;
    open my $out, '>', "$dir/mine.csv" or die;
    print $out "$head\n";
    my $i = 0;
    for my $r (@lab3) {
        my %s = (%$r, gpu => 'Student GPU', commit => 'feedc0de', pct_copy => sprintf('%.2f', $r->{pct_copy} / 2));
        $s{status} = 'FAIL' if $i++ == 1;
        print $out join(',', @s{@cols}), "\n";
    }
    # the same problem timed back to back: not the reference's launch-timed row
    my %b2b = (%{ $lab3[0] }, gpu => 'Student GPU', commit => 'feedc0de', timing => 'b2b', pct_copy => '11.00');
    print $out join(',', @b2b{@cols}), "\n";
    # a size the reference never ran: the student's bar alone
    my %odd = (%{ $lab3[0] }, gpu => 'Student GPU', commit => 'feedc0de', nx => 100, ny => 100, nz => 100, pct_copy => '12.00');
    print $out join(',', @odd{@cols}), "\n";
    close $out;
}
{
    my $out = data_pl('compare', "$dir/mine.csv", $GPU);
    is(head_of($out, 'gpu'), 'Student GPU', 'compare: the student\'s GPU');
    is(head_of($out, 'reference gpu'), 'NVIDIA H100 80GB HBM3', 'compare: the reference\'s GPU');
    is(head_of($out, 'reference commit'), $last_commit{lab3_shared_tiling}, 'compare: the reference\'s latest session');
    my @rows = rows_of($out, 0);
    is(scalar(@rows), @lab3 + 2, 'compare: one bar pair per student row');
    my $bad = 0;
    for my $i (0 .. $#lab3) {
        my $r = $rows[$i];
        my $want = sprintf('%s %.2f %.2f %s', $lab3[$i]{variant}, $lab3[$i]{pct_copy} / 2, $lab3[$i]{pct_copy},
            $i == 1 ? 'FAIL' : 'PASS');
        (my $variant = $r->[2]) =~ s/^"|"$//g;
        my $got = "$variant $r->[3] $r->[4] $r->[5]";
        if ($got ne $want) { diag("got '$got', expected '$want'"); $bad++ }
    }
    is($bad, 0, 'compare: the student\'s % copy beside the reference\'s of the same variant and size, FAIL kept');
    is("$rows[-2][2] $rows[-2][3] $rows[-2][4]", "\"$lab3[0]{variant} (b2b)\" 11.00 -",
        'compare: a row timed back to back is named so, and not put beside a launch-timed reference row');
    is("$rows[-1][3] $rows[-1][4]", '12.00 -', 'compare: a size the reference has not run has no reference bar');
    is(scalar(rows_of($out, 1)), 2, 'compare: a group per problem (512^3 and 100^3)');
    my $r = run('perl', 'plots/figures.pl', 'compare', 'README.md');
    isnt($r->{status}, 0, 'compare: a file that is not a lab CSV is refused');
    like($r->{err}, qr/not a CSV written by/, 'compare: and says why');
}

# ---- migrate.pl: a CSV of an older header (the current one less its last column) brought up to date ----
SKIP: {
    my ($prog) = grep { -x } map { ("./sol$_", "./lab$_") } 1 .. 9;
    skip 'no lab program built (make all): migrate.pl asks one for the header', 5 unless $prog;
    my $l = listing($prog);
    my @now = split /,/, $l->{csv};
    my $last = pop @now;
    ok(exists { ranks => 1, gpus => 1, timing => 1, code_path => 1 }->{$last}, "the header's last column has a default ($last)");
    my $d = tmpdir();
    open my $fh, '>', "$d/old.csv" or die;
    print $fh join(',', @now), "\n", join(',', map { "v$_" } 0 .. $#now), "\n";
    close $fh;
    my $r = run('perl', 'plots/migrate.pl', 'migrate', "$d/old.csv");
    is($r->{status}, 0, 'migrate: an older header is brought up to date') or diag($r->{err});
    open $fh, '<', "$d/old.csv" or die;
    chomp(my @lines = <$fh>);
    is($lines[0], $l->{csv}, 'migrate: the file now has the programs\' header (--list)');
    like($lines[1], qr/^v0,.*,v$#now,[^,]+$/, 'migrate: the row keeps its values and gains the new column\'s default');
    open $fh, '>', "$d/alien.csv" or die;
    print $fh "a,b,c\n1,2,3\n";
    close $fh;
    $r = run('perl', 'plots/migrate.pl', 'migrate', "$d/alien.csv");
    isnt($r->{status}, 0, 'migrate: a header that is no prefix of the current one is refused, the file untouched');
}

SKIP: {
    skip 'gnuplot not installed (Debian: gnuplot-nox): make plots and make compare not run', 1
        if system('command -v gnuplot >/dev/null') != 0;
    my @scripts = glob 'plots/*.gp';
    ok(@scripts, 'plots/ has gnuplot scripts (' . scalar(@scripts) . ')');
    ok(-f 'plots/journey_7pt.gp' && -f 'plots/roofline.gp', 'the journey and roofline figures have scripts');
    my $pdir = tmpdir();
    # a make of its own, not a child of the make that runs the tests (its jobserver would warn)
    local @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL)};
    delete @ENV{qw(MAKEFLAGS MFLAGS MAKELEVEL)};
    my $r = run("make -s plots PLOTDIR=$pdir");
    is($r->{status}, 0, 'make plots exits 0') or diag($r->{err});
    # Figures whose data only a machine the course has not yet run on can make: drawn above from
    # made-up rows; skipped here only while the shipped data has none of their rows.
    my %thick = map { /^(\d+) / ? ($1 => 1) : () } split /\n/, data_pl('slabs', $GPU);
    my %pending = ('plots/lab9_slabs.gp' => keys(%thick) < 3 ? 'fewer than 3 slab thicknesses of lab 9 on several GPUs in the shipped data' : undef);
    for my $gp (@scripts) {
        my $png = basename($gp, '.gp') . '.png';
        my $path = "$pdir/$png";
        if ($pending{$gp} && !-e $path) {
            pass("$gp made no $png: $pending{$gp}");
            next;
        }
        # the shipped data has every figure's inputs: a script that skipped its figure is a failure
        ok(-s $path && -s $path > 10_000, "$gp made $png (" . (-s $path // 0) . " bytes)");
        is_png($path);
    }
    # The tracked figures are what the committed data makes (make plots in a clean clone changes
    # nothing): byte for byte, where this gnuplot is the one that drew them (plots/gnuplot.version;
    # another version draws other bytes from the same data).
    chomp(my $have = `gnuplot --version`);
    my $drew = do { open my $v, '<', 'plots/gnuplot.version' or die "plots/gnuplot.version: $!"; local $/; <$v> } // '';
    chomp $drew;
  SKIP: {
        skip "this gnuplot ($have) is not the one that drew the tracked figures ($drew)", 1 if $have ne $drew;
        my @stale = grep { my $p = "$pdir/" . basename($_); !-e $p || system('cmp', '-s', $_, $p) != 0 } split /\n/, `git ls-files 'plots/*.png'`;
        is("@stale", '', 'every tracked figure is what make plots draws from the committed data (else: make plots, commit)');
    }

    # make compare: the PNG next to the CSV, or at OUT=
    $r = run("make -s compare CSV=$dir/mine.csv");
    is($r->{status}, 0, 'make compare CSV=mine.csv exits 0') or diag($r->{err});
    ok(-s "$dir/mine.png" && -s "$dir/mine.png" > 10_000, 'make compare wrote mine.png next to the CSV');
    is_png("$dir/mine.png");
    unlike($r->{err}, qr/warning/i, 'make compare: gnuplot had nothing to warn about') or diag($r->{err});
    $r = run("make -s compare CSV=$dir/mine.csv OUT=$dir/report/fig.png");
    isnt($r->{status}, 0, 'make compare: OUT= in a folder that does not exist fails');
    mkdir "$dir/report";
    $r = run("make -s compare CSV=$dir/mine.csv OUT=$dir/report/fig.png");
    is($r->{status}, 0, 'make compare OUT=... exits 0') or diag($r->{err});
    is_png("$dir/report/fig.png");
    $r = run('make -s compare');
    is($r->{status}, 2, 'make compare without CSV= exits 2');
    like($r->{err}, qr/give CSV=/, 'make compare without CSV= says what to give');
    $r = run("make -s compare CSV=$dir/none.csv");
    like($r->{err}, qr/no file/, 'make compare: a missing CSV is named');
    open my $fh, '>', "$dir/empty.csv" or die;
    print $fh (split /\n/, `head -1 $CSV`)[0], "\n";
    close $fh;
    $r = run("make -s compare CSV=$dir/empty.csv");
    isnt($r->{status}, 0, 'make compare: a CSV without rows fails');
    like($r->{err}, qr/no rows of a variant/, 'make compare: and says so');
    ok(!-e "$dir/empty.png", 'make compare: no PNG from a CSV without rows');
}

sub is_png {
    my ($path) = @_;
    open my $fh, '<:raw', $path or return fail("$path: $!");
    read $fh, my $magic, 8;
    is($magic, "\x89PNG\r\n\x1a\n", basename($path) . ' is a PNG');
}
done_testing();
