#!/usr/bin/env perl
# SPDX-License-Identifier: MIT
# The gnuplot inputs of the course's figures, from the measured CSV under data/ (plots/Data.pm),
# one subcommand a figure; each input starts with comment lines "# gpu G" and "# commit C" (C
# names the labs of each commit where they differ) for the titles.
#
#   perl plots/figures.pl bandwidth GPU         every variant's GB/s at its lab's default problem, grouped by lab
#   perl plots/figures.pl journey GPU           labs 2-5 on the 7-point problem: Gpoints/s and the 8-byte bound
#   perl plots/figures.pl roofline GPU          flop/byte and Gflop/s of every variant, one block per lab
#   perl plots/figures.pl compare CSV [GPU]     a student's CSV beside the reference rows: % of copy per variant
#   perl plots/figures.pl convergence GPU LAB   n, h, max error per variant (gnuplot input)
#   perl plots/figures.pl table1 GPU VARIANT    lab 5b's Mpoints/s by order, one block per volume
#   perl plots/figures.pl table1pct GPU VARIANT [VOLUME...]
#                                               lab 5b: % of the 8-byte bound by order, over the volumes
#   perl plots/figures.pl measured [GPU]        model and ncu-measured read redundancy per variant, and
#                                               whether its profile is older than the lab's newest
#   perl plots/figures.pl lab7fs GPU            lab 7: Gpoint-steps/s of fused_sN and its speed-up over gm
#   perl plots/figures.pl lab7variants GPU      lab 7: Gpoint-steps/s of every variant and the 1-step bound
#   perl plots/figures.pl lab7sizes GPU         lab 7: Gpoint-steps/s against the 2D size, one block per variant
#   perl plots/figures.pl lab7_3d GPU           lab 7: the 3D rows (variant, size, steps, Gpoint-steps/s, bound)
#   perl plots/figures.pl lab7heatmap GPU [F]   lab 7: the heat map's file, its size and steps (nothing if absent)
#   perl plots/figures.pl lab8variants GPU      lab 8: Gpoint-steps/s of every variant and the 16-byte bound
#   perl plots/figures.pl table2 GPU            lab 8: 003's Table 2 (Mpoints/s by tile and volume) beside 003's figures
#   perl plots/figures.pl scaling GPU           lab 9: Gpoint-steps/s with 1 and N processes, and the speed-up
#   perl plots/figures.pl slabs GPU             lab 9: speed-up over one process against planes per slab, a block
#                                               per variant (512x512 planes, one GPU per process)
#   perl plots/figures.pl hiding GPU            lab 9: per step, the slab's compute, the exchange, how much is hidden
#   perl plots/figures.pl weak GPU              lab 9: N processes on N stacked grids against one process on one
#   perl plots/figures.pl graphs GPU            lab 9: per step, nccl_overlap against its CUDA graph (nccl_graph)
#
# GPU is a data file's name without .csv (default: the H100 the course ships data for).
use strict;
use warnings;
use sort 'stable';
use FindBin;
use lib $FindBin::Bin;
use Data;

# Every variant's effective bandwidth at its lab's default problem (its headline row), grouped
# by lab. Block 0: x, lab style, variant, GB/s, copy GB/s, % copy. Block 1, one line per lab:
# first and last x, lab style, that session's copy GB/s (the roof), "name", "problem", "id". (The
# style: Data.pm's lab_style, the figures' colour and point type; the id: "5a".)
sub cmd_bandwidth {
    my ($gpu) = @_;
    my @rows = headline_rows(last_per_key(latest(read_csv(gpu_file($gpu, '')))));
    return unless @rows;
    print_head('', @rows);
    my ($bars, $groups) = bar_layout(@rows);
    print "# x lab variant gbps copy_gbps pct\n";
    printf "%d %d %s %.1f %.1f %.2f\n", $_->[0], lab_style($_->[1]{lab}), $_->[1]{variant}, $_->[1]{gbps},
        $_->[1]{copy_gbps}, $_->[1]{pct_copy} for @$bars;
    print "\n\n# from to lab copy_gbps name problem id\n";
    printf "%d %d %d %.1f \"%s\" \"%s\" \"%s\"\n", $_->[0], $_->[1], lab_style($_->[2]), $_->[3]{copy_gbps},
        lab_name($_->[2]), problem_phrase($_->[3]), lab_id($_->[2]) for @$groups;
}

# Labs 2-5 on one problem, the 7-point stencil at lab 2's default size (512^3, order 2, no
# steps): Gpoints/s of every variant in lab order. Block 0: x, lab style, variant, Gpts/s, the
# bound copy GB/s / 8 bytes, % copy. Block 1, one line per lab: first and last x, lab style,
# that lab's bound, "name", "id".
sub cmd_journey {
    my ($gpu) = @_;
    my @rows = session_rows($gpu);
    my ($first) = grep { $_->{lab} =~ /^lab2_/ } @rows;
    return unless $first;
    @rows = grep {
        $_->{lab} =~ /^lab[2-5][a-z]?_/ && size_of($_) eq size_of($first) && ($_->{order} || 2) == 2 && !$_->{steps}
    } @rows;
    print_head('', @rows);
    print "# problem ", problem_phrase($first), "\n";
    my ($bars, $groups) = bar_layout(@rows);
    print "# x lab variant gpts bound pct\n";
    printf "%d %d %s %.2f %.2f %.2f\n", $_->[0], lab_style($_->[1]{lab}), $_->[1]{variant}, $_->[1]{gpts},
        $_->[1]{copy_gbps} / 8, $_->[1]{pct_copy} for @$bars;
    print "\n\n# from to lab bound name id\n";
    printf "%d %d %d %.2f \"%s\" \"%s\"\n", $_->[0], $_->[1], lab_style($_->[2]), $_->[3]{copy_gbps} / 8,
        lab_name($_->[2]), lab_id($_->[2]) for @$groups;
}

# The roofline's points: every variant at its lab's default problem (lab 5b: every order; lab 7:
# its 2D and its 3D problem), one gnuplot block per lab whose column head is the key's entry.
# Columns: variant, order, dimensions, flop/point, bytes/point, flop/byte, Gflop/s, copy GB/s,
# % copy, and a name to write beside the point or "-": each lab's variant farthest below the
# memory roof where it is below 2/3 of the lab's best, and every point above its roof (it moves
# fewer bytes than the minimal traffic: data kept on chip across steps). A line "# labs N..."
# gives the blocks' lab styles (Data.pm's lab_style: colour and point type).
sub cmd_roofline {
    my ($gpu) = @_;
    # lab 9 computes with lab 8's queue4 on more GPUs: its points would sit on lab 8's
    my @rows = grep { $_->{lab} !~ /^lab9_/ && defined flops_per_point($_) && bytes_per_point($_) }
               default_problem(session_rows($gpu));
    return unless @rows;
    print_head('', @rows);
    my (%by, @labs);
    for my $r (@rows) {
        push @labs, $r->{lab} unless $by{ $r->{lab} };
        push @{ $by{ $r->{lab} } }, $r;
    }
    @labs = sort { lab_number($a) <=> lab_number($b) } @labs;
    print "# labs ", join(' ', map { lab_style($_) } @labs), "\n";
    for my $lab (@labs) {
        my @l = @{ $by{$lab} };
        my ($hi, $lo) = (sort { $b->{pct_copy} <=> $a->{pct_copy} } @l)[ 0, -1 ];
        my %mark = map { $_ => 1 } grep { $_->{pct_copy} > 105 } @l;
        $mark{$lo} = 1 if $lo->{pct_copy} < $hi->{pct_copy} * 2 / 3;
        my %f = map { flops_per_point($_) => 1 } @l;
        my @f = sort { $a <=> $b } keys %f;
        my $fl = @f == 1 ? "$f[0] flop" : "$f[0]-$f[-1] flop";
        my %b = map { bytes_per_point($_) => 1 } @l;
        print "\n\n\"", lab_title($lab), " ($fl / ", join('-', sort { $a <=> $b } keys %b), " B)\"",
            " order dims flop bytes ai gflops copy_gbps pct mark\n";
        for my $r (@l) {
            my ($f, $bpp) = (flops_per_point($r), bytes_per_point($r));
            my $name = $r->{variant} . ($r->{order} && $r->{order} != 2 ? "_k$r->{order}" : '')
                . (lab_number($lab) == 7 && dims_of($r) == 3 ? '_3D' : '');
            printf "%s %d %d %g %d %.4f %.1f %.1f %.2f %s\n", $r->{variant}, $r->{order}, dims_of($r), $f, $bpp,
                $f / $bpp, $r->{gpts} * $f, $r->{copy_gbps}, $r->{pct_copy}, $mark{$r} ? $name : '-';
        }
    }
}

# A student's CSV (--csv FILE, any of its labs) beside the reference rows of the same problem
# (lab, variant, size, order, steps) timed the same way: % of each GPU's own copy bandwidth.
# The student's newest row of each key counts. Block 0: x, group, "variant" (with its timing
# where it is not launch), student % copy, reference % copy ("-" where the reference has no
# such row), the student's status. Block 1, one line per problem: first and last x, lab number, "name",
# "problem".
sub cmd_compare {
    my ($csv, $gpu) = @_;
    die "usage: figures.pl compare CSV [GPU]\n" unless defined $csv;
    my @all = read_csv($csv);
    for my $col (qw(gpu lab variant nx ny nz order steps pct_copy status commit)) {
        die "figures.pl compare: $csv has no column $col: not a CSV written by ./labN --csv\n"
            if @all && !exists $all[0]{$col};
    }
    my @mine = last_per_key(grep { $_->{status} ne 'INFO' && $_->{variant} ne 'empty_kernel' } @all);
    die "figures.pl compare: $csv has no rows of a variant (run ./labN --csv $csv first)\n" unless @mine;
    my $ref_file = gpu_file($gpu, '');
    my @ref = -e $ref_file ? last_per_key(grep { $_->{status} eq 'PASS' } latest(read_csv($ref_file))) : ();
    my $problem = sub { my ($r) = @_; join ' ', $r->{lab}, size_of($r), $r->{order}, $r->{steps} };
    # the same timing too: a row from before the timing column was timed launch by launch
    my $timing = sub { my ($r) = @_; return $r->{timing} || 'launch' };
    my %ref = map { ($problem->($_) . " $_->{variant} " . $timing->($_) => $_) } @ref;
    # one group per problem, in lab order, then as they come
    my (%grp, @order);
    for my $r (@mine) {
        my $k = $problem->($r);
        push @order, $k unless $grp{$k};
        push @{ $grp{$k} }, $r;
    }
    @order = sort { lab_number($grp{$a}[0]{lab}) <=> lab_number($grp{$b}[0]{lab}) } @order;
    my ($x, @bars, @groups, @matched) = (0);
    for my $k (@order) {
        my $from = $x;
        for my $r (@{ $grp{$k} }) {
            my $ref = $ref{ "$k $r->{variant} " . $timing->($r) };
            push @matched, $ref if $ref;
            my $name = $r->{variant} . ($timing->($r) eq 'launch' ? '' : " (" . $timing->($r) . ")");
            push @bars, sprintf "%d %d \"%s\" %.2f %s %s", $x++, scalar(@groups), $name, $r->{pct_copy},
                $ref ? sprintf("%.2f", $ref->{pct_copy}) : '-', $r->{status};
        }
        push @groups, sprintf "%d %d %d \"%s\" \"%s\" \"%s\"", $from, $x - 1, lab_style($grp{$k}[0]{lab}),
            lab_name($grp{$k}[0]{lab}), problem_phrase($grp{$k}[0]), lab_id($grp{$k}[0]{lab});
        $x++;
    }
    print_head('', @mine);
    print "# reference ", ($ref_file =~ s{^data/|\.csv$}{}gr), "\n";
    print_head('reference ', @matched) if @matched;
    printf "# missing %d of %d rows have no reference row (another size, order, steps or timing)\n",
        @mine - @matched, scalar @mine;
    print "# x group variant pct ref_pct status\n", map { "$_\n" } @bars;
    print "\n\n# from to lab name problem\n", map { "$_\n" } @groups;
}

sub cmd_convergence {
    my ($gpu, $lab) = @_;
    my @rows = grep { $_->{lab} eq $lab } latest(read_csv(gpu_file($gpu, '-convergence')));
    return unless @rows;
    print_head('', @rows);
    my %seen;
    for my $r (@rows) {
        print "\n\n$r->{variant} h max_err rms_err\n" unless $seen{$r->{variant}}++;
        print "$r->{n} $r->{h} $r->{max_err} $r->{rms_err}\n";
    }
}

# Mpoints/s against order for each volume of a variant (gnuplot blocks), and the bound.
sub cmd_table1 {
    my ($gpu, $variant) = @_;
    my @rows = table1_rows($gpu, $variant);
    return unless @rows;
    print_head('', @rows);
    my (%by, @vols);
    for my $r (@rows) {
        my $v = size_of($r);
        push @vols, $v unless $by{$v};
        push @{ $by{$v} }, $r;
    }
    for my $v (@vols) {
        print "\n\n$v order mpts bound\n";
        printf "%d %.0f %.0f\n", $_->{order}, 1000 * $_->{gpts}, 1000 * $_->{copy_gbps} / 8 for sort { $a->{order} <=> $b->{order} } @{ $by{$v} };
    }
}

# % of the 8-byte bound (Gpts/s / (copy GB/s / 8), which is % copy) of a variant against the
# order, over the volumes named (003's Table 1 volumes): order, mean, min, max, volumes measured.
sub cmd_table1pct {
    my ($gpu, $variant, @vols) = @_;
    my %want = map { $_ => 1 } @vols;
    my @rows = grep { !@vols || $want{ size_of($_) } } table1_rows($gpu, $variant);
    return unless @rows;
    print_head('', @rows);
    my %by;
    push @{ $by{ $_->{order} } }, $_->{pct_copy} for @rows;
    print "# order mean min max volumes\n";
    for my $k (sort { $a <=> $b } keys %by) {
        my @p = sort { $a <=> $b } @{ $by{$k} };
        my $sum = 0;
        $sum += $_ for @p;
        printf "%d %.2f %.2f %.2f %d\n", $k, $sum / @p, $p[0], $p[-1], scalar @p;
    }
}

# Model and measured read redundancy per variant, from data/<GPU>-profile.csv (`--profile --csv`:
# the last row of each lab, order and variant), grouped by lab with one empty slot between labs.
# A bar is stale (1 in the last column) when its row is older than the lab's newest run of
# make profile (rows of one commit in a row): the kernels it measured may have changed since. Header lines: "# gpu",
# "# commit" (the newest profile of each lab) and, where git knows the commits, "# changed" (the
# labs whose reference kernels changed after their newest profile, and the commit).
sub cmd_measured {
    my ($gpu) = @_;
    my $file = gpu_file($gpu, '-profile');
    die "figures.pl: no profile CSV $file\n" unless -e $file;
    my ($session, $run, %last, %when, @keys, %newest) = (0, '');
    for my $r (read_csv($file)) {
        $session++ if $r->{commit} ne $run;  # one run of make profile: rows of one commit in a row
        $run = $r->{commit};
        my ($lab) = $r->{lab} =~ /^lab(\d+[a-z]?)_/ or next;
        my $key = "lab$lab $r->{variant}" . ($r->{order} && $r->{order} != 2 ? " k$r->{order}" : '');
        push @keys, $key unless $last{$key};
        $last{$key} = sprintf '%.2f %.2f', $r->{model_read}, $r->{dram_read_bytes} / 4;
        $when{$key} = [ $session, $r->{commit}, $lab, $r->{gpu} ];
        $newest{$lab} = [ $session, $r->{commit}, $r->{gpu} ];
    }
    return unless @keys;
    my %lab_of = map { $_ => (/^lab(\d+[a-z]?) /)[0] } @keys;
    my $order = sub { return lab_number("lab$_[0]_") };
    # by lab; within a lab, by variant as first logged, then by order
    my (%first, $i);
    for my $k (@keys) { (my $v = $k) =~ s/ k\d+$//; $first{$v} //= $i++ }
    my $rank = sub { my ($k) = @_; my ($v, $o) = $k =~ /^(.*?)(?: k(\d+))?$/; return ($first{$v}, $o // 2) };
    @keys = sort { $order->($lab_of{$a}) <=> $order->($lab_of{$b}) || ($rank->($a))[0] <=> ($rank->($b))[0]
                   || ($rank->($a))[1] <=> ($rank->($b))[1] } @keys;
    my @ids = sort { $order->($a) <=> $order->($b) } keys %newest;
    my @heads = map { { lab => "lab${_}_", commit => $newest{$_}[1], gpu => $newest{$_}[2] } } @ids;
    print_head('', @heads);
    my @changed = kernels_changed_since(map { [ $_, $newest{$_}[1] ] } @ids);
    print "# changed $_\n" for @changed;
    print "# x lab label model measured commit stale\n";
    my ($x, $prev) = (0, undef);
    for my $k (@keys) {
        $x++ if defined $prev && $prev ne $lab_of{$k};
        my $stale = $when{$k}[0] < $newest{ $lab_of{$k} }[0] ? 1 : 0;
        print "$x $lab_of{$k} \"$k\" $last{$k} $when{$k}[1] $stale\n";
        $prev = $lab_of{$k};
        $x++;
    }
}

# Labs whose reference kernels (solutions/labN_*/kernels.cu, else labs/labN_*/kernels.cu) git
# says changed in a commit after the one profiled: "labs 1-6 at dff242e". A commit that changed
# only comments or blank lines is not a change of the kernels. Nothing without git, or where the
# profiled commit is not in this repository's history.
sub code_of {  # a source without its comments and blank lines, spaces collapsed
    my ($text) = @_;
    return undef unless defined $text;
    $text =~ s{/\*.*?\*/}{ }gs;
    $text =~ s{//[^\n]*}{}g;
    $text =~ s/[ \t]+/ /g;
    return join "\n", grep { /\S/ } split /\n/, $text;
}
sub kernels_changed_since {
    my (%by_change);
    for my $p (@_) {
        my ($n, $commit) = @$p;
        my ($file) = (glob("solutions/lab${n}_*/kernels.cu"), glob("labs/lab${n}_*/kernels.cu"));
        next unless $file && $commit =~ /^[0-9a-f]{7,40}$/;
        my $q = sub { my $out = `git @_ 2>/dev/null`; chomp $out; return $? == 0 ? $out : undef };
        my $change;  # the newest commit that changed the code, not only its comments
        for my $c (split /\n/, $q->("log --format=%h -- '$file'") // '') {
            my ($now, $before) = map { code_of($q->("show '$_:$file'")) } $c, "$c^";
            if (!defined $before || !defined $now || $now ne $before) { $change = $c; last }
        }
        next unless $change;
        next unless defined $q->("merge-base --is-ancestor $commit $change && echo y");
        next if defined $q->("merge-base --is-ancestor $change $commit && echo y");  # the same or older
        push @{ $by_change{$change} }, $n;
    }
    return map { labs_phrase(@{ $by_change{$_} }) . " at $_" } sort keys %by_change;
}

# N, fused_sN's Gpoint-steps/s, gm's, and the speed-up fused_sN / gm, at the default size.
sub cmd_lab7fs {
    my @rows = default_size_rows(lab7_rows(@_));
    my ($gm) = grep { $_->{variant} eq 'gm' } @rows;
    return unless $gm;
    my @fused = sort { $a->[0] <=> $b->[0] } map { $_->{variant} =~ /^fused_s(\d+)$/ ? [ $1, $_ ] : () } @rows;
    return unless @fused;
    stepped_head($gm);
    print "# N gpts gm_gpts speedup\n";
    printf "%d %.3f %.3f %.4f\n", $_->[0], $_->[1]{gpts}, $gm->{gpts}, $_->[1]{gpts} / $gm->{gpts} for @fused;
}

# Every variant at the default size, in the ladder's order, with the single-step bound.
sub cmd_lab7variants {
    my @rows = default_size_rows(lab7_rows(@_));
    return unless @rows;
    my %by = map { $_->{variant} => $_ } @rows;
    my @order = grep { $by{$_} } ('gm', 'shm', (map { "fused_s$_" } 1 .. 8), 'tb');
    stepped_head($rows[0]);
    print "# variant gpts bound\n";
    printf "%s %.3f %.3f\n", $_, $by{$_}{gpts}, lab7_bound($by{$_}) for @order;
}

# Gpoint-steps/s against the 2D size (square grids at the default steps), one gnuplot block
# per variant measured at more than one size (gm, fused_s4, tb in bench.args).
sub cmd_lab7sizes {
    my @all = lab7_rows(@_);
    my @def = default_size_rows(@all);
    return unless @def;
    my $steps = $def[0]{steps};
    my @rows = grep { $_->{nz} == 1 && $_->{nx} == $_->{ny} && $_->{steps} == $steps } @all;
    my (%by, @vars);
    for my $r (@rows) {
        push @vars, $r->{variant} unless $by{ $r->{variant} };
        push @{ $by{ $r->{variant} } }, $r;
    }
    @vars = grep { @{ $by{$_} } > 1 } @vars;
    return unless @vars;
    stepped_head($def[0]);
    for my $i (0 .. $#vars) {
        my $v = $vars[$i];
        print "\n\n" if $i;  # gnuplot's blocks (index i): two blank lines between
        print "$v n gpts bound\n";
        printf "%d %.3f %.3f\n", $_->{nx}, $_->{gpts}, lab7_bound($_) for sort { $a->{nx} <=> $b->{nx} } @{ $by{$v} };
    }
}

# The 3D rows: variant, size, steps, Gpoint-steps/s, bound.
sub cmd_lab7_3d {
    my @rows = grep { $_->{nz} > 1 } lab7_rows(@_);
    return unless @rows;
    stepped_head($rows[0]);
    print "# variant size steps gpts bound\n";
    printf "%s %s %d %.3f %.3f\n", $_->{variant}, size_of($_), $_->{steps}, $_->{gpts}, lab7_bound($_) for @rows;
}

# The heat map: data/GPU-lab7-heatmap.f32 (or FILE), raw float32, x fastest, a square grid
# (`--dump` of the last line of bench.args). Prints "FILE N N STEPS COMMIT": STEPS and COMMIT
# from the lab's row of an N x N grid in the CSV, '-' where there is none. Nothing when the
# file is missing or not a square grid of floats.
sub cmd_lab7heatmap {
    my ($gpu, $file) = @_;
    $file //= "data/" . ($gpu || $DEFAULT_GPU) . "-lab7-heatmap.f32";
    my $bytes = -s $file or return;
    my $n = int(sqrt($bytes / 4) + 0.5);
    return unless $bytes % 4 == 0 && $n * $n * 4 == $bytes;
    my ($r) = grep { $_->{nx} == $n && $_->{ny} == $n && $_->{nz} == 1 } reverse lab7_rows($gpu);
    printf "%s %d %d %s %s\n", $file, $n, $n, $r ? $r->{steps} : '-', $r ? $r->{commit} : '-';
}

# Every variant at the default size (the first line of bench.args), with the 16-byte bound.
sub cmd_lab8variants {
    my @rows = default_size_rows(lab8_rows(@_));
    return unless @rows;
    stepped_head($rows[0]);
    print "# variant gpts bound\n";
    printf "%s %.3f %.3f\n", $_->{variant}, $_->{gpts}, lab8_bound($_) for @rows;
}

sub cmd_table2 {
    my @rows = table2_rows(lab8_rows(@_));
    return unless @rows;
    printf "# commit %s steps %d\n", $rows[0]{commit}, $rows[0]{steps};
    print "# volume m16 m32 pct16 pct32 p16 p32 ppct16 ppct32\n";
    printf "%s %.0f %.0f %.1f %.1f %.1f %.1f %.1f %.1f\n", @{$_}{qw(volume m16 m32 pct16 pct32 p16 p32 ppct16 ppct32)} for @rows;
}

sub cmd_scaling {
    my ($gpu) = @_;
    my @rows = scaling_rows(lab_rows($gpu, 'lab9_multigpu'));
    return unless @rows;
    printf "# commit %s\n# variant nz ranks gpus gpts_one gpts_many speedup\n", $rows[0]{many}{commit};
    printf "%s %d %d %d %.3f %.3f %.4f\n", $_->{many}{variant}, $_->{many}{nz}, $_->{many}{ranks}, $_->{many}{gpus},
        $_->{one}{gpts}, $_->{many}{gpts}, $_->{speedup} for sort { $a->{many}{variant} cmp $b->{many}{variant} || $a->{many}{nz} <=> $b->{many}{nz} } @rows;
}
sub cmd_slabs {
    my ($gpu) = @_;
    my @rows = grep { $_->{many}{nx} == 512 && $_->{many}{ny} == 512 && $_->{many}{gpus} >= $_->{many}{ranks} }
               scaling_rows(lab_rows($gpu, 'lab9_multigpu'));
    return unless @rows;
    printf "# commit %s ranks %d\n", $rows[0]{many}{commit}, $rows[0]{many}{ranks};
    my $first = 1;
    for my $v (sort { $a cmp $b } keys %{{ map { ($_->{many}{variant} => 1) } @rows }}) {
        print "\n\n" unless $first;  # between blocks only: gnuplot's stats counts a trailing pair as an empty block
        $first = 0;
        print "$v planes speedup\n";
        printf "%d %.4f\n", int(($_->{many}{nz} + $_->{many}{ranks} - 1) / $_->{many}{ranks}), $_->{speedup}
            for sort { $a->{many}{nz} <=> $b->{many}{nz} } grep { $_->{many}{variant} eq $v } @rows;
    }
}
sub cmd_hiding {
    my ($gpu) = @_;
    my @rows = hiding_rows(lab_rows($gpu, 'lab9_multigpu'));
    return unless @rows;
    printf "# gpu %s\n# commit %s\n# pair size slab_nz ranks compute_us exchange_us exposed_us hidden\n", $rows[0]{staged}{gpu}, $rows[0]{staged}{commit};
    printf "%s %s %d %d %.2f %s %.2f %s\n", ($_->{alone} ? '-' : $_->{staged}{variant}) . "/$_->{overlapped}{variant}", size_of($_->{staged}),
        $_->{slab_nz}, $_->{staged}{ranks}, $_->{compute}, defined $_->{exchange} ? sprintf('%.2f', $_->{exchange}) : '-', $_->{exposed},
        defined $_->{hidden} ? sprintf('%.3f', $_->{hidden}) : '-' for @rows;
}
sub cmd_weak {
    my ($gpu) = @_;
    my @rows = weak_rows(lab_rows($gpu, 'lab9_multigpu'));
    return unless @rows;
    printf "# commit %s\n# variant size_one gpts_one size_many ranks gpts_many efficiency\n", $rows[0]{many}{commit};
    printf "%s %s %.3f %s %d %.3f %.4f\n", $_->{many}{variant}, size_of($_->{one}), $_->{one}{gpts}, size_of($_->{many}),
        $_->{many}{ranks}, $_->{many}{gpts}, $_->{efficiency} for @rows;
}
sub cmd_graphs {
    my ($gpu) = @_;
    my @rows = graph_rows(lab_rows($gpu, 'lab9_multigpu'));
    return unless @rows;
    printf "# commit %s\n# size ranks gpus overlap_us_per_step graph_us_per_step saved_us_per_step\n", $rows[0]{plain}{commit};
    printf "%s %d %d %.2f %.2f %.2f\n", size_of($_->{plain}), $_->{plain}{ranks} // 1, $_->{plain}{gpus} // 1,
        1000 * $_->{plain}{median_ms} / $_->{plain}{steps}, 1000 * $_->{graph}{median_ms} / $_->{graph}{steps}, $_->{saved} for @rows;
}

my $cmd = shift @ARGV // '';
if ($cmd eq 'bandwidth') { cmd_bandwidth(@ARGV) }
elsif ($cmd eq 'journey') { cmd_journey(@ARGV) }
elsif ($cmd eq 'roofline') { cmd_roofline(@ARGV) }
elsif ($cmd eq 'compare') { cmd_compare(@ARGV) }
elsif ($cmd eq 'convergence') { cmd_convergence(@ARGV) }
elsif ($cmd eq 'table1') { cmd_table1(@ARGV) }
elsif ($cmd eq 'table1pct') { cmd_table1pct(@ARGV) }
elsif ($cmd eq 'measured') { cmd_measured(@ARGV) }
elsif ($cmd eq 'lab7fs') { cmd_lab7fs(@ARGV) }
elsif ($cmd eq 'lab7variants') { cmd_lab7variants(@ARGV) }
elsif ($cmd eq 'lab7sizes') { cmd_lab7sizes(@ARGV) }
elsif ($cmd eq 'lab7_3d') { cmd_lab7_3d(@ARGV) }
elsif ($cmd eq 'lab7heatmap') { cmd_lab7heatmap(@ARGV) }
elsif ($cmd eq 'lab8variants') { cmd_lab8variants(@ARGV) }
elsif ($cmd eq 'table2') { cmd_table2(@ARGV) }
elsif ($cmd eq 'scaling') { cmd_scaling(@ARGV) }
elsif ($cmd eq 'slabs') { cmd_slabs(@ARGV) }
elsif ($cmd eq 'hiding') { cmd_hiding(@ARGV) }
elsif ($cmd eq 'weak') { cmd_weak(@ARGV) }
elsif ($cmd eq 'graphs') { cmd_graphs(@ARGV) }
else { die "usage: figures.pl bandwidth | journey | roofline | compare | convergence | table1 | table1pct | measured | lab7fs | lab7variants | lab7sizes | lab7_3d | lab7heatmap | lab8variants | table2 | scaling | slabs | hiding | weak | graphs (see the comment at its top)\n" }
