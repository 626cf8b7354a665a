import Foundation

/// One run of a command: how long it took and the most memory it held.
struct Measurement {
    var seconds: Double
    /// Peak resident set size, in kilobytes (`ru_maxrss`).
    var peakKilobytes: Int
    var status: Int32
}

/// Several runs of one case, summarised as benchmarks report them: median, min and max time, and
/// the highest peak memory.
struct Summary {
    var runs: [Measurement]

    var median: Double {
        let sorted = runs.map(\.seconds).sorted()
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    var minimum: Double { runs.map(\.seconds).min() ?? 0 }
    var maximum: Double { runs.map(\.seconds).max() ?? 0 }
    var peakMegabytes: Double { Double(runs.map(\.peakKilobytes).max() ?? 0) / 1024 }
}

/// Runs commands and measures them with `posix_spawn` and `wait4`, which reports the child's own
/// peak memory, unlike a shell's `time`.
enum Runner {
    /// Runs `arguments[0]` with the rest, standard output to `output` (a path) and standard error to
    /// `errors`; throws when it fails.
    static func measure(_ arguments: [String], output: String = "/dev/null", errors: String = "/dev/null",
                        environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Measurement
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let started = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        guard spawned == 0 else { throw BenchmarkError("cannot run \(arguments[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        guard exitStatus == 0 else {
            throw BenchmarkError("\(arguments.joined(separator: " ")) exited with \(exitStatus); see \(errors)")
        }
        return Measurement(seconds: seconds, peakKilobytes: Int(usage.ru_maxrss), status: exitStatus)
    }

    /// Measures `body` in this process: wall time, and this process's peak memory so far.
    static func measure(_ body: () throws -> Void) rethrows -> Measurement {
        let started = DispatchTime.now().uptimeNanoseconds
        try body()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Measurement(seconds: seconds, peakKilobytes: Int(usage.ru_maxrss), status: 0)
    }

    /// The full path of `name` on PATH, or nil.
    static func find(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
