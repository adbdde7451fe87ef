// SPDX-License-Identifier: MIT
// The grader's sandbox (make check sets STENCIL_SANDBOX=1): once the GPU is open and before any
// code of the kernels file runs, the program takes a seccomp filter that it can never drop, and
// that refuses what a kernels file never needs: starting programs (execve), new processes (fork,
// vfork, clone without CLONE_THREAD; clone3 says ENOSYS so that the C library falls back to
// clone, whose flags the filter can read), signals to other processes, and reading or writing
// another process's memory (ptrace, process_vm_*). Threads, files, memory and the GPU driver's
// ioctls are untouched. The static checks (common/grader/Vet.pm) already refuse a kernels file that
// names such calls; this stops one that finds them at run time (tests/cheats/static-elf-walk).
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#if defined(__linux__) && defined(__x86_64__)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#define ARG0_LOW (offsetof(struct seccomp_data, args))  // low 32 bits of the first argument
#define DENY(err) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err))
#define ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

int sandbox_enter(void)
{
    const unsigned self = (unsigned)getpid();
    struct sock_filter filter[] = {
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
        BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),  // a 32-bit system call: no
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        // 4: the calls refused outright
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 9, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execveat, 8, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fork, 7, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_vfork, 6, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ptrace, 5, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_readv, 4, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_process_vm_writev, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_tkill, 2, 0),  // a thread id of any process
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_pidfd_send_signal, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone3, 1, 2),
        DENY(EPERM),  // 14
        DENY(ENOSYS),  // 15: clone3
        // 16: clone: threads only (the flags are its first argument)
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_clone, 0, 3),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LOW),
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 0, 7),
        ALLOW,
        // 20: kill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo: this process only (the first
        // argument; its own group, pid 0, for kill)
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_kill, 3, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_tgkill, 2, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_rt_sigqueueinfo, 1, 0),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_rt_tgsigqueueinfo, 0, 4),
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG0_LOW),
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, self, 1, 0),
        DENY(EPERM),  // 26
        ALLOW,        // 27
        ALLOW,        // 28: every other call
    };
    // (kill(0, ...) signals the caller's own process group, which make check gives each run: it
    // is refused too, as it is never needed.)
    struct sock_fprog prog = {(unsigned short)(sizeof filter / sizeof *filter), filter};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) return -1;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) ? -1 : 0;
}
#else
int sandbox_enter(void)
{
    errno = ENOSYS;
    return -1;
}
#endif

// The harness's call: nothing unless STENCIL_SANDBOX is set; a sandbox that cannot be entered
// stops the program (make check must not run a kernels file without it).
void sandbox_if_asked(void)
{
    const char *want = getenv("STENCIL_SANDBOX");
    if (!want || !*want || !strcmp(want, "0")) return;
    if (sandbox_enter()) {
        fprintf(stderr, "%s: STENCIL_SANDBOX is set but the seccomp filter cannot be installed: %s\n",
                program_name(), strerror(errno));
        fatal_exit(2);
    }
}
