#!/usr/bin/env perl
# SPDX-License-Identifier: MIT
# make check-class: grade a whole class on this machine, one submission after another, with
# make check's grader (common/grader/check.pl), and write a gradebook.
#   perl common/grader/check-class.pl SUBMISSIONS [--out DIR] [--labs a,b] [--budget S] [--part K/N]
# SUBMISSIONS holds one folder per student (the folder's name is the student's), each in any
# layout make check accepts (labN_name/kernels.cu, labs/labN_name/kernels.cu, labN_name.cu).
# DIR (default SUBMISSIONS-graded) gets, per student, results.json (Gradescope's format) and
# check.log (the grader's output), and gradebook.csv: a row per student and lab with the
# variants' points, the lab's total and maximum, and warnings (a lab not graded, a GPU that was
# shared, a variant not gradable here, a grader that could not grade at all).
# Interrupted and run again, it skips the students already graded (their check.exit exists and is
# not 2, "could not grade") and grades the rest; the gradebook is always rewritten from every
# results.json there is.
# One submission at a time: make check times each against the reference on the same GPU, and two
# graders on one GPU would time each other. --part K/N grades every N-th student from the K-th
# (K = 0 .. N-1): N jobs on N machines (a Slurm array job: common/tools/check-class.sbatch) split
# a class; a last run without --part finds them all graded and writes the whole gradebook.
use strict;
use warnings;
use Cwd qw(abs_path);
use File::Basename qw(dirname basename);
use File::Path qw(make_path);
use Getopt::Long;
use JSON::PP;

my $ROOT = dirname(dirname(dirname(abs_path($0))));
my %opt;
my $USAGE = "usage: check-class.pl SUBMISSIONS [--out DIR] [--labs a,b] [--budget S] [--part K/N]\n";
GetOptions(\%opt, 'out=s', 'labs=s', 'budget=i', 'part=s') or die $USAGE;
my $subs = shift // die $USAGE;
my ($part, $parts) = ($opt{part} // '0/1') =~ m{^(\d+)/(\d+)$} or die "check-class.pl: --part K/N, 0 <= K < N\n$USAGE";
$part < $parts or die "check-class.pl: --part K/N, 0 <= K < N\n$USAGE";
-d $subs or die "check-class.pl: $subs: not a folder\n";
$subs = abs_path($subs);
my $out = abs_path($opt{out} // "$subs-graded") // die "check-class.pl: $opt{out}: its folder does not exist\n";
make_path($out);
# the grader: make check's, or (tests/62-check-class.t) a stand-in that writes results.json alike
my @grader = $ENV{CHECK_CLASS_GRADER} ? ($^X, $ENV{CHECK_CLASS_GRADER}) : ($^X, "$ROOT/common/grader/check.pl");
$| = 1;

# A student's name is a folder's name; one that could not be a file name of its own here (a path,
# a hidden folder) is not a student.
opendir my $dh, $subs or die "check-class.pl: $subs: $!\n";
my @students = sort grep { !/^\./ && -d "$subs/$_" && !-l "$subs/$_" } readdir $dh;
closedir $dh;
die "check-class.pl: $subs has no student folders\n" unless @students;

my ($graded, $skipped) = (0, 0);
for my $i (grep { $_ % $parts == $part } 0 .. $#students) {
    my $s = $students[$i];
    my $dir = "$out/$s";
    # graded: a check.exit, unless it says the grader could not grade (2: no GPU, a broken node),
    # which the next run tries again
    if (-e "$dir/check.exit" && (read_text("$dir/check.exit") // '') !~ /^2\b/) {
        $skipped++;
        next;
    }
    make_path($dir);
    unlink "$dir/results.json";
    printf "%-24s grading (student %d of %d)\n", $s, $i + 1, scalar @students;
    my @cmd = (@grader, '--submission', "$subs/$s", '--results', "$dir/results.json",
               $opt{labs} ? ('--labs', $opt{labs}) : (), $opt{budget} ? ('--budget', $opt{budget}) : ());
    my $pid = fork // die "check-class.pl: fork: $!\n";
    if (!$pid) {
        open STDOUT, '>', "$dir/check.log" or die "check-class.pl: $dir/check.log: $!\n";
        open STDERR, '>&', \*STDOUT or die;
        open STDIN, '<', '/dev/null' or die;
        exec @cmd or die "check-class.pl: $cmd[0]: $!\n";
    }
    # an interrupt ends this student's grading too, and leaves no check.exit: graded again on resume
    local $SIG{INT} = local $SIG{TERM} = sub { my ($sig) = @_; kill 'TERM', $pid; waitpid $pid, 0; exit($sig eq 'INT' ? 130 : 143) };
    waitpid $pid, 0;
    my $status = $? & 127 ? 128 + ($? & 127) : $? >> 8;
    open my $fh, '>', "$dir/check.exit" or die "check-class.pl: $dir/check.exit: $!\n";
    print $fh "$status\n";
    close $fh;
    $graded++;
}
printf "graded %d, %d already graded before; gradebook: %s\n", $graded, $skipped, write_gradebook();

# gradebook.csv from every student's results.json: a row per student and lab.
sub write_gradebook {
    my $book = "$out/gradebook.csv";
    my $tmp = "$book.tmp$$";  # parts of a Slurm array may write at the same time
    open my $fh, '>', $tmp or die "check-class.pl: $tmp: $!\n";
    print $fh "student,lab,variant_points,total,max,warnings\n";
    for my $s (@students) {
        my $exit = read_text("$out/$s/check.exit");
        my $r = eval { JSON::PP->new->utf8->decode(read_text("$out/$s/results.json") // '') };
        if (!defined $exit) {
            print $fh csv($s, '', '', '', '', 'not graded yet') if -d "$out/$s";
            next;
        }
        chomp $exit;
        if (!$r || !@{ $r->{tests} || [] } || $exit == 2) {  # not graded: the grader's own last line says why
            my ($why) = reverse grep { /\S/ } split /\n/, ($r ? $r->{output} // '' : 'no results.json');
            print $fh csv($s, '', '', 0, 0, "could not grade (exit $exit): " . ($why // ''));
            next;
        }
        my (%labs, @order);
        for my $t (@{ $r->{tests} }) {
            my ($lab, $v) = split ' ', $t->{name}, 2;
            push @order, $lab unless $labs{$lab};
            push @{ $labs{$lab} }, $t;
        }
        for my $lab (@order) {
            my ($total, $max, @points, %warn) = (0, 0);
            for my $t (@{ $labs{$lab} }) {
                my (undef, $v) = split ' ', $t->{name}, 2;
                $total += $t->{score};
                $max += $t->{max_score};
                push @points, "$v=$t->{score}/$t->{max_score}";
                my ($first) = split /\n/, $t->{output} // '';
                $warn{$1}++ if ($first // '') =~ /^(not graded here|not gradable on this GPU|not timed: [^(:]+)/;
                $warn{'the GPU was shared: performance not graded'}++ if ($t->{output} // '') =~ /GPU was shared/;
            }
            print $fh csv($s, $lab, "@points", 0 + sprintf('%.2f', $total), $max,
                          join('; ', map { $warn{$_} > 1 ? "$_ ($warn{$_} variants)" : $_ } sort keys %warn));
        }
    }
    close $fh;
    rename $tmp, $book or die "check-class.pl: $book: $!\n";
    return $book;
}

sub read_text {
    my ($path) = @_;
    open my $fh, '<:raw', $path or return undef;
    local $/;
    return scalar <$fh>;
}

# One CSV line (RFC 4180: a field with a comma, a quote or a line break is quoted).
sub csv {
    return join(',', map { my $f = $_ // ''; $f =~ s/[\r\n]+/ /g; $f =~ /[",]/ ? '"' . ($f =~ s/"/""/gr) . '"' : $f } @_) . "\n";
}
