# SPDX-License-Identifier: MIT
# Helpers shared by the .t files: run a command and capture what it said, list the labs,
# tell whether a GPU is here.
package TestLib;
use strict;
use warnings;
use Exporter 'import';
use File::Temp qw(tempdir);
our @EXPORT = qw(run labs lab_bin sol_bin has_gpu variants_of tmpdir);

my $TMP = tempdir(CLEANUP => 1);
sub tmpdir { return tempdir(DIR => $TMP) }

# A hung kernel (a planted bug can deadlock a barrier) must fail its test, not stop the run:
# every command runs under timeout where the machine has it.
my $HAS_TIMEOUT = system('command -v timeout >/dev/null 2>&1') == 0;

# run(cmd...) -> { status, out, err } ; cmd is a list, or one string for the shell.
sub run {
    my @cmd = @_;
    my $line = @cmd == 1 ? $cmd[0] : join ' ', map { my $w = $_; $w =~ s/'/'\\''/g; "'$w'" } @cmd;
    if ($HAS_TIMEOUT) {
        (my $q = $line) =~ s/'/'\\''/g;
        $line = "timeout -k 10 600 sh -c '$q'";
    }
    my $rc = system("$line </dev/null >$TMP/out 2>$TMP/err");
    my $slurp = sub { open my $f, '<', $_[0] or return ''; local $/; my $s = <$f>; $s // '' };
    return { status => $rc == -1 ? 127 : ($rc & 127) ? 128 + ($rc & 127) : $rc >> 8,
             out => $slurp->("$TMP/out"), err => $slurp->("$TMP/err") };
}

sub labs { return map { m{/([^/]+)$} ? $1 : () } sort glob 'solutions/lab*_*' }
sub lab_bin { my ($lab) = @_; $lab =~ /^lab(\d+)_/; return "./lab$1" }
sub sol_bin { my ($lab) = @_; $lab =~ /^lab(\d+)_/; return "./sol$1" }

sub has_gpu { return system('nvidia-smi -L >/dev/null 2>&1') == 0 }

sub variants_of {
    my ($bin) = @_;
    my ($in, @v) = (0);
    for (split /\n/, run($bin, '--help')->{out}) {
        $in = 1, next if /^variants:/;
        last if $in && /^\s*$/;
        push @v, $1 if $in && /^\s+(\S+)/;
    }
    return @v;
}
1;
