#!/usr/bin/env perl
# make check-class (common/grader/check-class.pl) without a GPU: a class of made-up submissions
# graded by a stand-in for check.pl (tests/class/fake-check.pl, same options and results.json):
# the per-student files, the gradebook's rows and warnings, resuming after an interrupt, and a
# class split in parts. Then, where there is no GPU, the real grader's "could not grade" row.
# What it cannot prove: anything about grading itself (60-check.t, on a GPU).
use strict;
use warnings;
use lib 'tests';
use Test::More;
use File::Path qw(make_path);
use TestLib;

my $dir = tmpdir();
my $subs = "$dir/class";
sub put {
    my ($path, $text) = @_;
    (my $folder = $path) =~ s{/[^/]+$}{};
    make_path($folder);
    open my $fh, '>', $path or die "$path: $!";
    print $fh $text;
}
put("$subs/alice/lab1_diff1d/kernels.cu", "// fine\n");            # a student's labs/ folder
put("$subs/alice/lab2_naive7pt/kernels.cu", "// SHARED\n");
put("$subs/bob/labs/lab1_diff1d/kernels.cu", "// WRONG\n");         # a whole tree
put("$subs/carol/NOGPU", "");
put("$subs/dave/lab1_diff1d.cu", "// fine\n");                       # a file per lab
put("$subs/.hidden/lab1_diff1d.cu", "// not a student\n");
put("$subs/notes.txt", "not a student\n");

my $log = "$dir/calls.log";
local $ENV{CHECK_CLASS_GRADER} = 'tests/class/fake-check.pl';
local $ENV{FAKE_CHECK_LOG} = $log;
sub calls { open my $fh, '<', $log or return (); chomp(my @c = <$fh>); return @c }
sub book {
    my ($out) = @_;
    open my $fh, '<', "$out/gradebook.csv" or return {};
    my $head = <$fh>;
    my %rows;
    while (my $line = <$fh>) {
        chomp $line;
        my @f = $line =~ /("(?:[^"]|"")*"|[^,]*)(?:,|$)/g;
        s/^"|"$//g, s/""/"/g for @f;
        $rows{"$f[0] $f[1]"} = [ @f[ 2 .. 5 ] ];
    }
    return \%rows;
}

my $out = "$dir/graded";
my $r = run('perl', 'common/grader/check-class.pl', $subs, '--out', $out);
is($r->{status}, 0, 'check-class: exit 0') or diag($r->{out} . $r->{err});
is(join(' ', sort(calls())), 'alice bob carol dave', 'one grading per student folder (hidden folders and files are not students)');
ok(-s "$out/$_/results.json" && -s "$out/$_/check.log" && -e "$out/$_/check.exit", "$_: results.json, check.log, check.exit")
    for qw(alice bob carol dave);
my $b = book($out);
is_deeply($b->{'alice lab1_diff1d'}, [ 'first=10/10 second=10/10', 20, 20, '' ], 'gradebook: a lab\'s variant points, total, maximum');
is($b->{'alice lab2_naive7pt'}[3], 'the GPU was shared: performance not graded (2 variants)', 'gradebook: a warning, counted over the lab\'s variants');
is_deeply($b->{'bob lab1_diff1d'}, [ 'first=0/10 second=0/10', 0, 20, '' ], 'gradebook: a failed lab, 0 points');
like($b->{'carol '}[3] // '', qr/^could not grade \(exit 2\): make check: sol1: no CUDA device found/, 'gradebook: a submission the grader could not grade says why');
ok($b->{'dave lab1_diff1d'}, 'gradebook: the file-per-lab layout');
is(scalar(keys %$b), 5, 'gradebook: a row per student and lab (one for the ungradable)');

# resumed: nobody graded again but the student the grader could not grade (exit 2: no GPU, a
# broken node), and a student whose grading was cut off (no check.exit)
$r = run('perl', 'common/grader/check-class.pl', $subs, '--out', $out);
is(join(' ', (calls())[4 .. $#{ [ calls() ] }]), 'carol', 'run again: only the student the grader could not grade (exit 2) is tried again');
like($r->{out}, qr/graded 1, 3 already graded before/, 'and it says so');
unlink "$out/bob/check.exit";
run('perl', 'common/grader/check-class.pl', $subs, '--out', $out);
is(join(' ', (calls())[5 .. $#{ [ calls() ] }]), 'bob carol', 'a student without check.exit (an interrupted grading) is graded again');

# an interrupt during a grading leaves that student to the next run
put("$subs/erin/lab1_diff1d.cu", "// SLOW\n");
my $pid = fork // die;
if (!$pid) {
    open STDOUT, '>', '/dev/null';
    exec 'perl', 'common/grader/check-class.pl', $subs, '--out', $out or exit 127;
}
for (1 .. 100) { last if grep { $_ eq 'erin' } calls(); select(undef, undef, undef, 0.1) }
kill 'INT', $pid;
waitpid $pid, 0;
ok(-d "$out/erin" && !-e "$out/erin/check.exit", 'interrupted while grading: no check.exit for that student');
is(book($out)->{'alice lab1_diff1d'}[1], 20, 'the gradebook of the earlier run is left as it was');
unlink "$subs/erin/lab1_diff1d.cu";
put("$subs/erin/lab1_diff1d.cu", "// fine now\n");
run('perl', 'common/grader/check-class.pl', $subs, '--out', $out);
is(book($out)->{'erin lab1_diff1d'}[1], 20, 'resumed: the interrupted student is graded');

# a class in two parts (a Slurm array of 2), then the whole gradebook
my $out2 = "$dir/parts";
unlink $log;
run('perl', 'common/grader/check-class.pl', $subs, '--out', $out2, '--part', '0/2');
is(join(' ', calls()), 'alice carol erin', 'part 0/2: every other student from the first');
run('perl', 'common/grader/check-class.pl', $subs, '--out', $out2, '--part', '1/2');
is(join(' ', calls()), 'alice carol erin bob dave', 'part 1/2: the others');
run('perl', 'common/grader/check-class.pl', $subs, '--out', $out2);
is(join(' ', (calls())[5 .. $#{ [ calls() ] }]), 'carol', 'a last run without --part grades nobody again but the ungradable');
is(scalar(keys %{ book($out2) }), 6, 'and its gradebook has every student');
$r = run('perl', 'common/grader/check-class.pl', $subs, '--part', '2/2');
isnt($r->{status}, 0, '--part K/N needs K < N');
like($r->{err}, qr/--part K\/N, 0 <= K < N/, 'and says so');

# the real grader, where there is no GPU: its results.json read as the stand-in's
SKIP: {
    skip 'a GPU is here: 60-check.t grades for real', 2 if has_gpu();
    delete local $ENV{CHECK_CLASS_GRADER};
    my $one = "$dir/one";
    put("$one/frank/lab1_diff1d/kernels.cu", "// whatever\n");
    $r = run('perl', 'common/grader/check-class.pl', $one, '--out', "$dir/one-graded", '--labs', 'lab1_diff1d');
    is($r->{status}, 0, 'check-class with make check\'s grader on a machine without a GPU: exit 0') or diag($r->{err});
    like(book("$dir/one-graded")->{'frank '}[3] // '', qr/^could not grade \(exit 2\): make check: .*no CUDA device/,
         'the gradebook says the class could not be graded here, and why');
}
done_testing();
