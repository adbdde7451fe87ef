#!/usr/bin/env perl
# SPDX-License-Identifier: MIT
# Everything derived from the measured CSV under data/: the gnuplot inputs and the result
# tables in README.md and handouts/. Numbers are never typed by hand: they come from here.
#
#   perl plots/data.pl bandwidth GPU         every variant's GB/s at its lab's default problem, grouped by lab
#   perl plots/data.pl journey GPU           labs 2-5 on the 7-point problem: Gpoints/s and the 8-byte bound
#   perl plots/data.pl roofline GPU          flop/byte and Gflop/s of every variant, one block per lab
#   perl plots/data.pl compare CSV [GPU]     a student's CSV beside the reference rows: % of copy per variant
#   perl plots/data.pl convergence GPU LAB   n, h, max error per variant (gnuplot input)
#   perl plots/data.pl table1 GPU VARIANT    lab 5's Mpoints/s by order, one block per volume
#   perl plots/data.pl table1pct GPU VARIANT [VOLUME...]
#                                            lab 5: % of the 8-byte bound by order, over the volumes
#   perl plots/data.pl measured [GPU]        model and ncu-measured read redundancy per variant, and
#                                            whether its profile is older than the lab's newest
#   perl plots/data.pl lab7fs GPU            lab 7: Gpoint-steps/s of fused_sN and its speed-up over gm
#   perl plots/data.pl lab7variants GPU      lab 7: Gpoint-steps/s of every variant and the 1-step bound
#   perl plots/data.pl lab7sizes GPU         lab 7: Gpoint-steps/s against the 2D size, one block per variant
#   perl plots/data.pl lab7_3d GPU           lab 7: the 3D rows (variant, size, steps, Gpoint-steps/s, bound)
#   perl plots/data.pl lab7heatmap GPU [F]   lab 7: the heat map's file, its size and steps (nothing if absent)
#   perl plots/data.pl lab8variants GPU      lab 8: Gpoint-steps/s of every variant and the 16-byte bound
#   perl plots/data.pl table2 GPU            lab 8: 003's Table 2 (Mpoints/s by tile and volume) beside 003's figures
#   perl plots/data.pl scaling GPU           lab 9: Gpoint-steps/s with 1 and N processes, and the speed-up
#   perl plots/data.pl hiding GPU            lab 9: per step, the slab's compute, the exchange, how much is hidden
#   perl plots/data.pl slabs GPU             lab 9: speed-up over one process against planes per slab, a block
#   perl plots/data.pl weak GPU              lab 9: N processes on N stacked grids against one process on one
#   perl plots/data.pl graphs GPU            lab 9: per step, nccl_overlap against its CUDA graph (nccl_graph)
#                                            per variant (512x512 planes, one GPU per process)
#   perl plots/data.pl tables [FILE...]      rewrite the marked tables in README.md and handouts/
#   perl plots/data.pl migrate FILE...       bring a CSV written under an older header up to
#                                            the programs' CSV header (--list), in place
#
# GPU is a data file's name without .csv (default: the H100 the course ships data for).
# Only the rows of each lab's last bench session in a file are used: those with the commit of
# that lab's last row. Every figure's input starts with comment lines "# gpu G" and "# commit C"
# (C names the labs of each commit where they differ), for the titles.
use strict;
use warnings;
use sort 'stable';
use File::Basename qw(basename dirname);
use File::Temp qw(tempfile);
use FindBin;

my $DEFAULT_GPU = 'NVIDIA_H100_80GB_HBM3';

sub read_csv {
    my ($path) = @_;
    open my $fh, '<', $path or die "data.pl: cannot read $path: $!\n";
    chomp(my $head = <$fh> // '');
    my @cols = split /,/, $head;
    my @rows;
    while (my $line = <$fh>) {
        chomp $line;
        next unless length $line;
        my %r;
        @r{@cols} = split /,/, $line, -1;
        push @rows, \%r;
    }
    return @rows;
}

# The rows of each lab's last bench session: the commit of that lab's last row (a lab re-run on
# its own, after a change to its kernels, replaces its rows and leaves the others').
sub latest {
    my @rows = @_;
    my %commit;
    $commit{ $_->{lab} } = $_->{commit} for @rows;
    # in lab order (a lab benched again lands at the end of the file), in file order within a lab
    return sort { $a->{lab} cmp $b->{lab} } grep { $_->{commit} eq $commit{ $_->{lab} } } @rows;
}

sub gpu_file { my ($gpu, $suffix) = @_; return "data/" . ($gpu || $DEFAULT_GPU) . "$suffix.csv" }

sub size_of {
    my ($r) = @_;
    return $r->{n} if exists $r->{n};
    return $r->{nx} if $r->{ny} == 1 && $r->{nz} == 1;
    return "$r->{nx}x$r->{ny}" if $r->{nz} == 1;
    return "$r->{nx}x$r->{ny}x$r->{nz}";
}

# The headline row of each variant: its first row of the session, which is the lab's default
# size (the first line of its bench.args).
sub headline_rows {
    my (%seen, @out);
    for my $r (grep { $_->{status} eq 'PASS' } @_) {
        push @out, $r unless $seen{"$r->{lab} $r->{variant}"}++;
    }
    return @out;
}

sub lab_number { my ($lab) = @_; return ($lab =~ /^lab(\d+)/)[0] // 0 }
sub dims_of { my ($r) = @_; return $r->{nz} > 1 ? 3 : $r->{ny} > 1 ? 2 : 1 }

# "lab 7", "labs 1-6", "labs 2, 5"
sub labs_phrase {
    my @n = sort { $a <=> $b } @_;
    return "lab $n[0]" if @n == 1;
    my $run = !grep { $n[$_] != $n[0] + $_ } 0 .. $#n;
    return $run ? "labs $n[0]-$n[-1]" : 'labs ' . join(', ', @n);
}

# The commit(s) rows were measured at: "6ec05273c020", or, where the labs' sessions differ,
# "6ec05273c020 (labs 1-6), 07ef59b4fe7f (lab 7)".
sub commits_phrase {
    my (%labs, %first, %seen);
    for my $r (@_) {
        my $n = lab_number($r->{lab});
        $labs{ $r->{commit} }{$n} = 1;
        $first{ $r->{commit} } = $n if !defined $first{ $r->{commit} } || $n < $first{ $r->{commit} };
        $seen{ $r->{commit} } //= keys %seen;  # commits of one lab: in the order of the rows
    }
    my @c = sort { $first{$a} <=> $first{$b} || $seen{$a} <=> $seen{$b} } keys %labs;
    return @c ? $c[0] : '-' if @c <= 1;
    return join ', ', map { "$_ (" . labs_phrase(keys %{ $labs{$_} }) . ")" } @c;
}

sub gpus_phrase { my %seen; return join(' / ', grep { !$seen{$_}++ } map { $_->{gpu} } @_) || '-' }

# The figures' title lines: "# gpu G" and "# commit C" (gnuplot reads them with sed).
sub print_head {
    my ($prefix, @rows) = @_;
    print "# ${prefix}gpu ", gpus_phrase(@rows), "\n# ${prefix}commit ", commits_phrase(@rows), "\n";
}

# The last row of each (lab, variant, size, order, steps, timing), at the place of the first:
# a variant re-run within a session counts once, with its newest numbers.
sub last_per_key {
    my (%at, @out);
    for my $r (@_) {
        my $k = join ' ', $r->{lab}, $r->{variant}, size_of($r), $r->{order}, $r->{steps}, $r->{timing} // '';
        if (exists $at{$k}) { $out[ $at{$k} ] = $r } else { $at{$k} = @out; push @out, $r }
    }
    return @out;
}

# The rows of each lab's default problem, at every order: the size and steps of the lab's first
# row of each dimensionality in the session (the first line of bench.args; for lab 7's 3D rows,
# its first 3D line).
sub default_problem {
    my %first;
    $first{ "$_->{lab} " . dims_of($_) } //= $_ for @_;
    return grep {
        my $f = $first{ "$_->{lab} " . dims_of($_) };
        size_of($_) eq size_of($f) && $_->{steps} == $f->{steps}
    } @_;
}

# The latest session's passing rows, one per key (last_per_key).
sub session_rows {
    my ($gpu) = @_;
    return last_per_key(grep { $_->{status} eq 'PASS' } latest(read_csv(gpu_file($gpu, ''))));
}

# "512^3", "8192^2", "2^28 points", "480x480x400", then ", order k" and ", S steps" where set.
sub problem_phrase {
    my ($r) = @_;
    my $size = size_of($r);
    if ($r->{nz} > 1 && $r->{nx} == $r->{ny} && $r->{ny} == $r->{nz}) { $size = "$r->{nx}^3" }
    elsif ($r->{nz} == 1 && $r->{ny} > 1 && $r->{nx} == $r->{ny}) { $size = "$r->{nx}^2" }
    elsif ($r->{ny} == 1 && $r->{nz} == 1) {
        my $k = log($r->{nx}) / log(2);
        $size = abs($k - int($k + 0.5)) < 1e-9 ? sprintf("2^%d points", $k + 0.5) : "$r->{nx} points";
    }
    return $size . ($r->{order} ? ", order $r->{order}" : '') . ($r->{steps} ? ", $r->{steps} steps" : '');
}

# Bars grouped by lab (labs in number order, rows in their order within a lab), one empty slot
# between labs. Returns ([x, row]..., groups [from, to, lab, first row]...).
sub bar_layout {
    my @rows = sort { lab_number($a->{lab}) <=> lab_number($b->{lab}) } @_;  # stable
    my ($x, @bars, @groups) = (0);
    for my $r (@rows) {
        if (!@groups || $groups[-1][2] ne $r->{lab}) {
            $x++ if @groups;
            push @groups, [ $x, $x, $r->{lab}, $r ];
        }
        push @bars, [ $x, $r ];
        $groups[-1][1] = $x++;
    }
    return (\@bars, \@groups);
}

# "lab 3 shared_tiling" and "shared_tiling" from lab3_shared_tiling
sub lab_title { my ($lab) = @_; (my $t = $lab) =~ s/^lab(\d+)_/lab $1 /; return $t }
sub lab_name { my ($lab) = @_; (my $t = $lab) =~ s/^lab\d+_//; return $t }

# Every variant's effective bandwidth at its lab's default problem (its headline row), grouped
# by lab. Block 0: x, lab number, variant, GB/s, copy GB/s, % copy. Block 1, one line per lab:
# first and last x, lab number, that session's copy GB/s (the roof), "name", "problem".
sub cmd_bandwidth {
    my ($gpu) = @_;
    my @rows = headline_rows(last_per_key(latest(read_csv(gpu_file($gpu, '')))));
    return unless @rows;
    print_head('', @rows);
    my ($bars, $groups) = bar_layout(@rows);
    print "# x lab variant gbps copy_gbps pct\n";
    printf "%d %d %s %.1f %.1f %.2f\n", $_->[0], lab_number($_->[1]{lab}), $_->[1]{variant}, $_->[1]{gbps},
        $_->[1]{copy_gbps}, $_->[1]{pct_copy} for @$bars;
    print "\n\n# from to lab copy_gbps name problem\n";
    printf "%d %d %d %.1f \"%s\" \"%s\"\n", $_->[0], $_->[1], lab_number($_->[2]), $_->[3]{copy_gbps},
        lab_name($_->[2]), problem_phrase($_->[3]) for @$groups;
}

# Labs 2-5 on one problem, the 7-point stencil at lab 2's default size (512^3, order 2, no
# steps): Gpoints/s of every variant in lab order. Block 0: x, lab number, variant, Gpts/s, the
# bound copy GB/s / 8 bytes, % copy. Block 1, one line per lab: first and last x, lab number,
# that lab's bound, "name".
sub cmd_journey {
    my ($gpu) = @_;
    my @rows = session_rows($gpu);
    my ($first) = grep { $_->{lab} =~ /^lab2_/ } @rows;
    return unless $first;
    @rows = grep {
        $_->{lab} =~ /^lab[2-5]_/ && size_of($_) eq size_of($first) && ($_->{order} || 2) == 2 && !$_->{steps}
    } @rows;
    print_head('', @rows);
    print "# problem ", problem_phrase($first), "\n";
    my ($bars, $groups) = bar_layout(@rows);
    print "# x lab variant gpts bound pct\n";
    printf "%d %d %s %.2f %.2f %.2f\n", $_->[0], lab_number($_->[1]{lab}), $_->[1]{variant}, $_->[1]{gpts},
        $_->[1]{copy_gbps} / 8, $_->[1]{pct_copy} for @$bars;
    print "\n\n# from to lab bound name\n";
    printf "%d %d %d %.2f \"%s\"\n", $_->[0], $_->[1], lab_number($_->[2]), $_->[3]{copy_gbps} / 8,
        lab_name($_->[2]) for @$groups;
}

# Floating-point operations per output point (per point-step in labs with steps) of each lab's
# stencil, counted in the reference kernels as written: an add, a subtract or a multiply counts
# 1 (an FMA the compiler forms from a multiply and an add still counts 2, and lab 7's tb, which
# writes fmaf(D, fmaf(-4, b, sum), b), the same 7). The boundary copies count nothing.
#   lab 1    (f[i+1] - f[i-1]) * inv_2h                                1 sub + 1 mul          =  2
#   labs 2-5 c0*u + c1*(six neighbours): 1 mul, 5 adds, 1 mul, 1 add                         =  8
#   lab 5    order k, radius R = k/2: c0*u + sum over i = 1..R of c_i*(six neighbours at i):
#            1 mul, then per radius 5 adds + 1 mul + 1 add                          1 + 7R = 1 + 3.5k
#            (k = 2: 8, 4: 15, 6: 22, 8: 29, 10: 36, 12: 43)
#   lab 6    sum over k = 1..4 of c_k * (f[+k] - f[-k])                4 sub + 4 mul + 3 add  = 11
#   lab 7    u + D*(sum of the 2d neighbours - 2d*u): 2d-1 adds, 1 mul, 1 sub, 1 mul, 1 add:
#            2D (d = 2) 7, 002's a; 3D (d = 3) 9
#   lab 8    lap = c0*u + sum over k = 1..4 of c_k*(six neighbours): 1 + 7*4 = 29, then
#            2u - u_prev + vsq*lap: 1 mul, 1 sub, 1 mul, 1 add = 4 (outside the sponge)          = 33
sub flops_per_point {
    my ($r) = @_;
    my $n = lab_number($r->{lab});
    return 2 if $n == 1;
    return 1 + 7 * ($r->{order} || 2) / 2 if $n >= 2 && $n <= 5;
    return 11 if $n == 6;
    return $r->{nz} > 1 ? 9 : 7 if $n == 7;
    return 33 if $n == 8;
    return undef;
}

# Minimal bytes per point(-step): what the program divided by to get GB/s from Gpts/s (the lab's
# bytes_per_point: 8 for one array in and one out, lab 8's 16).
sub bytes_per_point { my ($r) = @_; return $r->{gpts} > 0 ? int($r->{gbps} / $r->{gpts} + 0.5) : undef }

# The roofline's points: every variant at its lab's default problem (lab 5: every order; lab 7:
# its 2D and its 3D problem), one gnuplot block per lab whose column head is the key's entry.
# Columns: variant, order, dimensions, flop/point, bytes/point, flop/byte, Gflop/s, copy GB/s,
# % copy, and a name to write beside the point or "-": each lab's variant farthest below the
# memory roof where it is below 2/3 of the lab's best, and every point above its roof (it moves
# fewer bytes than the minimal traffic: data kept on chip across steps). A line "# labs N..."
# gives the blocks' lab numbers.
sub cmd_roofline {
    my ($gpu) = @_;
    my @rows = grep { defined flops_per_point($_) && bytes_per_point($_) } default_problem(session_rows($gpu));
    return unless @rows;
    print_head('', @rows);
    my (%by, @labs);
    for my $r (@rows) {
        push @labs, $r->{lab} unless $by{ $r->{lab} };
        push @{ $by{ $r->{lab} } }, $r;
    }
    @labs = sort { lab_number($a) <=> lab_number($b) } @labs;
    print "# labs ", join(' ', map { lab_number($_) } @labs), "\n";
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
    die "usage: data.pl compare CSV [GPU]\n" unless defined $csv;
    my @all = read_csv($csv);
    for my $col (qw(gpu lab variant nx ny nz order steps pct_copy status commit)) {
        die "data.pl compare: $csv has no column $col: not a CSV written by ./labN --csv\n"
            if @all && !exists $all[0]{$col};
    }
    my @mine = last_per_key(grep { $_->{status} ne 'INFO' && $_->{variant} ne 'empty_kernel' } @all);
    die "data.pl compare: $csv has no rows of a variant (run ./labN --csv $csv first)\n" unless @mine;
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
        push @groups, sprintf "%d %d %d \"%s\" \"%s\"", $from, $x - 1, lab_number($grp{$k}[0]{lab}),
            lab_name($grp{$k}[0]{lab}), problem_phrase($grp{$k}[0]);
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

sub table1_rows {
    my ($gpu, $variant) = @_;
    return last_per_key(grep { $_->{lab} eq 'lab5_register_tiling' && $_->{variant} eq $variant && $_->{status} eq 'PASS' }
        latest(read_csv(gpu_file($gpu, ''))));
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
    die "data.pl: no profile CSV $file\n" unless -e $file;
    my ($session, $run, %last, %when, @keys, %newest) = (0, '');
    for my $r (read_csv($file)) {
        $session++ if $r->{commit} ne $run;  # one run of make profile: rows of one commit in a row
        $run = $r->{commit};
        my ($lab) = $r->{lab} =~ /^lab(\d+)/ or next;
        my $key = "lab$lab $r->{variant}" . ($r->{order} && $r->{order} != 2 ? " k$r->{order}" : '');
        push @keys, $key unless $last{$key};
        $last{$key} = sprintf '%.2f %.2f', $r->{model_read}, $r->{dram_read_bytes} / 4;
        $when{$key} = [ $session, $r->{commit}, $lab, $r->{gpu} ];
        $newest{$lab} = [ $session, $r->{commit}, $r->{gpu} ];
    }
    return unless @keys;
    my %lab_of = map { $_ => (/^lab(\d+)/)[0] } @keys;
    # by lab; within a lab, by variant as first logged, then by order
    my (%first, $i);
    for my $k (@keys) { (my $v = $k) =~ s/ k\d+$//; $first{$v} //= $i++ }
    my $rank = sub { my ($k) = @_; my ($v, $o) = $k =~ /^(.*?)(?: k(\d+))?$/; return ($first{$v}, $o // 2) };
    @keys = sort { $lab_of{$a} <=> $lab_of{$b} || ($rank->($a))[0] <=> ($rank->($b))[0]
                   || ($rank->($a))[1] <=> ($rank->($b))[1] } @keys;
    my @heads = map { { lab => "lab$_", commit => $newest{$_}[1], gpu => $newest{$_}[2] } } sort { $a <=> $b } keys %newest;
    print_head('', @heads);
    my @changed = kernels_changed_since(map { [ $_, $newest{$_}[1] ] } sort { $a <=> $b } keys %newest);
    print "# changed $_\n" for @changed;
    print "# x lab label model measured commit stale\n";
    my ($x, $prev) = (0, undef);
    for my $k (@keys) {
        $x++ if defined $prev && $prev != $lab_of{$k};
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

# ---- lab 7 (heat_multistep): the figures' inputs. Gpoint-steps/s is the CSV's gpts (output
# points x steps / time); the single-step bound of a row is its copy bandwidth / 8 bytes (one
# float read and one written per point and step). Each command starts with a line
# "# commit C size S steps T" (the session and its default problem) for the figures' titles.
my $LAB7 = 'lab7_heat_multistep';

# The PASS rows of one lab's last bench session in data/<GPU>.csv.
sub lab_rows {
    my ($gpu, $lab) = @_;
    my $path = gpu_file($gpu, '');
    return () unless -e $path;
    return grep { $_->{lab} eq $lab && $_->{status} eq 'PASS' } latest(read_csv($path));
}
sub lab7_rows { my ($gpu) = @_; return lab_rows($gpu, $LAB7) }

sub lab7_bound { my ($r) = @_; return $r->{copy_gbps} / 8 }

# The rows of the lab's default problem: its headline rows (the first line of bench.args).
sub default_size_rows {
    my @rows = headline_rows(@_);
    return () unless @rows;
    my $d = $rows[0];
    return grep { size_of($_) eq size_of($d) && $_->{steps} == $d->{steps} } @rows;
}

# The comment line over a stepped lab's plot data (labs 7 and 8): commit, size, steps.
sub stepped_head {
    my ($r) = @_;
    printf "# commit %s size %s steps %d\n", $r->{commit}, size_of($r), $r->{steps};
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

sub fmt_table {
    my ($head, @body) = @_;
    my $out = "| " . join(" | ", @$head) . " |\n|" . join("|", map { "---" } @$head) . "|\n";
    $out .= "| " . join(" | ", @$_) . " |\n" for @body;
    return $out;
}

# how: what measured the rows, for the footer ("`make bench`")
sub results_table {
    my ($lab, $how, @rows) = @_;
    @rows = grep { !$lab || $_->{lab} eq $lab } @rows;
    return "(no data yet: run $how on a GPU)\n" unless @rows;
    my %orders = map { $_->{order} => 1 } grep { $_->{status} ne 'INFO' } @rows;
    my $by_order = keys %orders > 1;  # an order column where the rows differ in order
    my $by_ranks = grep { ($_->{ranks} // 1) > 1 } @rows;  # lab 9: processes and GPUs
    my @body = map {
        my $info = $_->{status} eq 'INFO';  # a measurement beside the variants (empty_kernel)
        [   ($lab ? () : ($_->{lab})), $_->{variant}, ($by_order ? ($_->{order}) : ()),
            ($by_ranks ? ("$_->{ranks}/$_->{gpus}") : ()), size_of($_),
            sprintf("%.4f", $_->{median_ms}),
            $info ? ('-', '-', '-') : (sprintf("%.1f", $_->{gpts}), sprintf("%.0f", $_->{gbps}),
                sprintf("%.1f%%", $_->{pct_copy})),
            sprintf("%.0f", $_->{copy_gbps}),
            $info ? '-' : sprintf("%.2f/%.2f", $_->{redundancy_read}, $_->{redundancy_write}),
            $_->{status} ]
    } @rows;
    my $gpu = $rows[0]{gpu};
    my $commit = commits_phrase(@rows);  # the headline's labs may come from several sessions
    return fmt_table([ ($lab ? () : ('lab')), 'variant', ($by_order ? ('order') : ()), ($by_ranks ? ('ranks/GPUs') : ()),
            'size', 'median ms', 'Gpts/s', 'GB/s',
            '% copy', 'copy GB/s', 'redundancy r/w', 'result' ], @body)
        . "\n$gpu, " . ($commit =~ /,/ ? 'commits' : 'commit') . " $commit ($how; generated by `make tables` from data/).\n";
}

sub convergence_table {
    my ($which, @rows) = @_;
    my ($lab, $variant) = split /\./, $which;
    @rows = grep { $_->{lab} eq $lab && $_->{variant} eq $variant } @rows;
    return "(no data yet: run `make bench` on a GPU)\n" unless @rows;
    my ($prev, @body);
    for my $r (@rows) {
        # observed order: log(e_prev / e) / log(n / n_prev)
        my $order = $prev && $r->{max_err} > 0
            ? sprintf("%.2f", log($prev->{max_err} / $r->{max_err}) / log($r->{n} / $prev->{n})) : '';
        push @body, [ $r->{n}, sprintf("%.3e", $r->{h}), sprintf("%.3e", $r->{max_err}),
            sprintf("%.3e", $r->{rms_err}), $order ];
        $prev = $r;
    }
    return fmt_table([ 'n', 'h', 'max error', 'RMS error', 'order' ], @body)
        . "\n$rows[0]{gpu}, variant $variant, commit $rows[0]{commit} (generated from data/).\n";
}

# 003's Table 1 layout: Mpoints/s of one variant by volume (rows) and order (columns).
sub table1 {
    my ($which, @rows) = @_;
    my ($lab, $variant) = split /\./, $which;
    @rows = grep { $_->{lab} eq $lab && $_->{variant} eq $variant && $_->{status} eq 'PASS' } @rows;
    return "(no data yet: run `make bench` on a GPU)\n" unless @rows;
    my (%cell, %orders, @volumes, %seen);
    for my $r (@rows) {
        my $vol = size_of($r);
        push @volumes, $vol unless $seen{$vol}++;
        $orders{ $r->{order} } = 1;
        $cell{$vol}{ $r->{order} } //= sprintf("%.0f", 1000 * $r->{gpts});
    }
    my @ord = sort { $a <=> $b } keys %orders;
    my @body = map { my $v = $_; [ $v, map { $cell{$v}{$_} // '-' } @ord ] } @volumes;
    return fmt_table([ 'volume', map { "order $_" } @ord ], @body)
        . "\nMpoints/s, $rows[0]{gpu}, variant $variant, commit $rows[0]{commit} (generated from data/).\n";
}

# The DRAM bytes per point that `--profile` (Nsight Compute) wrote to data/<GPU>-profile.csv:
# the last run of lab N (and order K, written N.K), a run being rows of one commit, size, order
# and steps in a row; each variant's last row in it.
sub profile_table {
    my ($which) = @_;
    my ($n, $order) = split /\./, $which;
    my $file = gpu_file('', '-profile');
    my ($block, $prev, @rows) = (0, '');
    for my $r (read_csv_or_empty($file)) {
        my $key = join ',', @$r{qw(lab commit nx ny nz order steps)};
        $block++ if $key ne $prev;
        $prev = $key;
        push @rows, { %$r, block => $block } if $r->{lab} =~ /^lab\Q$n\E_/ && (!defined $order || $r->{order} == $order);
    }
    return "(no data yet: run `make profile` on a GPU)\n" unless @rows;
    my @run = grep { $_->{block} == $rows[-1]{block} } @rows;
    my (%last, @variants);
    for (@run) { push @variants, $_->{variant} unless $last{ $_->{variant} }; $last{ $_->{variant} } = $_ }
    my $caches = grep { $_->{l2_read_bytes} ne '' } values %last;
    my @body = map {
        my $r = $last{$_};
        my @stalls = map { $r->{"stall_$_"} ne '' ? sprintf('%s %.1f', $r->{"stall_$_"}, $r->{"stall_${_}_cpi"}) : () } 1, 2;
        [ $_, sprintf('%.2f/%.2f', $r->{model_read}, $r->{model_write}), sprintf('%.2f', $r->{dram_read_bytes}),
          sprintf('%.2f', $r->{dram_write_bytes}), sprintf('%.2f/%.2f', $r->{dram_read_bytes} / 4, $r->{dram_write_bytes} / 4),
          ($caches ? ($r->{l2_read_bytes} eq '' ? ('-') x 4
                      : (sprintf('%.2f', $r->{l2_read_bytes}), sprintf('%.2f', $r->{l1_sectors_per_request}),
                         sprintf('%.1f%%', $r->{occupancy_pct}), join(', ', @stalls) || '-')) : ()) ]
    } @variants;
    my $r0 = $run[-1];
    my $size = join 'x', grep { $_ > 1 } @$r0{qw(nx ny nz)};
    my $title = "lab $n at $size" . ($r0->{steps} ? ", $r0->{steps} steps" : '') . ($r0->{order} ? ", order $r0->{order}" : '');
    return fmt_table([ 'variant', 'model elements r/w', 'DRAM bytes read/pt', 'DRAM bytes written/pt',
            'measured elements r/w', ($caches ? ('L2 bytes read/pt', 'L1 sectors/request', 'occupancy', 'top stalls (cycles/instruction)') : ()) ], @body)
        . "\n$title; Nsight Compute's dram__bytes_read/write.sum" . ($caches ? ', L2 and L1 traffic, achieved occupancy and stall reasons' : '')
        . " of one checked launch (`./solN --profile --csv`), from data/$DEFAULT_GPU-profile.csv, run at commit $r0->{commit}.\n";
}

# ---- lab 8 ----
my $LAB8 = 'lab8_wave';

# 003's Table 2: the 3D FDTD kernel (order 8 in space, 2 in time), Mpoints/s on one Tesla
# 10-series GPU of a Tesla S1070 (CUDA 2.0), 16x16 and 32x32 output tiles. Copied from the paper.
# Its bound in our terms: the GPU's theoretical 102 GB/s (003, section 2) over 16 bytes.
my @TABLE2_2009 = (
    [ '320x320x400', 2870.7, 2783.5 ], [ '480x480x480', 2965.5, 3050.5 ], [ '544x544x544', 2786.5, 3121.6 ],
    [ '640x640x400', 2686.9, 3046.8 ], [ '800x800x200', 2518.3, 3196.9 ],
);
my $TESLA10_GBPS = 102;

sub lab8_rows { my ($gpu) = @_; return lab_rows($gpu, $LAB8) }

# copy bandwidth / 16 bytes, in Gpoint-steps/s
sub lab8_bound { my ($r) = @_; return $r->{copy_gbps} / 16 }

# Every variant at the default size (the first line of bench.args), with the 16-byte bound.
sub cmd_lab8variants {
    my @rows = default_size_rows(lab8_rows(@_));
    return unless @rows;
    stepped_head($rows[0]);
    print "# variant gpts bound\n";
    printf "%s %.3f %.3f\n", $_->{variant}, $_->{gpts}, lab8_bound($_) for @rows;
}

# 003's Table 2 measured: per volume, Mpoint-steps/s of queue_16x16 and queue_32x32 here and
# 003's figures, each also as % of its own bound. Returns the rows (hashes), volume order of 003.
sub table2_rows {
    my %cell;
    for my $r (grep { $_->{variant} =~ /^queue_(16x16|32x32)$/ } @_) {
        my ($tile) = $r->{variant} =~ /_(\d+x\d+)$/;
        $cell{ size_of($r) }{$tile} //= $r;
    }
    my @out;
    for my $t (@TABLE2_2009) {
        my ($vol, $p16, $p32) = @$t;
        my ($a, $b) = @{ $cell{$vol} // {} }{qw(16x16 32x32)};
        next unless $a && $b;
        my $paper_bound = 1000 * $TESLA10_GBPS / 16;  # Mpoints/s
        push @out, { volume => $vol, commit => $a->{commit}, gpu => $a->{gpu}, steps => $a->{steps},
            m16 => 1000 * $a->{gpts}, m32 => 1000 * $b->{gpts},
            pct16 => 100 * $a->{gpts} / lab8_bound($a), pct32 => 100 * $b->{gpts} / lab8_bound($b),
            p16 => $p16, p32 => $p32, ppct16 => 100 * $p16 / $paper_bound, ppct32 => 100 * $p32 / $paper_bound };
    }
    return @out;
}

sub cmd_table2 {
    my @rows = table2_rows(lab8_rows(@_));
    return unless @rows;
    printf "# commit %s steps %d\n", $rows[0]{commit}, $rows[0]{steps};
    print "# volume m16 m32 pct16 pct32 p16 p32 ppct16 ppct32\n";
    printf "%s %.0f %.0f %.1f %.1f %.1f %.1f %.1f %.1f\n", @{$_}{qw(volume m16 m32 pct16 pct32 p16 p32 ppct16 ppct32)} for @rows;
}

# The markdown form of cmd_table2, for the lab 8 handout's debrief.
sub table2 {
    my ($lab, @runs) = @_;
    my @rows = table2_rows(grep { $_->{lab} eq $lab && $_->{status} eq 'PASS' } @runs);
    return "(no data yet: run `make bench` on a GPU)\n" unless @rows;
    my @body = map { [ $_->{volume}, sprintf("%.0f (%.0f%%)", $_->{m16}, $_->{pct16}), sprintf("%.0f (%.0f%%)", $_->{m32}, $_->{pct32}),
            sprintf("%.2f", $_->{m32} / $_->{m16}), sprintf("%.1f (%.0f%%)", $_->{p16}, $_->{ppct16}),
            sprintf("%.1f (%.0f%%)", $_->{p32}, $_->{ppct32}), sprintf("%.2f", $_->{p32} / $_->{p16}) ] } @rows;
    return fmt_table([ 'volume', '16x16 here', '32x32 here', '32/16', '16x16, 2009', '32x32, 2009', '32/16, 2009' ], @body)
        . "\nMpoint-steps/s (% of the 16-byte bound: here the measured copy bandwidth / 16, in 2009 the Tesla "
        . "10-series' theoretical $TESLA10_GBPS GB/s / 16); $rows[0]{gpu}, $rows[0]{steps} steps, commit $rows[0]{commit}; "
        . "2009: 003's Table 2 (generated from data/).\n";
}

# ---- lab 9: the speed-up of N processes over one ----

# Per variant and size, Gpoint-steps/s with one process and with each larger count, and the
# speed-up; where the processes shared GPUs (gpus < ranks) the row says so (not a scaling result).
sub scaling_rows {
    my ($at, @first) = first_runs(@_);
    return map {
        my $one = $at->{ run_key($_->{variant}, size_of($_), $_->{steps}, 1, 1) };
        $one ? { one => $one, many => $_, speedup => $_->{gpts} / $one->{gpts} } : ()
    } grep { ($_->{ranks} // 1) > 1 } @first;
}

# Lab 9's runs: the first PASS row of each (a bench session may repeat one), by run_key, and those
# rows in their order.
sub run_key { return join ' ', @_ }  # variant, size, steps, processes, GPUs
sub first_runs {
    my %at;
    my @first = grep { my $k = run_key($_->{variant}, size_of($_), $_->{steps}, $_->{ranks} // 1, $_->{gpus} // 1);
                       !$at{$k} && ($at{$k} = $_) } grep { $_->{status} eq 'PASS' } @_;
    return (\%at, @first);
}

sub cmd_scaling {
    my ($gpu) = @_;
    my @rows = scaling_rows(lab_rows($gpu, 'lab9_multigpu'));
    return unless @rows;
    printf "# commit %s\n# variant nz ranks gpus gpts_one gpts_many speedup\n", $rows[0]{many}{commit};
    printf "%s %d %d %d %.3f %.3f %.4f\n", $_->{many}{variant}, $_->{many}{nz}, $_->{many}{ranks}, $_->{many}{gpus},
        $_->{one}{gpts}, $_->{many}{gpts}, $_->{speedup} for sort { $a->{many}{variant} cmp $b->{many}{variant} || $a->{many}{nz} <=> $b->{many}{nz} } @rows;
}

# Lab 9: how much of the exchange each overlapped variant hides, from bench rows alone. For a run
# on N processes with a GPU each, each variant of a staged/overlapped pair against its own run on
# one process at the size of the thickest slab plus its ghost zone (G = 4 planes: such a grid
# computes as many planes as a slab with one face of the grid, as both of a 2-process run have):
# the same planes, no exchange. The staged variant's extra time is its whole exchange (nothing
# overlaps it); the overlapped variant's extra time is what it still exposes. Per step, in
# microseconds; the last of S steps exchanges nothing, so the exchange is spread over S - 1.
my %OVERLAPPED = (mpi_staged => 'mpi_overlap', nccl => 'nccl_overlap');
my $LAB9_GHOST = 4;
sub hiding_rows {
    my ($at, @first) = first_runs(@_);
    my @out;
    for my $s (sort { $a->{nz} <=> $b->{nz} || $a->{variant} cmp $b->{variant} } @first) {
        my ($ranks, $gpus) = ($s->{ranks} // 1, $s->{gpus} // 1);
        next unless $ranks > 1 && $gpus >= $ranks && $OVERLAPPED{ $s->{variant} } && $s->{steps} > 1;
        my $o = $at->{ run_key($OVERLAPPED{ $s->{variant} }, size_of($s), $s->{steps}, $ranks, $gpus) } or next;
        my $slab_nz = int(($s->{nz} + $ranks - 1) / $ranks);
        my $one = "$s->{nx}x$s->{ny}x" . ($slab_nz + $LAB9_GHOST);
        my $cs = $at->{ run_key($s->{variant}, $one, $s->{steps}, 1, 1) } or next;
        my $co = $at->{ run_key($o->{variant}, $one, $s->{steps}, 1, 1) } or next;
        my $us = sub { 1000 * $_[0]{median_ms} };
        my $exchange = ($us->($s) - $us->($cs)) / ($s->{steps} - 1);
        my $exposed = ($us->($o) - $us->($co)) / ($s->{steps} - 1);
        push @out, { staged => $s, overlapped => $o, slab_nz => $slab_nz, compute => $us->($cs) / $s->{steps},
                     exchange => $exchange, exposed => $exposed, hidden => $exchange > 0 ? 1 - $exposed / $exchange : undef };
    }
    return @out;
}
sub cmd_slabs {
    my ($gpu) = @_;
    my @rows = grep { $_->{many}{nx} == 512 && $_->{many}{ny} == 512 && $_->{many}{gpus} >= $_->{many}{ranks} }
               scaling_rows(lab_rows($gpu, 'lab9_multigpu'));
    return unless @rows;
    printf "# commit %s ranks %d\n", $rows[0]{many}{commit}, $rows[0]{many}{ranks};
    for my $v (sort { $a cmp $b } keys %{{ map { ($_->{many}{variant} => 1) } @rows }}) {
        print "$v planes speedup\n";
        printf "%d %.4f\n", int(($_->{many}{nz} + $_->{many}{ranks} - 1) / $_->{many}{ranks}), $_->{speedup}
            for sort { $a->{many}{nz} <=> $b->{many}{nz} } grep { $_->{many}{variant} eq $v } @rows;
        print "\n\n";
    }
}
sub cmd_hiding {
    my ($gpu) = @_;
    my @rows = hiding_rows(lab_rows($gpu, 'lab9_multigpu'));
    return unless @rows;
    printf "# gpu %s\n# commit %s\n# pair size slab_nz ranks compute_us exchange_us exposed_us hidden\n", $rows[0]{staged}{gpu}, $rows[0]{staged}{commit};
    printf "%s %s %d %d %.2f %.2f %.2f %s\n", "$_->{staged}{variant}/$_->{overlapped}{variant}", size_of($_->{staged}), $_->{slab_nz},
        $_->{staged}{ranks}, $_->{compute}, $_->{exchange}, $_->{exposed}, defined $_->{hidden} ? sprintf('%.3f', $_->{hidden}) : '-' for @rows;
}
sub hiding {
    my ($lab, @runs) = @_;
    my @rows = hiding_rows(grep { $_->{lab} eq $lab } @runs);
    return "(no data yet: run `make bench` on a machine with 2 GPUs)\n" unless @rows;
    my @body = map { [ "$_->{staged}{variant} / $_->{overlapped}{variant}", size_of($_->{staged}), "$_->{staged}{ranks}/$_->{staged}{gpus}",
            $_->{slab_nz}, sprintf('%.1f', $_->{compute}), sprintf('%.1f', $_->{exchange}), sprintf('%.1f', $_->{exposed}),
            defined $_->{hidden} ? sprintf('%.0f%%', 100 * $_->{hidden}) : '-' ] } @rows;
    return fmt_table([ 'staged / overlapped', 'size', 'ranks/GPUs', 'slab planes', 'slab compute µs/step',
                       'exchange µs (staged)', 'still exposed µs (overlapped)', 'hidden' ], @body)
        . "\n$rows[0]{staged}{gpu}, commit $rows[0]{staged}{commit} (`make bench`; generated by `make tables` from data/).\n";
}
# Lab 8's best Gpoint-steps/s at a size and step count (its newest rows), or undef.
sub lab8_best {
    my ($size, $steps, @runs) = @_;
    my ($best) = sort { $b <=> $a } map { $_->{gpts} }
                 grep { $_->{lab} eq 'lab8_wave' && $_->{status} eq 'PASS' && size_of($_) eq $size && $_->{steps} == $steps } @runs;
    return $best;
}
sub scaling {
    my ($lab, @runs) = @_;
    my @rows = scaling_rows(grep { $_->{lab} eq $lab } @runs);
    return "(no data yet: run `make bench` on a GPU)\n" unless @rows;
    my @body = map {
        my $l8 = lab8_best(size_of($_->{one}), $_->{one}{steps}, @runs);
        [ $_->{many}{variant}, size_of($_->{many}), sprintf("%.1f", $_->{one}{gpts}),
          "$_->{many}{ranks}/$_->{many}{gpus}", sprintf("%.1f", $_->{many}{gpts}),
          sprintf("%.2f%s", $_->{speedup}, $_->{many}{gpus} < $_->{many}{ranks} ? ' (shared GPUs)' : ''),
          $l8 ? sprintf("%.2f", $_->{many}{gpts} / $l8) : '-' ] } @rows;
    my ($l8) = grep { $_->{lab} eq 'lab8_wave' } @runs;
    return fmt_table([ 'variant', 'size', '1 process Gpts/s', 'ranks/GPUs', 'Gpts/s', 'speed-up', "over lab 8's best" ], @body)
        . "\n$rows[0]{many}{gpu}, commit $rows[0]{many}{commit} (`make bench`; generated by `make tables` from data/). "
        . "Lab 9's one process runs lab 8's queue4 (given code); the last column divides by lab 8's own fastest variant at "
        . "that size in its newest `make bench`" . ($l8 ? " (commit $l8->{commit})" : '') . ".\n";
}

# Weak scaling: a run on N processes (a GPU each) whose grid is N one-process grids stacked in z,
# beside that one-process run; the efficiency is N-process Gpoint-steps/s over N times one's.
sub weak_rows {
    my ($at, @first) = first_runs(@_);
    return map {
        my $n = $_->{ranks};
        my $one = $_->{nz} % $n ? undef : $at->{ run_key($_->{variant}, "$_->{nx}x$_->{ny}x" . ($_->{nz} / $n), $_->{steps}, 1, 1) };
        $one ? { one => $one, many => $_, efficiency => $_->{gpts} / ($n * $one->{gpts}) } : ()
    } grep { ($_->{ranks} // 1) > 1 && ($_->{gpus} // 1) >= $_->{ranks} } @first;
}
sub cmd_weak {
    my ($gpu) = @_;
    my @rows = weak_rows(lab_rows($gpu, 'lab9_multigpu'));
    return unless @rows;
    printf "# commit %s\n# variant size_one gpts_one size_many ranks gpts_many efficiency\n", $rows[0]{many}{commit};
    printf "%s %s %.3f %s %d %.3f %.4f\n", $_->{many}{variant}, size_of($_->{one}), $_->{one}{gpts}, size_of($_->{many}),
        $_->{many}{ranks}, $_->{many}{gpts}, $_->{efficiency} for @rows;
}
sub weak {
    my ($lab, @runs) = @_;
    my @rows = weak_rows(grep { $_->{lab} eq $lab } @runs);
    return "(no data yet: run `make bench` on a machine with 2 GPUs)\n" unless @rows;
    my @body = map { [ $_->{many}{variant}, size_of($_->{one}), sprintf("%.1f", $_->{one}{gpts}), size_of($_->{many}),
                       "$_->{many}{ranks}/$_->{many}{gpus}", sprintf("%.1f", $_->{many}{gpts}), sprintf("%.0f%%", 100 * $_->{efficiency}) ] } @rows;
    return fmt_table([ 'variant', '1 process: size', 'Gpts/s', 'N processes: size', 'ranks/GPUs', 'Gpts/s', 'efficiency' ], @body)
        . "\nThe same slab per GPU; efficiency = Gpts/s on N GPUs / (N x on one). $rows[0]{many}{gpu}, commit $rows[0]{many}{commit} "
        . "(`make bench`; generated by `make tables` from data/).\n";
}

# What the CUDA graph saves: nccl_overlap against nccl_graph (the same steps, one launch a run), per
# step in microseconds, at each size and process count where both ran.
sub graph_rows {
    my ($at, @first) = first_runs(@_);
    return map {
        my $g = $at->{ run_key('nccl_graph', size_of($_), $_->{steps}, $_->{ranks} // 1, $_->{gpus} // 1) };
        $g ? { plain => $_, graph => $g, saved => 1000 * ($_->{median_ms} - $g->{median_ms}) / $_->{steps} } : ()
    } grep { $_->{variant} eq 'nccl_overlap' } @first;
}
sub cmd_graphs {
    my ($gpu) = @_;
    my @rows = graph_rows(lab_rows($gpu, 'lab9_multigpu'));
    return unless @rows;
    printf "# commit %s\n# size ranks gpus overlap_us_per_step graph_us_per_step saved_us_per_step\n", $rows[0]{plain}{commit};
    printf "%s %d %d %.2f %.2f %.2f\n", size_of($_->{plain}), $_->{plain}{ranks} // 1, $_->{plain}{gpus} // 1,
        1000 * $_->{plain}{median_ms} / $_->{plain}{steps}, 1000 * $_->{graph}{median_ms} / $_->{graph}{steps}, $_->{saved} for @rows;
}
sub graphs {
    my ($lab, @runs) = @_;
    my @rows = graph_rows(grep { $_->{lab} eq $lab } @runs);
    return "(no data yet: run `make bench` on a GPU)\n" unless @rows;
    my @body = map { [ size_of($_->{plain}), ($_->{plain}{ranks} // 1) . '/' . ($_->{plain}{gpus} // 1),
                       sprintf("%.1f", 1000 * $_->{plain}{median_ms} / $_->{plain}{steps}), sprintf("%.1f", 1000 * $_->{graph}{median_ms} / $_->{graph}{steps}),
                       sprintf("%.1f", $_->{saved}) ] } @rows;
    return fmt_table([ 'size', 'ranks/GPUs', 'nccl_overlap µs/step', 'nccl_graph µs/step', 'saved µs/step' ], @body)
        . "\nMedians of whole runs divided by their steps; $rows[0]{plain}{gpu}, commit $rows[0]{plain}{commit} "
        . "(`make bench`; generated by `make tables` from data/).\n";
}

# The code paths of a variant (common/tools/gpu-session.sh path-NN): a row per lab and order, a column per
# path with its Gpoints/s and, in brackets, its ratio to the newest path; the newest row of each.
sub paths_table {
    my ($variant, @rows) = @_;
    @rows = grep { $_->{variant} eq $variant && $_->{status} eq 'PASS' } @rows;
    return "(no data yet: run common/tools/gpu-session.sh path-native path-80 path-75 on a GPU)\n" unless @rows;
    my (%g, %paths, @keys);
    for my $r (@rows) {
        my $k = "$r->{lab}, order $r->{order}";
        $k = "$r->{lab}" if !$r->{order};
        push @keys, $k unless $g{$k};
        $g{$k}{ $r->{code_path} } = $r;
        $paths{ $r->{code_path} } = 1;
    }
    my @p = sort { ($b =~ /(\d+)/)[0] <=> ($a =~ /(\d+)/)[0] } keys %paths;
    my @body = map {
        my $k = $_;
        my $top = $g{$k}{ $p[0] };
        [ $k, map { my $r = $g{$k}{$_}; !$r ? '-' : $_ eq $p[0] || !$top ? sprintf('%.1f', $r->{gpts})
                    : sprintf('%.1f (%.2f)', $r->{gpts}, $r->{gpts} / $top->{gpts}) } @p ]
    } @keys;
    return fmt_table([ "$variant, " . size_of($rows[0]) . ', Gpoints/s', map { "$_ path" } @p ], @body)
        . "\n$rows[0]{gpu}, commits " . join(', ', do { my %s; grep { !$s{$_}++ } map { $_->{commit} } @rows })
        . " (`common/tools/gpu-session.sh path-NN`; generated by `make tables` from data/).\n";
}

# Replace the text between "<!-- KIND:ARG -->" and "<!-- end -->" in each file.
sub cmd_tables {
    my @files = @_ ? @_ : ('README.md', glob('handouts/*.md'), glob('solutions/*/answers.md'));
    my @runs = latest(read_csv_or_empty(gpu_file('', '')));
    my @headline = headline_rows(@runs);
    my @conv = latest(read_csv_or_empty(gpu_file('', '-convergence')));
    # padded rows (513^3) beside unpadded ones (512^3), common/tools/gpu-session.sh any-nx: the newest
    # measurement of each variant, size and order (a kernel re-measured after a change of its own)
    my @align = last_per_key(read_csv_or_empty(gpu_file('', '-alignment')));
    my @paths = read_csv_or_empty(gpu_file('', '-paths'));
    for my $file (@files) {
        open my $in, '<', $file or die "data.pl: cannot read $file: $!\n";
        my $text = do { local $/; <$in> };
        close $in;
        my $new = $text;
        $new =~ s{(<!-- (results|headline|alignment|convergence|table1|table2|scaling|weak|graphs|hiding|profile|paths):([\w.-]+) -->\n).*?(<!-- end -->)}{
            my ($open, $kind, $arg, $close) = ($1, $2, $3, $4);
            my $body = $kind eq 'results' ? results_table($arg, '`make bench`', @runs)
                     : $kind eq 'headline' ? results_table($arg eq 'all' ? '' : $arg, '`make bench`', @headline)
                     : $kind eq 'alignment' ? results_table($arg, '`common/tools/gpu-session.sh any-nx`', @align)
                     : $kind eq 'table1' ? table1($arg, @runs)
                     : $kind eq 'table2' ? table2($arg, @runs)
                     : $kind eq 'scaling' ? scaling($arg, @runs)
                     : $kind eq 'hiding' ? hiding($arg, @runs)
                     : $kind eq 'weak' ? weak($arg, @runs)
                     : $kind eq 'graphs' ? graphs($arg, @runs)
                     : $kind eq 'profile' ? profile_table($arg)
                     : $kind eq 'paths' ? paths_table($arg, @paths)
                     : convergence_table($arg, @conv);
            "$open$body$close"
        }gse;
        next if $new eq $text;
        open my $out, '>', $file or die "data.pl: cannot write $file: $!\n";
        print $out $new;
        close $out;
        print "updated $file\n";
    }
}

sub read_csv_or_empty { my ($p) = @_; return -e $p ? read_csv($p) : () }

# What a row measured before a column existed had in it: the value each appended column gets
# when an older file is migrated. Rows from before ranks/gpus/timing were one process on one
# GPU, timed by one event pair around each launch.
# Rows from before code_path were built for the GPU they ran on, an H100 or H200: sm_90.
my %MIGRATE_DEFAULT = (ranks => 1, gpus => 1, timing => 'launch', code_path => 'sm_90');

# The current header, as the programs say it (`--list`'s "csv" line): the one definition of the
# schema is theirs (common/harness/csv.c), so it is neither repeated nor parsed here.
sub csv_header {
    my ($prog) = grep { -x } map { "$FindBin::Bin/../$_" } map { ("sol$_", "lab$_") } 1 .. 9;
    die "data.pl: no lab program to ask for the CSV header (make all first)\n" unless $prog;
    my ($head) = map { /^csv (.+)$/ ? $1 : () } `'$prog' --list 2>/dev/null`;
    die "data.pl: $prog --list gave no csv line\n" unless $head;
    return $head;
}

# Columns are only ever appended, so an older file is its header plus the missing columns,
# each row filled with that column's default. Rewritten to a temporary file beside it and
# renamed over it, so an interrupted run leaves the old file, never half a new one.
# Returns 0, or 2 where the file is refused (its header is not a prefix of the current one).
sub migrate_file {
    my ($path, @new) = @_;
    open my $in, '<', $path or die "data.pl: cannot read $path: $!\n";
    my @lines = <$in>;
    close $in;
    if (!@lines) {
        # the programs write the current header into an empty file themselves
        print "$path: empty, nothing to migrate\n";
        return 0;
    }
    my ($head, $head_eol) = $lines[0] =~ /^(.*?)(\r?\n?)\z/s;
    my @old = split /,/, $head, -1;
    if (join(',', @old) eq join(',', @new)) {
        print "$path: already has the current header, left untouched\n";
        return 0;
    }
    my $prefix = @old && @old < @new && !grep { $old[$_] ne $new[$_] } 0 .. $#old;
    if (!$prefix) {
        print STDERR "data.pl migrate: $path: its header is not a prefix of the programs\' CSV header (--list)"
            . " (columns are only appended): refused, file left untouched\n";
        return 2;
    }
    my @added = @new[ @old .. $#new ];
    if (my @missing = grep { !exists $MIGRATE_DEFAULT{$_} } @added) {
        print STDERR "data.pl migrate: $path: no default for column(s) @missing in %MIGRATE_DEFAULT"
            . " of plots/data.pl: refused, file left untouched\n";
        return 2;
    }
    my $fill = join '', map { ",$MIGRATE_DEFAULT{$_}" } @added;
    my @out = (join(',', @new) . $head_eol);
    my $rows = 0;
    for my $i (1 .. $#lines) {
        my ($body, $eol) = $lines[$i] =~ /^(.*?)(\r?\n?)\z/s;
        if (!length $body) { push @out, $lines[$i]; next }  # blank lines are kept as they are
        my $n = () = split /,/, $body, -1;
        if ($n != @old) {
            # a row that does not match its own header: appending to it would hide the damage
            print STDERR "data.pl migrate: $path: line " . ($i + 1) . " has $n fields, the header "
                . scalar(@old) . ": refused, file left untouched\n";
            return 2;
        }
        push @out, "$body$fill$eol";
        $rows++;
    }
    my ($tfh, $tmp) = tempfile('.' . basename($path) . '.XXXXXX', DIR => dirname($path));
    my $ok = print $tfh @out;
    $ok = close($tfh) && $ok;
    # tempfile makes the file 0600: keep the permissions the data file had
    $ok = chmod((stat $path)[2] & 07777, $tmp) && $ok;
    if (!$ok || !rename $tmp, $path) {
        my $err = $!;
        unlink $tmp;
        die "data.pl migrate: cannot write $path: $err\n";
    }
    print "$path: migrated, appended " . join(', ', map { "$_=$MIGRATE_DEFAULT{$_}" } @added)
        . " to $rows rows\n";
    return 0;
}

# migrate-profiles LOG: every `--profile` table printed into a GPU test log (the format before
# --profile wrote CSV), as rows of data/<GPU>-profile.csv's columns on stdout (the header first).
# Each section's commit is that of the "stencil-labs GPU verification ...: commit C" line above
# it, its GPU the device line's; the sizes of the early headers that glued a stray 0 to the size
# are read without it; code_path is sm_90 (the native build of the H100 those logs come from).
my @PROFILE_COLS = qw(gpu lab variant nx ny nz order steps model_read model_write dram_read_bytes dram_write_bytes
                      l2_read_bytes l1_sectors_per_request occupancy_pct stall_1 stall_1_cpi stall_2 stall_2_cpi commit code_path);
sub cmd_migrate_profiles {
    my ($log) = @_;
    die "usage: data.pl migrate-profiles LOG\n" unless $log;
    open my $fh, '<', $log or die "data.pl: cannot read $log: $!\n";
    my %lab_name = map { /^lab(\d+)_/ ? ($1 => $_) : () } map { s{.*/}{}r } glob "$FindBin::Bin/../labs/lab*";
    my ($commit, $gpu, $sec) = ('-', '-');
    print join(',', @PROFILE_COLS), "\n";
    while (my $line = <$fh>) {
        chomp $line;
        if ($line =~ /^stencil-labs GPU verification .*: commit (\w+)/) { ($commit, $gpu) = ($1, '-'); next }
        $gpu = $1 if $gpu eq '-' && $line =~ /^([^,]+), [\d.]+, [\d.]+, \d+ MHz/;
        if ($line =~ /^DRAM traffic per output point(?:-step)?(?:, caches and warps)?, measured by ncu \(lab (\d+), ([\dx]+)(?:, order (\d+))?(?:, (\d+) steps)?\)/) {
            my ($n, $size, $order, $steps) = ($1, $2, $3 // 0, $4 // 0);
            my @d = split /x/, $size;
            $d[-1] =~ s/0$// if !$4 && (($n == 1 && $d[0] == 2684354560) || $d[-1] == 5120);  # the stray 0
            push @d, 1 while @d < 3;
            $sec = { lab => $lab_name{$n} // "lab$n", n => \@d, order => $order, steps => $steps };
            next;
        }
        next unless $sec;
        my @f = map { s/^\s+|\s+$//gr } split /\|/, $line;
        if (@f >= 5 && $f[1] =~ m{^([\d.]+)/([\d.]+)$}) {
            my ($mr, $mw) = ($1, $2);
            my ($l2, $l1, $occ, @stall) = ('', '', '', '', '', '', '');
            if (@f >= 9) {
                ($l2, $l1, $occ) = ($f[5], $f[6], $f[7] =~ s/%$//r);
                my @s = map { /^(.*\S)\s+([\d.]+)$/ ? ($1, $2) : ('', '') } split /,\s*/, $f[8];
                @stall = (@s, ('') x 4)[0 .. 3];
            }
            print join(',', $gpu, $sec->{lab}, $f[0], @{ $sec->{n} }, $sec->{order}, $sec->{steps}, $mr, $mw, $f[2], $f[3],
                       $l2, $l1, $occ, @stall, $commit, 'sm_90'), "\n";
        } elsif ($line !~ /^variant/) {
            undef $sec;
        }
    }
}

sub cmd_migrate {
    die "usage: data.pl migrate FILE...\n" unless @_;
    my @new = split /,/, csv_header(), -1;
    my $status = 0;
    for my $path (@_) {
        my $s = migrate_file($path, @new);
        $status = $s if $s;
    }
    exit $status;
}

my $cmd = shift @ARGV // '';
if ($cmd eq 'bandwidth') { cmd_bandwidth(@ARGV) }
elsif ($cmd eq 'convergence') { cmd_convergence(@ARGV) }
elsif ($cmd eq 'tables') { cmd_tables(@ARGV) }
elsif ($cmd eq 'table1') { cmd_table1(@ARGV) }
elsif ($cmd eq 'table1pct') { cmd_table1pct(@ARGV) }
elsif ($cmd eq 'journey') { cmd_journey(@ARGV) }
elsif ($cmd eq 'roofline') { cmd_roofline(@ARGV) }
elsif ($cmd eq 'compare') { cmd_compare(@ARGV) }
elsif ($cmd eq 'measured') { cmd_measured(@ARGV) }
elsif ($cmd eq 'migrate') { cmd_migrate(@ARGV) }
elsif ($cmd eq 'migrate-profiles') { cmd_migrate_profiles(@ARGV) }
elsif ($cmd eq 'lab7fs') { cmd_lab7fs(@ARGV) }
elsif ($cmd eq 'lab7variants') { cmd_lab7variants(@ARGV) }
elsif ($cmd eq 'lab7sizes') { cmd_lab7sizes(@ARGV) }
elsif ($cmd eq 'lab7_3d') { cmd_lab7_3d(@ARGV) }
elsif ($cmd eq 'lab7heatmap') { cmd_lab7heatmap(@ARGV) }
elsif ($cmd eq 'lab8variants') { cmd_lab8variants(@ARGV) }
elsif ($cmd eq 'table2') { cmd_table2(@ARGV) }
elsif ($cmd eq 'scaling') { cmd_scaling(@ARGV) }
elsif ($cmd eq 'hiding') { cmd_hiding(@ARGV) }
elsif ($cmd eq 'weak') { cmd_weak(@ARGV) }
elsif ($cmd eq 'graphs') { cmd_graphs(@ARGV) }
elsif ($cmd eq 'slabs') { cmd_slabs(@ARGV) }
else {
    die "usage: data.pl bandwidth GPU | journey GPU | roofline GPU | compare CSV [GPU]\n"
        . "       | convergence GPU LAB | table1 GPU VARIANT | table1pct GPU VARIANT [VOLUME...] | measured [GPU]\n"
        . "       | tables [FILE...] | migrate FILE... | migrate-profiles LOG\n"
        . "       | lab7fs GPU | lab7variants GPU | lab7sizes GPU | lab7_3d GPU | lab7heatmap GPU [FILE]\n"
        . "       | lab8variants GPU | table2 GPU | scaling GPU\n";
}
