// quakes-measure: runs a command and reports its wall time, peak memory and CPU time, for quakes-bench.
//
//   quakes-measure COMMAND [ARGUMENT...]   prints "SECONDS PEAK_KILOBYTES STATUS CPU_SECONDS" on
//                                          standard error after the command's own output has closed
//
// CPU_SECONDS is the command's user and system time together (wait4): what start-up is compared
// by, since a millisecond of wall time on a shared machine is mostly the scheduler's.
//
// Why a separate C program: Linux reports a child's peak resident memory (ru_maxrss) as at least
// what its parent held when it started it, so a command started straight from the Swift harness,
// which holds tens of megabytes, would be reported at tens of megabytes even when it used two. This
// program is small enough (under 3 MB) that the peak it passes on is the command's own.
//
// The command is started with posix_spawn, which runs none of this program's code in the child
// before exec: after fork, the child's faults on this program's copied pages would count as the
// command's CPU time, a large part of a quick command's.
//
// The report goes to file descriptor 3 when it is open, else to standard error.

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (double)time.tv_sec + (double)time.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: quakes-measure COMMAND [ARGUMENT...]\n");
        return 64;
    }
    int report = fcntl(3, F_GETFD) == -1 ? 2 : 3;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (report == 3) posix_spawn_file_actions_addclose(&actions, 3);
    extern char **environ;
    double started = now();
    pid_t child;
    int failed = posix_spawnp(&child, argv[1], &actions, NULL, argv + 1, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (failed) {
        fprintf(stderr, "quakes-measure: cannot run %s: %s\n", argv[1], strerror(failed));
        dprintf(report, "%.6f 0 127 0\n", now() - started);
        return 0;
    }
    int status = 0;
    struct rusage usage;
    while (wait4(child, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "quakes-measure: wait4: %s\n", strerror(errno));
            return 71;
        }
    }
    double seconds = now() - started;
    int exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    double cpu = (double)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + (double)(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    dprintf(report, "%.6f %ld %d %.6f\n", seconds, usage.ru_maxrss, exit_status, cpu);
    return 0;
}
