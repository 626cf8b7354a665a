import Glibc

/// `sh -c COMMAND`, run to its end with bytes on its standard input: a `watch --exec` hook.
///
/// Spawned with `posix_spawn` and waited for with `waitpid` on the calling thread (callers run it
/// through `Blocking`), not with Foundation's `Process`, whose `waitUntilExit` waits for a monitor
/// thread of its own to hear of the child's end. The child starts as a shell started by a shell
/// would: every signal at its default action (quakes ignores SIGPIPE, SIGINT and SIGTERM, and an
/// ignored signal stays ignored across `exec`), none blocked, and the process's environment.
package enum ShellCommand {
    /// Runs `command` with `input` on its standard input and waits for it to end; nil when it
    /// exited with status 0, else what went wrong, for a warning.
    package static func run(_ command: String, input: [UInt8]) -> String? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return "cannot run the command: \(String(cString: strerror(errno)))" }
        // Neither end goes to the child as it is (the read end becomes its standard input).
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var every = sigset_t()
        sigfillset(&every)
        posix_spawnattr_setsigdefault(&attributes, &every)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let arguments = (["/bin/sh", "-c", command] as [String]).map { strdup($0) } + [nil]
        defer { for argument in arguments { free(argument) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, "/bin/sh", &actions, &attributes, arguments, environ)
        close(ends[0])
        guard spawned == 0 else {
            close(ends[1])
            return "cannot run the command: \(String(cString: strerror(spawned)))"
        }
        // A command that does not read all of it closes the pipe early: the rest is not its.
        input.withUnsafeBytes { bytes in
            var written = 0
            while written < bytes.count {
                let count = write(ends[1], bytes.baseAddress! + written, bytes.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                written += count
            }
        }
        close(ends[1])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7f
        guard signal != 0 || (status >> 8) & 0xff != 0 else { return nil }
        return signal != 0 ? "killed by signal \(signal)" : "status \((status >> 8) & 0xff)"
    }
}
