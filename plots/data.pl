#!/usr/bin/env perl
# SPDX-License-Identifier: MIT
# Everything derived from the measured CSV under data/: the gnuplot inputs and the result
# tables in README.md and handouts/. Numbers are never typed by hand: they come from here.
#
#   perl plots/data.pl bandwidth GPU         label, GB/s, copy GB/s per variant (gnuplot input)
#   perl plots/data.pl convergence GPU LAB   n, h, max error per variant (gnuplot input)
#   perl plots/data.pl table1 GPU VARIANT    lab 5's Mpoints/s by order, one block per volume
#   perl plots/data.pl measured [GPU]        model and ncu-measured read redundancy per variant
#   perl plots/data.pl lab7fs GPU            lab 7: Gpoint-steps/s of fused_sN and its speed-up over gm
#   perl plots/data.pl lab7variants GPU      lab 7: Gpoint-steps/s of every variant and the 1-step bound
#   perl plots/data.pl lab7sizes GPU         lab 7: Gpoint-steps/s against the 2D size, one block per variant
#   perl plots/data.pl lab7_3d GPU           lab 7: the 3D rows (variant, size, steps, Gpoint-steps/s, bound)
#   perl plots/data.pl lab7heatmap GPU [F]   lab 7: the heat map's file, its size and steps (nothing if absent)
#   perl plots/data.pl tables [FILE...]      rewrite the marked tables in README.md and handouts/
#   perl plots/data.pl migrate FILE...       bring a CSV written under an older header up to
#                                            CSV_HEADER in common/csv.c, in place
#
# GPU is a data file's name without .csv (default: the H100 the course ships data for).
# Only the rows of each lab's last bench session in a file are used: those with the commit of
# that lab's last row.
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
    return grep { $_->{commit} eq $commit{ $_->{lab} } } @rows;
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

sub cmd_bandwidth {
    my ($gpu) = @_;
    my @rows = headline_rows(latest(read_csv(gpu_file($gpu, ''))));
    print "# label gbps copy_gbps pct\n";
    for my $r (@rows) {
        (my $lab = $r->{lab}) =~ s/_.*//;
        printf "\"%s %s\" %.1f %.1f %.2f\n", $lab, $r->{variant}, $r->{gbps}, $r->{copy_gbps},
            $r->{pct_copy};
    }
}

sub cmd_convergence {
    my ($gpu, $lab) = @_;
    my @rows = grep { $_->{lab} eq $lab } latest(read_csv(gpu_file($gpu, '-convergence')));
    my %seen;
    for my $r (@rows) {
        print "\n\n$r->{variant} h max_err rms_err\n" unless $seen{$r->{variant}}++;
        print "$r->{n} $r->{h} $r->{max_err} $r->{rms_err}\n";
    }
}

# Mpoints/s against order for each volume of a variant (gnuplot blocks), and the bound.
sub cmd_table1 {
    my ($gpu, $variant) = @_;
    my @rows = grep { $_->{lab} eq 'lab5_register_tiling' && $_->{variant} eq $variant && $_->{status} eq 'PASS' }
        latest(read_csv(gpu_file($gpu, '')));
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

# Model and measured read redundancy per variant, from the ncu sections of the GPU log.
sub cmd_measured {
    my ($gpu) = @_;
    my $log = "data/" . ($gpu || $DEFAULT_GPU) . "-test.log";
    open my $fh, '<', $log or die "data.pl: no GPU log $log\n";
    my ($lab, $order, %last);
    my @keys;
    while (my $line = <$fh>) {
        if ($line =~ /^DRAM traffic per output point, measured by ncu \(lab (\d+), [^,)]+(?:, order (\d+))?\)/) {
            ($lab, $order) = ($1, $2);
            next;
        }
        if (defined $lab && $line =~ /^(\S+)\s+\|\s+([\d.]+)\/[\d.]+\s+\|\s+[\d.]+\s+\|\s+[\d.]+\s+\|\s+([\d.]+)\//) {
            my $key = "lab$lab $1" . (defined $order && $order != 2 ? " k$order" : '');
            push @keys, $key unless $last{$key};
            $last{$key} = "$2 $3";
        } elsif ($line !~ /^variant/) {
            undef $lab;
        }
    }
    my %lab_of = map { $_ => (/^lab(\d+)/)[0] } @keys;
    @keys = sort { $lab_of{$a} <=> $lab_of{$b} } @keys;  # by lab; within a lab, as first logged
    print "# label model measured\n";
    print "\"$_\" $last{$_}\n" for @keys;
}

# ---- lab 7 (heat_multistep): the figures' inputs. Gpoint-steps/s is the CSV's gpts (output
# points x steps / time); the single-step bound of a row is its copy bandwidth / 8 bytes (one
# float read and one written per point and step). Each command starts with a line
# "# commit C size S steps T" (the session and its default problem) for the figures' titles.
my $LAB7 = 'lab7_heat_multistep';

sub lab7_rows {
    my ($gpu) = @_;
    my $path = gpu_file($gpu, '');
    return () unless -e $path;
    return grep { $_->{lab} eq $LAB7 && $_->{status} eq 'PASS' } latest(read_csv($path));
}

sub lab7_bound { my ($r) = @_; return $r->{copy_gbps} / 8 }

# The rows of the lab's default problem: its headline rows (the first line of bench.args).
sub lab7_default {
    my @rows = headline_rows(@_);
    return () unless @rows;
    my $d = $rows[0];
    return grep { size_of($_) eq size_of($d) && $_->{steps} == $d->{steps} } @rows;
}

sub lab7_head {
    my ($r) = @_;
    printf "# commit %s size %s steps %d\n", $r->{commit}, size_of($r), $r->{steps};
}

# N, fused_sN's Gpoint-steps/s, gm's, and the speed-up fused_sN / gm, at the default size.
sub cmd_lab7fs {
    my @rows = lab7_default(lab7_rows(@_));
    my ($gm) = grep { $_->{variant} eq 'gm' } @rows;
    return unless $gm;
    my @fused = sort { $a->[0] <=> $b->[0] } map { $_->{variant} =~ /^fused_s(\d+)$/ ? [ $1, $_ ] : () } @rows;
    return unless @fused;
    lab7_head($gm);
    print "# N gpts gm_gpts speedup\n";
    printf "%d %.3f %.3f %.4f\n", $_->[0], $_->[1]{gpts}, $gm->{gpts}, $_->[1]{gpts} / $gm->{gpts} for @fused;
}

# Every variant at the default size, in the ladder's order, with the single-step bound.
sub cmd_lab7variants {
    my @rows = lab7_default(lab7_rows(@_));
    return unless @rows;
    my %by = map { $_->{variant} => $_ } @rows;
    my @order = grep { $by{$_} } ('gm', 'shm', (map { "fused_s$_" } 1 .. 8), 'tb');
    lab7_head($rows[0]);
    print "# variant gpts bound\n";
    printf "%s %.3f %.3f\n", $_, $by{$_}{gpts}, lab7_bound($by{$_}) for @order;
}

# Gpoint-steps/s against the 2D size (square grids at the default steps), one gnuplot block
# per variant measured at more than one size (gm, fused_s4, tb in bench.args).
sub cmd_lab7sizes {
    my @all = lab7_rows(@_);
    my @def = lab7_default(@all);
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
    lab7_head($def[0]);
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
    lab7_head($rows[0]);
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

sub results_table {
    my ($lab, @rows) = @_;
    @rows = grep { !$lab || $_->{lab} eq $lab } @rows;
    return "(no data yet: run `make bench` on a GPU)\n" unless @rows;
    my %orders = map { $_->{order} => 1 } grep { $_->{status} ne 'INFO' } @rows;
    my $by_order = keys %orders > 1;  # an order column where the rows differ in order
    my @body = map {
        my $info = $_->{status} eq 'INFO';  # a measurement beside the variants (empty_kernel)
        [   ($lab ? () : ($_->{lab})), $_->{variant}, ($by_order ? ($_->{order}) : ()), size_of($_),
            sprintf("%.4f", $_->{median_ms}),
            $info ? ('-', '-', '-') : (sprintf("%.1f", $_->{gpts}), sprintf("%.0f", $_->{gbps}),
                sprintf("%.1f%%", $_->{pct_copy})),
            sprintf("%.0f", $_->{copy_gbps}),
            $info ? '-' : sprintf("%.2f/%.2f", $_->{redundancy_read}, $_->{redundancy_write}),
            $_->{status} ]
    } @rows;
    my $gpu = $rows[0]{gpu};
    my $commit = $rows[0]{commit};
    return fmt_table([ ($lab ? () : ('lab')), 'variant', ($by_order ? ('order') : ()), 'size', 'median ms', 'Gpts/s', 'GB/s',
            '% copy', 'copy GB/s', 'redundancy r/w', 'result' ], @body)
        . "\n$gpu, commit $commit (`make bench`; generated by `make tables` from data/).\n";
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

# The DRAM bytes per point that `--profile` (Nsight Compute) printed into the GPU test log:
# the last section for lab N (and order K, written N.K) in data/<GPU>-test.log.
sub profile_table {
    my ($which) = @_;
    my ($lab, $order) = split /\./, $which;
    my $log = "data/$DEFAULT_GPU-test.log";
    open my $fh, '<', $log or return "(no data yet: run `make profile` on a GPU)\n";
    my (@rows, $cur, $title, $commit, $measured_at);
    while (my $line = <$fh>) {
        chomp $line;
        $commit = $1 if $line =~ /^stencil-labs GPU verification .*: commit (\w+)/;
        if ($line =~ /^DRAM traffic per output point, measured by ncu \(lab (\d+), ([^,)]+)(?:, order (\d+))?\)/) {
            $cur = $1 == $lab && (!defined $order || ($3 // '') eq $order) ? [] : undef;
            # (make profile runs each solution at its default size; an early version of the
            # header glued a stray 0 to the size, so the size is not taken from the log)
            if ($cur) {
                @rows = ();
                $title = "lab $lab at its default size" . (defined $3 ? ", order $3" : '');
                $measured_at = $commit;
            }
            next;
        }
        next unless $cur;
        if ($line =~ /^(\S+)\s+\|\s+([\d.]+)\/([\d.]+)\s+\|\s+([\d.]+)\s+\|\s+([\d.]+)\s+\|\s+([\d.]+)\/([\d.]+)/) {
            push @rows, [ $1, "$2/$3", $4, $5, "$6/$7" ];
        } elsif ($line !~ /^variant/) {
            $cur = undef;
        }
    }
    return "(no data yet: run `make profile` on a GPU)\n" unless @rows;
    return fmt_table([ 'variant', 'model elements r/w', 'DRAM bytes read/pt', 'DRAM bytes written/pt',
            'measured elements r/w' ], @rows)
        . "\n$title; Nsight Compute's dram__bytes_read/write.sum of one checked launch (`./solN --profile`), from data/$DEFAULT_GPU-test.log"
        . (defined $measured_at ? ", run at commit $measured_at" : '') . ".\n";
}

# Replace the text between "<!-- KIND:ARG -->" and "<!-- end -->" in each file.
sub cmd_tables {
    my @files = @_ ? @_ : ('README.md', glob('handouts/*.md'));
    my @runs = latest(read_csv_or_empty(gpu_file('', '')));
    my @headline = headline_rows(@runs);
    my @conv = latest(read_csv_or_empty(gpu_file('', '-convergence')));
    for my $file (@files) {
        open my $in, '<', $file or die "data.pl: cannot read $file: $!\n";
        my $text = do { local $/; <$in> };
        close $in;
        my $new = $text;
        $new =~ s{(<!-- (results|headline|convergence|table1|profile):([\w.-]+) -->\n).*?(<!-- end -->)}{
            my ($open, $kind, $arg, $close) = ($1, $2, $3, $4);
            my $body = $kind eq 'results' ? results_table($arg, @runs)
                     : $kind eq 'headline' ? results_table($arg eq 'all' ? '' : $arg, @headline)
                     : $kind eq 'table1' ? table1($arg, @runs)
                     : $kind eq 'profile' ? profile_table($arg)
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
my %MIGRATE_DEFAULT = (ranks => 1, gpus => 1, timing => 'launch');

# The current header: the C string literal(s) of CSV_HEADER in common/csv.c, which is the one
# definition of the schema (the programs write and check it), so it is not repeated here.
sub csv_header {
    my $src = "$FindBin::Bin/../common/csv.c";
    open my $fh, '<', $src or die "data.pl: cannot read $src: $!\n";
    my $c = do { local $/; <$fh> };
    my $lit = qr/"(?:[^"\\\n]|\\.)*"/;
    my ($init) = $c =~ /\bCSV_HEADER\s*\[\s*\]\s*=\s*((?:\s*$lit)+)\s*;/
        or die "data.pl: no CSV_HEADER string in $src\n";
    my $head = join '', $init =~ /"((?:[^"\\\n]|\\.)*)"/g;  # adjacent literals concatenate
    # A column list has no escapes; one here would need C's rules, not a guess.
    die "data.pl: CSV_HEADER in $src has an escape sequence: not parsed\n" if $head =~ /\\/;
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
        print STDERR "data.pl migrate: $path: its header is not a prefix of CSV_HEADER in common/csv.c"
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
elsif ($cmd eq 'measured') { cmd_measured(@ARGV) }
elsif ($cmd eq 'migrate') { cmd_migrate(@ARGV) }
elsif ($cmd eq 'lab7fs') { cmd_lab7fs(@ARGV) }
elsif ($cmd eq 'lab7variants') { cmd_lab7variants(@ARGV) }
elsif ($cmd eq 'lab7sizes') { cmd_lab7sizes(@ARGV) }
elsif ($cmd eq 'lab7_3d') { cmd_lab7_3d(@ARGV) }
elsif ($cmd eq 'lab7heatmap') { cmd_lab7heatmap(@ARGV) }
else {
    die "usage: data.pl bandwidth GPU | convergence GPU LAB | table1 GPU VARIANT | measured [GPU]\n"
        . "       | tables [FILE...] | migrate FILE...\n"
        . "       | lab7fs GPU | lab7variants GPU | lab7sizes GPU | lab7_3d GPU | lab7heatmap GPU [FILE]\n";
}
