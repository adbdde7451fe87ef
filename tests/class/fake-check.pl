#!/usr/bin/env perl
# SPDX-License-Identifier: MIT
# A stand-in for common/grader/check.pl (CHECK_CLASS_GRADER, tests/62-check-class.t): it takes
# the same --submission and --results, and writes a results.json of the same shape from what the
# submission's files say, without building or running anything. A kernels file (any layout
# make check accepts) that contains "WRONG" fails its two variants; "SHARED" gets a GPU-was-shared
# note; a submission with a file named NOGPU cannot be graded (exit 2, as without a GPU); "SLOW"
# sleeps 30 s first (an interrupt's target). Each call appends the student's folder name to
# $FAKE_CHECK_LOG.
use strict;
use warnings;
use File::Basename qw(basename);
use Getopt::Long;
use JSON::PP;

my %opt;
GetOptions(\%opt, 'submission=s', 'results=s', 'labs=s', 'budget=i') or die "fake-check: bad options\n";
if (my $log = $ENV{FAKE_CHECK_LOG}) {
    open my $fh, '>>', $log or die;
    print $fh basename($opt{submission}), "\n";
}
my $dir = $opt{submission};
my %files;
for my $f (glob("$dir/lab*_*/kernels.cu"), glob("$dir/labs/lab*_*/kernels.cu"), glob("$dir/lab*_*.cu")) {
    my ($lab) = $f =~ m{(lab\d+[a-z]?_[a-z0-9_]+?)(?:/kernels)?\.cu$} or next;
    $files{$lab} = do { open my $fh, '<', $f or die; local $/; <$fh> };
}
my @tests;
my $exit = 0;
if (-e "$dir/NOGPU") {
    print "make check: sol1: no CUDA device found\n";
    $exit = 2;
} else {
    sleep 30 if grep { /SLOW/ } values %files;
    for my $lab (sort keys %files) {
        for my $v (qw(first second)) {
            my $wrong = $files{$lab} =~ /WRONG/;
            my $out = $wrong ? 'FAIL: 3 of 4096 points off' : 'correct at 5 cases';
            $out .= "\nthe reference's two turns differ by more than 10%: the GPU was shared, performance not graded"
                if $files{$lab} =~ /SHARED/;
            push @tests, { name => "$lab $v", score => $wrong ? 0 : 10, max_score => 10,
                           status => $wrong ? 'failed' : 'passed', output => $out };
            $exit = 1 if $wrong;
        }
    }
}
print "graded ", scalar(keys %files), " labs\n" unless $exit == 2;
my $score = 0;
$score += $_->{score} for @tests;
open my $fh, '>', $opt{results} or die "fake-check: $opt{results}: $!\n";
print $fh JSON::PP->new->canonical->encode({ score => $score, tests => \@tests,
                                              output => $exit == 2 ? 'make check: sol1: no CUDA device found' : 'done' });
close $fh;
exit $exit;
