# SPDX-License-Identifier: MIT
# Turn a reference solution into the student skeleton: drop every line from
# "BEGIN SOLUTION" to "END SOLUTION" (both included). The TODO(student) comment
# above each region stays, so `diff -r labs/X solutions/X` shows exactly the lesson.
/BEGIN SOLUTION/ { if (inside) { print FILENAME ":" FNR ": nested BEGIN SOLUTION" > "/dev/stderr"; exit 1 } inside = 1; next }
/END SOLUTION/   { if (!inside) { print FILENAME ":" FNR ": END SOLUTION without BEGIN" > "/dev/stderr"; exit 1 } inside = 0; next }
!inside          { print }
END              { if (inside) { print FILENAME ": BEGIN SOLUTION never ended" > "/dev/stderr"; exit 1 } }
