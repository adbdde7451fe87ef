// SPDX-License-Identifier: MIT
// Cheat: includes the reference solution by an absolute path that a macro assembles (/proc/self/cwd is the build's folder)
// lab: lab1_diff1d
// expect: rejected includes /proc/self/cwd/solutions/lab1_diff1d/kernels\.cu
// No path to grep for: the name is made by the preprocessor.
#define STR_(x) #x
#define STR(x) STR_(x)
#define TREE /proc/self/cwd
#define SOLUTION(lab) STR(TREE/solutions/lab/kernels.cu)
#include SOLUTION(lab1_diff1d)
