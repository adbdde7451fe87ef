# SPDX-License-Identifier: MIT
# What the course's figure, table and migration tools (plots/figures.pl, plots/tables.pl,
# plots/migrate.pl) share: reading the measured CSV under data/ (only each lab's newest bench
# session counts: the rows with the commit of that lab's last row), the phrases of the figures'
# titles, and the rows each lab's figures and tables are made from. Numbers are never typed by
# hand: they come from the CSV.
package Data;
use strict;
use warnings;
use sort 'stable';
use Exporter 'import';
use FindBin;
our @EXPORT = qw(
    read_csv latest gpu_file size_of headline_rows lab_id lab_number lab_style dims_of labs_phrase commits_phrase
    gpus_phrase print_head last_per_key default_problem session_rows problem_phrase bar_layout
    lab_title lab_name flops_per_point bytes_per_point table1_rows lab_rows lab7_rows lab7_bound
    default_size_rows stepped_head lab8_rows lab8_bound table2_rows scaling_rows run_key hiding_rows
    lab8_best peer_pairs path_cells weak_rows graph_rows read_csv_or_empty first_runs $DEFAULT_GPU $LAB7 $LAB8
    @TABLE2_2009 $TESLA10_GBPS %OVERLAPPED $LAB9_GHOST
);

our $DEFAULT_GPU = 'NVIDIA_H100_80GB_HBM3';

sub read_csv {
    my ($path) = @_;
    open my $fh, '<', $path or die "$0: cannot read $path: $!\n";
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

# A peer's figures beside the lab's rows, for one GPU: per problem (in the order of first
# appearance), the newest peer figure whose source names a commit ("run at C") at which @$all has
# rows of that size, beside the fastest of them; where no session has both, the newest figure
# beside the fastest of @$latest at that size, marked as two sessions. Returns [figure, ours or
# undef, two sessions (0/1)] per problem. @$all and @$latest: the lab's passing rows.
sub peer_pairs {
    my ($peers, $all, $latest) = @_;
    my (%figures, @order);
    for my $p (@$peers) {
        my $k = "$p->{peer} $p->{problem}";
        push @order, $k unless $figures{$k};
        push @{ $figures{$k} }, $p;
    }
    my $fastest = sub { (sort { $b->{gpts} <=> $a->{gpts} } @_)[0] };
    my @out;
    for my $k (@order) {
        my @mine = reverse @{ $figures{$k} };  # newest first
        my ($size) = $mine[0]{problem} =~ /(\d+x\d+(?:x\d+)?)$/ or next;
        my ($pair) = grep { $_->[1] } map {
            my $q = $_;
            my ($c) = ($q->{source} // '') =~ /\bat ([0-9a-f]{7,40})\b/;
            [ $q, $c ? $fastest->(grep { size_of($_) eq $size && (index($_->{commit}, $c) == 0 || index($c, $_->{commit}) == 0) } @$all) : undef, 0 ]
        } @mine;
        unless ($pair) {
            my $ours = $fastest->(grep { size_of($_) eq $size } @$latest);
            $pair = [ $mine[0], $ours, $ours ? 1 : 0 ];
        }
        push @out, $pair;
    }
    return @out;
}

# The code paths' table (data/<GPU>-paths.csv): for each lab and order (the keys, in first-seen order)
# and each path, the newest row, and its ratio to the row of the newest architecture's path in the
# same commit (undef where that commit has none: paths measured by different commits make no
# ratio). Returns the paths newest architecture first, the keys, and {key}{path} = [row, ratio].
sub path_cells {
    my (%newest, %by_commit, %paths, @keys);
    for my $r (@_) {
        my $k = $r->{order} ? "$r->{lab}, order $r->{order}" : $r->{lab};
        push @keys, $k unless $newest{$k};
        $newest{$k}{ $r->{code_path} } = $r;
        $by_commit{$k}{ $r->{code_path} }{ $r->{commit} } = $r;
        $paths{ $r->{code_path} } = 1;
    }
    my @p = sort { ($b =~ /(\d+)/)[0] <=> ($a =~ /(\d+)/)[0] } keys %paths;
    my %cells;
    for my $k (@keys) {
        for my $path (grep { $newest{$k}{$_} } @p) {
            my $r = $newest{$k}{$path};
            my $top = $path eq $p[0] ? undef : $by_commit{$k}{ $p[0] }{ $r->{commit} };
            $cells{$k}{$path} = [ $r, $top ? $r->{gpts} / $top->{gpts} : undef ];
        }
    }
    return (\@p, \@keys, \%cells);
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
# size (the first line of its bench.args); of a multi-GPU lab, the run at that size on the most
# GPUs (processes that share a GPU are no scaling result).
sub headline_rows {
    my (%at, @out);
    for my $r (grep { $_->{status} eq 'PASS' } @_) {
        my $k = "$r->{lab} $r->{variant}";
        if (!exists $at{$k}) { $at{$k} = @out; push @out, $r }
        elsif (size_of($out[ $at{$k} ]) eq size_of($r) && ($r->{gpus} || 1) > ($out[ $at{$k} ]{gpus} || 1)) { $out[ $at{$k} ] = $r }
    }
    return @out;
}

# A lab's id ("7", "5a": a lab may come in parts), the number that orders the labs (5.1 for 5a,
# 5.2 for 5b) and the index of its figures' colour and point type (the lab's number, plus 10 for
# a part b: labcolor takes it modulo 10, so both parts of a lab share its colour, not its points).
sub lab_id { my ($lab) = @_; return ($lab =~ /^lab(\d+[a-z]?)_/)[0] // 0 }
sub lab_part {  # (number, part: 0 for none, 1 for a, 2 for b ...)
    my ($n, $p) = $_[0] =~ /^lab(\d+)([a-z]?)/ or return (0, 0);
    return ($n, $p ? ord($p) - ord('a') + 1 : 0);
}
sub lab_number { my ($n, $k) = lab_part(@_); return $n + $k / 10 }
sub lab_style { my ($n, $k) = lab_part(@_); return $n + ($k ? 10 * ($k - 1) : 0) }
sub dims_of { my ($r) = @_; return $r->{nz} > 1 ? 3 : $r->{ny} > 1 ? 2 : 1 }

# "lab 7", "labs 1-6", "labs 2, 5a", of lab ids: a run of labs, each the next one or the next
# part of the same, is "labs first-last"
sub labs_phrase {
    my $key = sub { my ($id) = @_; my ($n, $p) = $id =~ /^(\d+)([a-z]?)$/; return ($n // 0, $p // '') };
    my @n = sort { ($key->($a))[0] <=> ($key->($b))[0] || ($key->($a))[1] cmp ($key->($b))[1] } @_;
    return "lab $n[0]" if @n == 1;
    my $run = !grep {
        my ($x, $px) = $key->($n[ $_ - 1 ]);
        my ($y, $py) = $key->($n[$_]);
        !($y == $x + 1 && ($py eq '' || $py eq 'a') || $y == $x && $px ne '' && $py gt $px)
    } 1 .. $#n;
    return $run ? "labs $n[0]-$n[-1]" : 'labs ' . join(', ', @n);
}

# The commit(s) rows were measured at: "6ec05273c020", or, where the labs' sessions differ,
# "6ec05273c020 (labs 1-6), 07ef59b4fe7f (lab 7)".
sub commits_phrase {
    my (%labs, %first, %seen);
    for my $r (@_) {
        my $n = lab_number($r->{lab});
        $labs{ $r->{commit} }{ lab_id($r->{lab}) } = 1;
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
sub lab_title { my ($lab) = @_; (my $t = $lab) =~ s/^lab(\d+[a-z]?)_/lab $1 /; return $t }
sub lab_name { my ($lab) = @_; (my $t = $lab) =~ s/^lab\d+[a-z]?_//; return $t }

# Floating-point operations per output point (per point-step) of a row's problem, as its lab's
# program says (--list's "flops" line: the lab's definition counts them); undef where no program
# of the lab is built or it counts none. One question per lab, size and order.
my %FLOPS;
sub flops_per_point {
    my ($r) = @_;
    my $n = lab_id($r->{lab});
    my @args = ('--size', size_of($r), $r->{order} ? ('--order', $r->{order}) : ());
    my $key = "$n @args";
    return $FLOPS{$key} if exists $FLOPS{$key};
    my ($prog) = grep { -x } map { "$FindBin::Bin/../$_" } ("sol$n", "lab$n");
    my $flops;
    if ($prog && open my $fh, '-|', $prog, '--list', @args) {
        while (my $line = <$fh>) { $flops = $1 if $line =~ /^flops (\S+)$/ }
        close $fh;
    }
    return $FLOPS{$key} = $flops;
}

# Minimal bytes per point(-step): what the program divided by to get GB/s from Gpts/s (the lab's
# bytes_per_point: 8 for one array in and one out, lab 8's 16).
sub bytes_per_point { my ($r) = @_; return $r->{gpts} > 0 ? int($r->{gbps} / $r->{gpts} + 0.5) : undef }

sub table1_rows {
    my ($gpu, $variant) = @_;
    return last_per_key(grep { $_->{lab} eq 'lab5b_register_queue' && $_->{variant} eq $variant && $_->{status} eq 'PASS' }
        latest(read_csv(gpu_file($gpu, ''))));
}

# ---- lab 7 (heat_multistep): the figures' inputs. Gpoint-steps/s is the CSV's gpts (output
# points x steps / time); the single-step bound of a row is its copy bandwidth / 8 bytes (one
# float read and one written per point and step). Each command starts with a line
# "# commit C size S steps T" (the session and its default problem) for the figures' titles.
our $LAB7 = 'lab7_heat_multistep';

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

# ---- lab 8 ----
our $LAB8 = 'lab8_wave';

# 003's Table 2: the 3D FDTD kernel (order 8 in space, 2 in time), Mpoints/s on one Tesla
# 10-series GPU of a Tesla S1070 (CUDA 2.0), 16x16 and 32x32 output tiles. Copied from the paper.
# Its bound in our terms: the GPU's theoretical 102 GB/s (003, section 2) over 16 bytes.
our @TABLE2_2009 = (
    [ '320x320x400', 2870.7, 2783.5 ], [ '480x480x480', 2965.5, 3050.5 ], [ '544x544x544', 2786.5, 3121.6 ],
    [ '640x640x400', 2686.9, 3046.8 ], [ '800x800x200', 2518.3, 3196.9 ],
);
our $TESLA10_GBPS = 102;

sub lab8_rows { my ($gpu) = @_; return lab_rows($gpu, $LAB8) }

# copy bandwidth / 16 bytes, in Gpoint-steps/s
sub lab8_bound { my ($r) = @_; return $r->{copy_gbps} / 16 }

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

# Lab 9: how much of the exchange each overlapped variant hides, from bench rows alone. For a run
# on N processes with a GPU each, each variant of a staged/overlapped pair against its own run on
# one process at the size of the thickest slab plus its ghost zone (G = 4 planes: such a grid
# computes as many planes as a slab with one face of the grid, as both of a 2-process run have):
# the same planes, no exchange. The staged variant's extra time is its whole exchange (nothing
# overlaps it); the overlapped variant's extra time is what it still exposes. Per step, in
# microseconds; the last of S steps exchanges nothing, so the exchange is spread over S - 1.
# An overlapped variant with no staged twin (copy_overlap: the copy engines) gets a row of its own
# (staged is then the row itself): what it still exposes, with no exchange to compare.
our %OVERLAPPED = (mpi_staged => 'mpi_overlap', nccl => 'nccl_overlap');
our %UNPAIRED = (copy_overlap => 1);
our $LAB9_GHOST = 4;
sub hiding_rows {
    my ($at, @first) = first_runs(@_);
    my @out;
    for my $s (sort { $a->{nz} <=> $b->{nz} || $a->{variant} cmp $b->{variant} } @first) {
        my ($ranks, $gpus) = ($s->{ranks} // 1, $s->{gpus} // 1);
        my $alone = $UNPAIRED{ $s->{variant} };
        next unless $ranks > 1 && $gpus >= $ranks && ($OVERLAPPED{ $s->{variant} } || $alone) && $s->{steps} > 1;
        my $o = $alone ? $s : $at->{ run_key($OVERLAPPED{ $s->{variant} }, size_of($s), $s->{steps}, $ranks, $gpus) } or next;
        my $slab_nz = int(($s->{nz} + $ranks - 1) / $ranks);
        my $one = "$s->{nx}x$s->{ny}x" . ($slab_nz + $LAB9_GHOST);
        my $cs = $at->{ run_key($s->{variant}, $one, $s->{steps}, 1, 1) } or next;
        my $co = $at->{ run_key($o->{variant}, $one, $s->{steps}, 1, 1) } or next;
        my $us = sub { 1000 * $_[0]{median_ms} };
        my $exchange = $alone ? undef : ($us->($s) - $us->($cs)) / ($s->{steps} - 1);
        my $exposed = ($us->($o) - $us->($co)) / ($s->{steps} - 1);
        push @out, { staged => $s, overlapped => $o, alone => $alone, slab_nz => $slab_nz, compute => $us->($cs) / $s->{steps},
                     exchange => $exchange, exposed => $exposed,
                     hidden => defined $exchange && $exchange > 0 ? 1 - $exposed / $exchange : undef };
    }
    return @out;
}
# Lab 8's fastest row at a size and step count: among its rows in the baseline file
# (data/<GPU>-baseline.csv: lab9-bench runs lab 8's queue4 in the same device call as lab 9) of
# lab 9's commit, else among its newest make bench rows; undef where there is none.
sub lab8_best {
    my ($size, $steps, $commit, $baseline, @runs) = @_;
    my $of = sub { grep { $_->{lab} eq $LAB8 && $_->{status} eq 'PASS' && size_of($_) eq $size && $_->{steps} == $steps } @_ };
    my @rows = defined $commit ? grep { ($_->{commit} // '') eq $commit } $of->(@$baseline) : ();
    @rows = $of->(@runs) unless @rows;
    my ($best) = sort { $b->{gpts} <=> $a->{gpts} } @rows;
    return $best;
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

# What the CUDA graph saves: nccl_overlap against nccl_graph (the same steps, one launch a run), per
# step in microseconds, at each size and process count where both ran.
sub graph_rows {
    my ($at, @first) = first_runs(@_);
    return map {
        my $g = $at->{ run_key('nccl_graph', size_of($_), $_->{steps}, $_->{ranks} // 1, $_->{gpus} // 1) };
        $g ? { plain => $_, graph => $g, saved => 1000 * ($_->{median_ms} - $g->{median_ms}) / $_->{steps} } : ()
    } grep { $_->{variant} eq 'nccl_overlap' } @first;
}

sub read_csv_or_empty { my ($p) = @_; return -e $p ? read_csv($p) : () }

1;
