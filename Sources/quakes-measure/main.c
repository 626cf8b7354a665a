// quakes-measure: runs a command and reports its wall time and peak memory, for quakes-bench.
//
//   quakes-measure COMMAND [ARGUMENT...]   prints "SECONDS PEAK_KILOBYTES STATUS" on standard error
//                                          after the command's own output has closed
//
// Why a separate C program: Linux reports a child's peak resident memory (ru_maxrss) as at least
// what its parent held when it forked, so a command started straight from the Swift harness, which
// holds tens of megabytes, would be reported at tens of megabytes even when it used two. This
// program is small enough (about 1 MB) that the peak it passes on is the command's own.
//
// The report goes to file descriptor 3 when it is open, else to standard error.

#include <errno.h>
#include <fcntl.h>
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
    double started = now();
    pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "quakes-measure: fork: %s\n", strerror(errno));
        return 71;
    }
    if (child == 0) {
        if (report == 3) close(3);
        execvp(argv[1], argv + 1);
        fprintf(stderr, "quakes-measure: cannot run %s: %s\n", argv[1], strerror(errno));
        _exit(127);
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
    dprintf(report, "%.6f %ld %d\n", seconds, usage.ru_maxrss, exit_status);
    return 0;
}
