#!/usr/bin/env perl
# On a GPU with compute-sanitizer: memcheck, racecheck and synccheck find nothing in any solution
# at the lab's sanitize cases (small odd sizes, from its definition); a case of kind npN (lab 9)
# runs N processes under mpirun, each under the tool.
use strict;
use warnings;
use lib 'tests';
use Test::More;
use TestLib;

plan skip_all => 'no solutions/ here (a student release): the course\'s own GPU tests need them' unless has_solutions();
plan skip_all => 'no CUDA GPU here: compute-sanitizer memcheck, racecheck, synccheck not run' unless has_gpu();
plan skip_all => 'compute-sanitizer not installed' if system('command -v compute-sanitizer >/dev/null') != 0;
for my $lab (labs()) {
    my $sol = sol_bin($lab);
    my $l = listing($sol);
    for my $case (grep { $_->{kinds}{sanitize} } @{ $l->{cases} }) {
        for my $tool (qw(memcheck racecheck synccheck)) {
            # A case may be marked synccheck-todo in its definition, with the reason there (lab 5b:
            # the tool overflows its table of tracked barriers on the ring kernel at orders 8 and 12).
            local $TODO = "$lab marks synccheck at '$case->{args}' as a known tool failure"
                if $tool eq 'synccheck' && $case->{kinds}{'synccheck-todo'};
            my $np = case_np($case);
            my $r = run(mpi_launch($np), 'compute-sanitizer', '--tool', $tool, '--error-exitcode', '99', $sol,
                shell_words($case->{args}), '--reps', '1');
            my $what = "$sol" . ($np > 1 ? " (np $np)" : '') . " $case->{args} under $tool";
            is($r->{status}, 0, "$what: exit 0") or diag($r->{out});
            my $clean = () = $r->{out} =~ /(?:ERROR|RACECHECK) SUMMARY: 0 (?:errors|hazards)/g;
            is($clean, $np, "$what: 0 errors" . ($np > 1 ? ' in every process' : ''));
        }
    }
}
done_testing();
