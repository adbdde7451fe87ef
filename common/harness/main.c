// SPDX-License-Identifier: MIT
// Every lab program's main: the harness runs the lab that the definition (lab.c) describes.
#include "harness.h"

int main(int argc, char **argv) { return lab_main(&LAB, argc, argv); }
