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
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "tap.h"

static void *thread_main(void *arg) { return arg; }
static int go[2];  // the early thread waits on it: started before the filter, it forks after
static void *fork_in_thread(void *arg)
{
    (void)arg;
    char c;
    if (read(go[0], &c, 1) != 1) return NULL;
    pid_t p = fork();
    if (p == 0) _exit(0);
    return (void *)(long)(p < 0 && errno == EPERM);
}
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
    pthread_t early;
    if (pipe(go) || pthread_create(&early, NULL, fork_in_thread, NULL)) return 1;
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
    // A thread started before the filter took it too (TSYNC: the CUDA runtime's threads).
    ok(write(go[1], "g", 1) == 1 && pthread_join(early, &r) == 0 && r == (void *)1,
       "fork fails in a thread started before the filter too");

    // Files (Landlock): write only beneath the scratch folder, read only beneath it and the
    // read list; nothing else, not the folder beside it, however it is named.
    char scratch[] = "/tmp/sandbox-scratch-XXXXXX", beside[] = "/tmp/sandbox-beside-XXXXXX";
    if (!mkdtemp(scratch) || !mkdtemp(beside)) return done_testing();
    char inside[4200], outside[4200], link_in[4200];
    snprintf(inside, sizeof inside, "%s/f", scratch);
    snprintf(outside, sizeof outside, "%s/g", beside);
    snprintf(link_in, sizeof link_in, "%s/link", scratch);
    FILE *f = fopen(outside, "w");
    if (f) fputs("secret", f), fclose(f);
    if (symlink(outside, link_in)) link_in[0] = 0;
    char writes[4200];
    snprintf(writes, sizeof writes, "%s:/proc/self", scratch);  // /proc/self: the CUDA runtime names its threads there
    setenv("STENCIL_SANDBOX_WRITE", writes, 1);
    setenv("STENCIL_SANDBOX_READ", "/usr:/lib:/lib64:/etc:/proc/cpuinfo", 1);  // a file among the folders
    if (sandbox_files(getenv("STENCIL_SANDBOX_READ"), writes)) {
        ok(errno == ENOSYS || errno == EOPNOTSUPP, "# SKIP no Landlock in this kernel (%s)", strerror(errno));
        return done_testing();
    }
    f = fopen(inside, "w");
    ok(f && fputs("x", f) >= 0 && fclose(f) == 0, "in the sandbox a file is written in the scratch folder");
    ok(unlink(inside) == 0, "and removed there");
    errno = 0;
    ok(!fopen(outside, "w") && errno == EACCES, "a file in the folder beside it is not written (EACCES)");
    ok(!fopen(outside, "r") && errno == EACCES, "nor read");
    ok(mkdir("/tmp/sandbox-made", 0700) < 0 && errno == EACCES, "no folder is made outside it");
    ok(rename(beside, "/tmp/sandbox-moved") < 0, "nothing outside it is renamed");
    ok(!link_in[0] || (!fopen(link_in, "r") && errno == EACCES), "a link from inside to outside does not read it");
    f = fopen("/etc/passwd", "r");
    ok(f != NULL, "a file beneath the read list is read");
    if (f) fclose(f);
    ok(!fopen("/etc/sandbox-test", "w") && (errno == EACCES || errno == EROFS), "but not written");
    char other[64];
    snprintf(other, sizeof other, "/proc/%d/environ", (int)getppid());
    ok(!fopen(other, "r") && errno == EACCES, "another process's /proc files are not read (%s)", other);
    snprintf(other, sizeof other, "/proc/%d/mem", (int)getppid());
    ok(!fopen(other, "r+") && errno == EACCES, "nor its memory written (%s)", other);
    f = fopen("/proc/self/status", "r");
    ok(f != NULL, "its own /proc files are read");
    if (f) fclose(f);
    f = fopen("/proc/cpuinfo", "r");
    ok(f != NULL, "a file named in the read list is read");
    if (f) fclose(f);
#else
    ok(1, "# SKIP the sandbox is for Linux on x86-64");
#endif
    return done_testing();
}
