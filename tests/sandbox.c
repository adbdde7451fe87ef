// SPDX-License-Identifier: MIT
// make check's sandbox (common/harness/sandbox.c), tested on the host: before it, a program may start
// other programs; after it (STENCIL_SANDBOX=1), no new program, no new process, no signal to
// another process and no access to another's memory, while threads, files, signals to itself
// and an ordinary exit still work. TAP for prove (tests/10-unit.t).
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "tap.h"

static void *thread_main(void *arg) { return arg; }
static volatile sig_atomic_t got;
static void on_signal(int s) { got = s; }

int main(int argc, char **argv)
{
    (void)argc;
    set_program_name(argv[0]);
#if defined(__linux__) && defined(__x86_64__)
    setenv("STENCIL_SANDBOX", "0", 1);
    sandbox_if_asked();
    ok(system("exit 3") == 3 << 8, "without the sandbox (STENCIL_SANDBOX=0) system() runs a shell");
    setenv("STENCIL_SANDBOX", "1", 1);
    sandbox_if_asked();
    int s = system("exit 3");
    ok(s != 3 << 8, "in the sandbox system() does not run a shell (it returned %d)", s);
    errno = 0;
    pid_t p = fork();
    if (p == 0) _exit(0);
    ok(p < 0 && errno == EPERM, "fork fails with EPERM");
    char *args[] = {"/bin/true", NULL};
    ok(execv("/bin/true", args) < 0 && errno == EPERM, "execv fails with EPERM");
    ok(kill(getppid(), 0) < 0 && errno == EPERM, "a signal to the parent fails with EPERM");
    ok(kill(1, 0) < 0 && errno == EPERM, "a signal to pid 1 fails with EPERM");
    ok(kill(0, 0) < 0 && errno == EPERM, "a signal to the process group fails with EPERM");
    siginfo_t si = {0};
    si.si_code = SI_QUEUE;
    si.si_pid = getpid();
    ok(syscall(SYS_rt_sigqueueinfo, getppid(), 0, &si) < 0 && errno == EPERM, "rt_sigqueueinfo to the parent fails with EPERM");
    ok(syscall(SYS_rt_tgsigqueueinfo, getppid(), getppid(), 0, &si) < 0 && errno == EPERM,
       "rt_tgsigqueueinfo to the parent fails with EPERM");
    ok(syscall(SYS_pidfd_send_signal, 0, 0, NULL, 0) < 0 && errno == EPERM, "pidfd_send_signal fails with EPERM");
    ok(syscall(SYS_rt_sigqueueinfo, getpid(), 0, &si) == 0, "rt_sigqueueinfo to itself is allowed");
    ok(ptrace(PTRACE_ATTACH, getppid(), 0, 0) < 0 && errno == EPERM, "ptrace fails with EPERM");
    char buf[8];
    struct iovec local = {buf, sizeof buf}, remote = {buf, sizeof buf};
    ok(process_vm_readv(getppid(), &local, 1, &remote, 1, 0) < 0 && errno == EPERM, "process_vm_readv fails with EPERM");
    pthread_t t;
    void *r = NULL;
    ok(pthread_create(&t, NULL, thread_main, (void *)42) == 0 && pthread_join(t, &r) == 0 && r == (void *)42,
       "a thread starts and returns");
    signal(SIGUSR1, on_signal);
    ok(raise(SIGUSR1) == 0 && got == SIGUSR1, "a signal to itself arrives");
    ok(kill(getpid(), 0) == 0, "kill(own pid) is allowed");
    char path[] = "/tmp/sandbox-test-XXXXXX";
    int fd = mkstemp(path);
    ok(fd >= 0 && write(fd, "x", 1) == 1 && close(fd) == 0 && unlink(path) == 0, "files can be written and removed");
#else
    ok(1, "# SKIP the sandbox is for Linux on x86-64");
#endif
    return done_testing();
}
