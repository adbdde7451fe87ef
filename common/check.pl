#!/usr/bin/env perl
# SPDX-License-Identifier: MIT
# make check: grade the student labs (./labN, built from labs/) against the reference
# solutions (./solN, built from solutions/) on this GPU, in the same run.
#
# Every variant of the reference is run separately in the student's program, under a time
# limit, on a fresh random seed shared with the reference run. Correctness is required
# (7 of a variant's 10 points); the other 3 follow the performance curve of COURSE.md: full at
# or under 1.2x the reference's median time, falling as T_ref/T, none past 10x.
# A crash, hang or CUDA error costs that variant, never the rest of the grading.
# Prints a table; writes results.json (Gradescope); exits 0 all correct, 1 a required check
# failed, 2 no GPU.
use strict;
use warnings;
use JSON::PP;
use File::Temp qw(tempdir);

my $TIME_LIMIT = $ENV{CHECK_TIME_LIMIT} // 300;  # seconds per program run
my $RESULTS = $ENV{CHECK_RESULTS} // 'results.json';
my ($CORRECT_PTS, $PERF_PTS) = (7, 3);
my @labs = @ARGV or die "usage: check.pl labN_name...\n";
my $tmp = tempdir(CLEANUP => 1);

sub bin_of { my ($lab, $kind) = @_; (my $n = $lab) =~ s/^lab(\d+)_.*/$1/; return "./$kind$n" }

# Run a program under the time limit; return (exit status, note, stderr's last line).
sub run {
    my (@cmd) = @_;
    my $err = "$tmp/stderr";
    # Through the shell for the redirections, each word quoted.
    my $line = join ' ', map { my $w = $_; $w =~ s/'/'\\''/g; "'$w'" } ('timeout', '-k', '5', $TIME_LIMIT, @cmd);
    my $rc = system("$line >$tmp/stdout 2>$err");
    my $status = $rc == -1 ? 127 : ($rc & 127) ? 128 + ($rc & 127) : $rc >> 8;
    open my $fh, '<', $err;
    my @lines = $fh ? <$fh> : ();
    my $last = @lines ? $lines[-1] : '';
    chomp $last;
    my $note = $status == 0 ? ''
        : $status == 124 || $status == 137 ? "timed out after ${TIME_LIMIT}s"
        : $status > 128 ? "crashed (signal " . ($status - 128) . ")"
        : $status == 1 ? 'a check failed'
        : $status == 2 ? "could not run: $last"
        : "exit status $status";
    return ($status, $note, $last);
}

sub variants_of {
    my ($sol) = @_;
    my @v;
    my $in = 0;
    for (`$sol --help`) {
        $in = 1, next if /^variants:/;
        last if $in && /^\s*$/;
        push @v, $1 if $in && /^\s+(\S+)/;
    }
    return @v;
}

# The median time in the CSV row of the variant, if it passed.
sub median_ms {
    my ($csv, $variant) = @_;
    open my $fh, '<', $csv or return undef;
    chomp(my @rows = <$fh>);
    return undef if @rows < 2;
    my @cols = split /,/, shift @rows;
    for my $line (@rows) {
        my %r;
        @r{@cols} = split /,/, $line, -1;
        return $r{status} eq 'PASS' ? $r{median_ms} : undef if $r{variant} eq $variant;
    }
    return undef;
}

sub perf_fraction {
    my ($t, $t_ref) = @_;
    my $ratio = $t / $t_ref;
    return 0 if $ratio > 10;
    return 1 if $ratio <= 1.2;
    return 1.2 / $ratio;
}

my $seed = int(rand(2**31));
my $first_sol = bin_of($labs[0], 'sol');
my ($probe, undef, $probe_err) = run($first_sol, '--size', '64', '--reps', '1', '--quiet', '--seed', $seed);
if ($probe == 2) {
    print STDERR "make check: $probe_err\n";
    exit 2;
}

printf "make check: seed %d, time limit %ds per run\n", $seed, $TIME_LIMIT;
my $fmt = "%-18s | %-16s | %-6s | %10s | %10s | %6s | %6s | %s\n";
printf $fmt, 'lab', 'variant', 'result', 'student ms', 'ref ms', 'ratio', 'points', 'note';
my (@tests, $failed, $score, $max);
for my $lab (@labs) {
    my ($stu, $sol) = (bin_of($lab, 'lab'), bin_of($lab, 'sol'));
    for my $v (variants_of($sol)) {
        my @args = ('--variant', $v, '--quiet', '--seed', $seed);
        unlink "$tmp/s.csv", "$tmp/r.csv";
        my ($s_status, $s_note) = -x $stu ? run($stu, @args, '--csv', "$tmp/s.csv") : (127, "$stu was not built");
        my ($r_status, $r_note) = run($sol, @args, '--csv', "$tmp/r.csv");
        my $t = $s_status == 0 ? median_ms("$tmp/s.csv", $v) : undef;
        my $t_ref = $r_status == 0 ? median_ms("$tmp/r.csv", $v) : undef;
        my $pass = $s_status == 0 && defined $t;
        my $pts = 0;
        my $note = $s_note;
        if ($pass) {
            $pts = $CORRECT_PTS;
            if (defined $t_ref && $t > 0) { $pts += $PERF_PTS * perf_fraction($t, $t_ref) }
            else { $note = "reference did not run: $r_note" }
        }
        $failed++ unless $pass;
        $score += $pts;
        $max += $CORRECT_PTS + $PERF_PTS;
        my $ratio = defined $t && defined $t_ref && $t_ref > 0 ? sprintf("%.2f", $t / $t_ref) : '-';
        printf $fmt, $lab, $v, $pass ? 'PASS' : 'FAIL', defined $t ? sprintf("%.4f", $t) : '-',
            defined $t_ref ? sprintf("%.4f", $t_ref) : '-', $ratio, sprintf("%.1f", $pts), $note;
        push @tests, {
            name => "$lab $v",
            score => 0 + sprintf("%.2f", $pts),
            max_score => $CORRECT_PTS + $PERF_PTS,
            status => $pass ? 'passed' : 'failed',
            output => $pass ? "correct; median $t ms vs reference " . ($t_ref // '-') . " ms (x$ratio)"
                            : "FAIL: $note (run $stu @args to see the mismatches)",
        };
    }
}
my $json = JSON::PP->new->canonical->pretty;
open my $out, '>', $RESULTS or die "make check: cannot write $RESULTS: $!\n";
print $out $json->encode({ score => 0 + sprintf("%.2f", $score), tests => \@tests });
close $out;
printf "score %.1f of %d; %s written\n", $score, $max, $RESULTS;
exit($failed ? 1 : 0);
