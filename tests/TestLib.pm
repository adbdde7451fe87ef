# SPDX-License-Identifier: MIT
# Helpers shared by the .t files: run a command and capture what it said, tell whether a GPU is
# here; what the labs are and what they have comes from common/tools/Course.pm.
package TestLib;
use strict;
use warnings;
use Exporter 'import';
use File::Temp qw(tempdir);
use lib 'common/tools';
use Course qw(lab_bin sol_bin listing variants_of cases_of shell_words case_np mpi_launch);
our @EXPORT = qw(run labs lab_bin sol_bin ref_bin programs has_solutions has_gpu variants_of cases_of listing shell_words tmpdir cheat
    case_np mpi_launch);

# The labs the tests cover: all, or those TEST_LABS names (e.g. TEST_LABS=lab7,lab8: a device
# call has a time limit, so a GPU suite is run a few labs at a time; lab5 names both its parts,
# lab5a one).
sub labs {
    my @all = Course::labs();
    return @all unless $ENV{TEST_LABS};
    my %want = map { $_ => 1 } split /[,\s]+/, $ENV{TEST_LABS};
    return grep { $want{$_} || (/^(lab\d+)([a-z]?)_/ && ($want{"$1$2"} || $want{$1})) } @all;
}

my $TMP = tempdir(CLEANUP => 1);
sub tmpdir { return tempdir(DIR => $TMP) }

# A hung kernel (a planted bug can deadlock a barrier) must fail its test, not stop the run:
# every command runs under timeout where the machine has it.
my $HAS_TIMEOUT = system('command -v timeout >/dev/null 2>&1') == 0;

# run(cmd...) -> { status, out, err } ; cmd is a list, or one string for the shell. It reads
# $TestLib::STDIN (a file; default /dev/null).
our $STDIN;
sub run {
    my @cmd = @_;
    my $line = @cmd == 1 ? $cmd[0] : join ' ', map { my $w = $_; $w =~ s/'/'\\''/g; "'$w'" } @cmd;
    if ($HAS_TIMEOUT) {
        (my $q = $line) =~ s/'/'\\''/g;
        $line = "timeout -k 10 600 sh -c '$q'";
    }
    my $rc = system("$line <" . ($STDIN // '/dev/null') . " >$TMP/out 2>$TMP/err");
    my $slurp = sub { open my $f, '<', $_[0] or return ''; local $/; my $s = <$f>; $s // '' };
    return { status => $rc == -1 ? 127 : ($rc & 127) ? 128 + ($rc & 127) : $rc >> 8,
             out => $slurp->("$TMP/out"), err => $slurp->("$TMP/err") };
}

sub has_gpu { return system('nvidia-smi -L >/dev/null 2>&1') == 0 }

# The student's release (make release) has no solutions/: its tests use the lab programs alone.
sub has_solutions { return -d 'solutions' }
sub programs { my ($lab) = @_; return has_solutions() ? (lab_bin($lab), sol_bin($lab)) : (lab_bin($lab)) }
sub ref_bin { my ($lab) = @_; return has_solutions() ? sol_bin($lab) : lab_bin($lab) }
# A cheating kernels file of tests/cheats/NAME.patch: its header (# Cheat: what it tries, # lab:,
# # expect:) and the patch to the lab's solution that makes it. The file is made as
# build/cheats/NAME.cu (two folders down, as tests/cheats/, so relative paths in it mean the
# same). Returns { name, what, lab, expect, file }, or undef when the patch does not apply.
sub cheat {
    my ($patch) = @_;
    open my $fh, '<', $patch or return undef;
    my %c = (name => $patch);
    while (my $line = <$fh>) {
        last unless $line =~ /^# (Cheat|lab|expect): (.*?)\s*$/;
        $c{ $1 eq 'Cheat' ? 'what' : $1 } = $2;
    }
    return undef unless $c{lab} && -f "solutions/$c{lab}/kernels.cu";
    (my $base = $patch) =~ s{.*/}{};
    $base =~ s/\.patch$//;
    mkdir 'build';
    mkdir 'build/cheats';
    $c{file} = "build/cheats/$base.cu";
    system('patch', '-s', '-o', $c{file}, "solutions/$c{lab}/kernels.cu", $patch) == 0 or return undef;
    return \%c;
}
1;
