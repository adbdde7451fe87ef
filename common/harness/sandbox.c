// SPDX-License-Identifier: MIT
// The grader's sandbox (make check sets STENCIL_SANDBOX=1), in two parts that no code of the
// kernels file can drop:
// - Files (sandbox_files_if_asked, first thing, before the CUDA runtime starts any thread): with
//   STENCIL_SANDBOX_WRITE set, a Landlock ruleset lets the program write, create and remove only
//   beneath the folders it lists (its own scratch folder, /dev) and read only beneath those and
//   the folders of STENCIL_SANDBOX_READ (the system's, the CUDA toolkit's): it cannot write the
//   grader's results or read its reference programs. A kernel without Landlock stops the program.
// - Calls (sandbox_if_asked, once the GPU is open and before the kernels file runs): a seccomp
//   filter, on every thread of the process, that refuses what a kernels file never needs: starting
//   programs (execve), new processes (fork, vfork, clone without CLONE_THREAD; clone3 says ENOSYS
//   so that the C library falls back to clone, whose flags the filter can read), signals to other
//   processes, and reading or writing another process's memory (ptrace, process_vm_*). Threads,
//   memory and the GPU driver's ioctls are untouched.
// The static checks (common/grader/Vet.pm) already refuse a kernels file that names such calls;
// this stops one that finds them at run time (tests/cheats/static-elf-walk).
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
#include <fcntl.h>
#include <linux/landlock.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/stat.h>
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
    // TSYNC: the threads the CUDA runtime (and MPI) started already take the filter too
    return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_TSYNC, &prog) ? -1 : 0;
}

// The file-system rights Landlock knows at each ABI version (1, 2: refer, 3: truncate, 5: ioctl
// on devices); a right this program's headers do not know stays unrestricted.
static __u64 landlock_rights(int abi)
{
    __u64 r = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |
              LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |
              LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
              LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |
              LANDLOCK_ACCESS_FS_MAKE_SYM;
#ifdef LANDLOCK_ACCESS_FS_REFER
    if (abi >= 2) r |= LANDLOCK_ACCESS_FS_REFER;
#endif
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
    if (abi >= 3) r |= LANDLOCK_ACCESS_FS_TRUNCATE;
#endif
#ifdef LANDLOCK_ACCESS_FS_IOCTL_DEV
    if (abi >= 5) r |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
#endif
    return r;
}

// The rights that apply to a file (not a folder): a rule for a file takes no others.
static const __u64 FILE_RIGHTS = LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE
#ifdef LANDLOCK_ACCESS_FS_TRUNCATE
                                 | LANDLOCK_ACCESS_FS_TRUNCATE
#endif
#ifdef LANDLOCK_ACCESS_FS_IOCTL_DEV
                                 | LANDLOCK_ACCESS_FS_IOCTL_DEV
#endif
    ;

// Every folder (or file) of a colon-separated list, with `rights` beneath it (one that is not
// there is skipped). Returns 0, or -1 with errno.
static int landlock_allow(int ruleset, const char *list, __u64 rights)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", list ? list : "");
    char *save = NULL;
    for (char *dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        int fd = open(dir, O_PATH | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat st;
        __u64 allowed = rights;
        if (fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) allowed &= FILE_RIGHTS;  // a file: a file's rights only
        struct landlock_path_beneath_attr pb = {.allowed_access = allowed, .parent_fd = fd};
        int rc = (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0);
        close(fd);
        if (rc) return -1;
    }
    return 0;
}

int sandbox_files(const char *read_dirs, const char *write_dirs)
{
    int abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) return -1;
    const __u64 all = landlock_rights(abi);
    // reading a file and listing a folder; EXECUTE too, for the libraries the runtime loads later
    const __u64 read = all & (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR);
    struct landlock_ruleset_attr attr = {.handled_access_fs = all};
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset < 0) return -1;
    int rc = landlock_allow(ruleset, read_dirs, read) || landlock_allow(ruleset, write_dirs, all) ||
             prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) || syscall(SYS_landlock_restrict_self, ruleset, 0);
    close(ruleset);
    return rc ? -1 : 0;
}
#else
int sandbox_enter(void)
{
    errno = ENOSYS;
    return -1;
}
int sandbox_files(const char *read_dirs, const char *write_dirs)
{
    (void)read_dirs, (void)write_dirs;
    errno = ENOSYS;
    return -1;
}
#endif

static int sandbox_wanted(void)
{
    const char *want = getenv("STENCIL_SANDBOX");
    return want && *want && strcmp(want, "0");
}

// The harness's first call: nothing unless STENCIL_SANDBOX and STENCIL_SANDBOX_WRITE are set; a
// Landlock ruleset that cannot be made stops the program (make check must not run a kernels file
// that can write its files).
void sandbox_files_if_asked(void)
{
    const char *write_dirs = getenv("STENCIL_SANDBOX_WRITE");
    if (!sandbox_wanted() || !write_dirs || !*write_dirs) return;
    if (sandbox_files(getenv("STENCIL_SANDBOX_READ"), write_dirs)) {
        fprintf(stderr, "%s: STENCIL_SANDBOX_WRITE is set but Landlock cannot be used here: %s\n", program_name(),
                strerror(errno));
        fatal_exit(2);
    }
}

// The harness's call: nothing unless STENCIL_SANDBOX is set; a sandbox that cannot be entered
// stops the program (make check must not run a kernels file without it).
void sandbox_if_asked(void)
{
    if (!sandbox_wanted()) return;
    if (sandbox_enter()) {
        fprintf(stderr, "%s: STENCIL_SANDBOX is set but the seccomp filter cannot be installed: %s\n",
                program_name(), strerror(errno));
        fatal_exit(2);
    }
}
