#!/usr/bin/env perl
# SPDX-License-Identifier: MIT
# Brings data files written under an older format up to today's (plots/Data.pm reads only today's):
#   perl plots/migrate.pl migrate FILE...          bring a CSV written under an older header up to
#                                                  the programs' CSV header (--list), in place
#   perl plots/migrate.pl migrate-profiles LOG     the --profile tables of a GPU test log written
#                                                  before --profile wrote CSV, as that CSV on stdout
#   perl plots/migrate.pl split-lab5 FILE...       rows of lab 5 from before it was split in two
#                                                  go to lab 5a or 5b by their variant, in place
use strict;
use warnings;
use sort 'stable';
use File::Basename qw(basename dirname);
use File::Temp qw(tempfile);
use FindBin;
use lib $FindBin::Bin;
use Data;

# What a row measured before a column existed had in it: the value each appended column gets
# when an older file is migrated. Rows from before ranks/gpus/timing were one process on one
# GPU, timed by one event pair around each launch.
# Rows from before code_path were built for the GPU they ran on, an H100 or H200: sm_90.
my %MIGRATE_DEFAULT = (ranks => 1, gpus => 1, timing => 'launch', code_path => 'sm_90');

# The current header, as the programs say it (`--list`'s "csv" line): the one definition of the
# schema is theirs (common/harness/csv.c), so it is neither repeated nor parsed here.
sub csv_header {
    my ($prog) = grep { -x } map { "$FindBin::Bin/../$_" } map { ("sol$_", "lab$_") } 1 .. 9;
    die "migrate.pl: no lab program to ask for the CSV header (make all first)\n" unless $prog;
    my ($head) = map { /^csv (.+)$/ ? $1 : () } `'$prog' --list 2>/dev/null`;
    die "migrate.pl: $prog --list gave no csv line\n" unless $head;
    return $head;
}

# Columns are only ever appended, so an older file is its header plus the missing columns,
# each row filled with that column's default. Rewritten to a temporary file beside it and
# renamed over it, so an interrupted run leaves the old file, never half a new one.
# Returns 0, or 2 where the file is refused (its header is not a prefix of the current one).
sub migrate_file {
    my ($path, @new) = @_;
    open my $in, '<', $path or die "migrate.pl: cannot read $path: $!\n";
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
        print STDERR "migrate.pl: $path: its header is not a prefix of the programs\' CSV header (--list)"
            . " (columns are only appended): refused, file left untouched\n";
        return 2;
    }
    my @added = @new[ @old .. $#new ];
    if (my @missing = grep { !exists $MIGRATE_DEFAULT{$_} } @added) {
        print STDERR "migrate.pl: $path: no default for column(s) @missing in %MIGRATE_DEFAULT"
            . " of plots/migrate.pl: refused, file left untouched\n";
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
            print STDERR "migrate.pl: $path: line " . ($i + 1) . " has $n fields, the header "
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
        die "migrate.pl: cannot write $path: $err\n";
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
    die "usage: migrate.pl migrate-profiles LOG\n" unless $log;
    open my $fh, '<', $log or die "migrate.pl: cannot read $log: $!\n";
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
    die "usage: migrate.pl migrate FILE...\n" unless @_;
    my @new = split /,/, csv_header(), -1;
    my $status = 0;
    for my $path (@_) {
        my $s = migrate_file($path, @new);
        $status = $s if $s;
    }
    exit $status;
}

# split-lab5 FILE...: lab5_register_tiling was one lab until it became two sittings: lab 5a
# (register tiling of the 7-point stencil) and lab 5b (the order-k register queue). The kernels
# did not change (the same PTX), so a row keeps its measurement and takes its variant's lab; lab
# 5a has no --order (the 7-point stencil, as labs 2-4), so its rows' order becomes 0 as theirs.
my %LAB5_PART = map { ($_ => 'lab5a_register_tiling') } qw(regtile_7pt regcol_z8 regcol4_z4);
sub cmd_split_lab5 {
    die "usage: migrate.pl split-lab5 FILE...\n" unless @_;
    for my $path (@_) {
        open my $in, '<', $path or die "migrate.pl: cannot read $path: $!\n";
        chomp(my $head = <$in> // '');
        my @cols = split /,/, $head, -1;
        my ($lab) = grep { $cols[$_] eq 'lab' } 0 .. $#cols;
        my ($variant) = grep { $cols[$_] eq 'variant' } 0 .. $#cols;
        my ($order) = grep { $cols[$_] eq 'order' } 0 .. $#cols;
        unless (defined $lab && defined $variant && defined $order) {
            print "$path: no lab, variant and order columns: left as it is\n";
            next;
        }
        my ($fh, $tmp) = tempfile(DIR => dirname($path));
        print $fh "$head\n";
        my $n = 0;
        while (my $line = <$in>) {
            chomp $line;
            my @f = split /,/, $line, -1;
            if (($f[$lab] // '') eq 'lab5_register_tiling') {
                $f[$lab] = $LAB5_PART{ $f[$variant] } // 'lab5b_register_queue';
                $f[$order] = 0 if $LAB5_PART{ $f[$variant] };
                $n++;
            }
            print $fh join(',', @f), "\n";
        }
        close $fh or die "migrate.pl: $tmp: $!\n";
        rename $tmp, $path or die "migrate.pl: cannot replace $path: $!\n";
        print "$path: $n rows of lab 5 split\n";
    }
}

my $cmd = shift @ARGV // '';
if ($cmd eq 'migrate') { cmd_migrate(@ARGV) }
elsif ($cmd eq 'migrate-profiles') { cmd_migrate_profiles(@ARGV) }
elsif ($cmd eq 'split-lab5') { cmd_split_lab5(@ARGV) }
else { die "usage: migrate.pl migrate | migrate-profiles | split-lab5 (see the comment at its top)\n" }
