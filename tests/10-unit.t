#!/bin/sh
# Unit tests of the harness and the CPU references (tests/unit.c), built by make test.
exec build/tests/unit
