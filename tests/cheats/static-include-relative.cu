// SPDX-License-Identifier: MIT
// Cheat: submits the reference solution by including it through a relative path
// lab: lab1_diff1d
// expect: rejected includes \S*solutions/lab1_diff1d/kernels\.cu
// The whole kernels file: the instructor's, found next door.
#include "../../solutions/lab1_diff1d/kernels.cu"
