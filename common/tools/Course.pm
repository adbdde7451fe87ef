# SPDX-License-Identifier: MIT
# What the tests, make bench and make check know about the labs, found rather than listed: a lab
# is a folder labs/labN_name/ with a definition lab.c; its programs are ./labN (the student's
# kernels) and ./solN (the solution's); each program says what it has with --list.
package Course;
use strict;
use warnings;
use Exporter 'import';
our @EXPORT_OK = qw(labs skipped_labs build_vars lab_bin sol_bin lab_number listing variants_of cases_of shell_words case_np mpi_launch %MPI_ENV);

# The labs that build here, as the Makefile finds them (it drops lab 9 where MPI or NCCL is
# missing), and the library settings it found (build_vars: NAME=VALUE arguments for a make of a
# student's lab that runs in an environment too bare to find them again).
my ($LABS, @VARS, %SKIPPED);
sub ask_make {
    return if $LABS;
    my $out = `make -s --no-print-directory list-labs 2>&1`;
    ($LABS) = $out =~ /^labs: (.*)$/m or die "make list-labs failed:\n$out";
    @VARS = $out =~ /^var (\w+=.*)$/mg;
    # "lab 9 skipped: no MPI here (...)": a lab the Makefile leaves out on this machine, and why
    for my $line ($out =~ /^(lab \d+[a-z]? skipped: .*)$/mg) {
        my ($n) = $line =~ /^lab (\d+[a-z]?)/;
        my ($dir) = glob "labs/lab${n}_*";
        $SKIPPED{ $dir =~ s{.*/}{}r } = $line if $dir;
    }
}
sub skipped_labs { ask_make(); return %SKIPPED }
sub labs { ask_make(); return split ' ', $LABS }
sub build_vars { ask_make(); return @VARS }

# A case's processes: N for a case of kind npN (lab 9), else 1.
sub case_np { my ($c) = @_; my ($n) = map { /^np(\d+)$/ ? $1 : () } keys %{ $c->{kinds} }; return $n // 1 }

# The launcher of a run with N processes: mpirun (more processes than cores allowed; as root,
# which Open MPI refuses unless told; no single-copy shared memory, which make check's sandbox
# forbids), or nothing for one process.
our %MPI_ENV = (OMPI_ALLOW_RUN_AS_ROOT => 1, OMPI_ALLOW_RUN_AS_ROOT_CONFIRM => 1,
                OMPI_MCA_btl_vader_single_copy_mechanism => 'none');
sub mpi_launch {
    my ($np) = @_;
    return () unless $np && $np > 1;
    @ENV{ keys %MPI_ENV } = values %MPI_ENV;
    # unbound: Open MPI binds each of 2 processes to one core, and rank 0's CPU reference
    # (OpenMP) would run on that core alone
    return ('mpirun', '--oversubscribe', '--bind-to', 'none', '-np', $np);
}
sub lab_number { my ($lab) = @_; return $lab =~ /^lab(\d+[a-z]?)_/ ? $1 : die "not a lab: $lab\n" }
sub lab_bin { my ($lab, $dir) = @_; return ($dir // '.') . '/lab' . lab_number($lab) }
sub sol_bin { my ($lab, $dir) = @_; return ($dir // '.') . '/sol' . lab_number($lab) }

# The quoted words of a command line, for system LIST and exec LIST.
sub shell_words { my ($s) = @_; return grep { length } split ' ', $s }

# `BIN --list [ARGS]`: { lab, name, variants => [...], kind => {variant => kind of answer},
# cases => [{kinds => {k => 1}, args}], tolerance => [l2, atol, rtol, face_atol], size => [nx, ny, nz], steps,
# csv => header, memory => {gpu, host, reference} (bytes), refuses => {variant => why} (on a GPU:
# what the problem is refused for) }.
# undef if it fails.
# BIN may be [launcher..., bin] (lab 9: mpirun -np N ./sol9): the refusals are then those of
# that many processes.
sub listing {
    my ($bin, @args) = @_;
    my @cmd = ref $bin ? @$bin : ($bin);
    open my $fh, '-|', @cmd, '--list', @args or return undef;
    my %l = (variants => [], cases => [], kind => {}, refuses => {});
    while (my $line = <$fh>) {
        chomp $line;
        if ($line =~ /^lab (\d+[a-z]?) (\S+)$/) { @l{qw(lab name)} = ($1, $2) }
        elsif ($line =~ /^variant (\S+) (\d+)(?: (optional|given))?$/) { push @{ $l{variants} }, $1; $l{kind}{$1} = $2; $l{$3}{$1} = 1 if $3 }
        elsif ($line =~ /^refuses (\S+) (.*)$/) { $l{refuses}{$1} = $2 }
        elsif ($line =~ /^case (.+?) : (.*)$/) { push @{ $l{cases} }, { kinds => { map { $_ => 1 } split ' ', $1 }, args => $2 } }
        elsif ($line =~ /^tolerance (\S+) (\S+) (\S+)(?: (\S+))?$/) { $l{tolerance} = [ $1, $2, $3, $4 // 0 ] }
        elsif ($line =~ /^size (\d+) (\d+) (\d+)$/) { $l{size} = [ $1, $2, $3 ] }
        elsif ($line =~ /^steps (\d+)$/) { $l{steps} = $1 }
        elsif ($line =~ /^flops (\S+)$/) { $l{flops} = $1 }
        elsif ($line =~ /^memory (\d+) (\d+) (\d+)$/) { $l{memory} = { gpu => $1, host => $2, reference => $3 } }
        elsif ($line =~ /^csv (.+)$/) { $l{csv} = $1 }
    }
    close $fh or return undef;
    return \%l;
}

sub variants_of { my $l = listing(@_); return $l ? @{ $l->{variants} } : () }

# The argument strings of the cases of one kind ('test', 'grade', 'sanitize', ...).
sub cases_of {
    my ($bin, $kind) = @_;
    my $l = listing($bin) or return ();
    return map { $_->{args} } grep { $_->{kinds}{$kind} } @{ $l->{cases} };
}
1;
