import Foundation

/// One run of a command: how long it took and the most memory it held.
struct Measurement {
    var seconds: Double
    /// Peak resident set size, in kilobytes (`ru_maxrss`).
    var peakKilobytes: Int
    var status: Int32
    /// User and system time together, in seconds.
    var cpuSeconds: Double = 0
}

/// Several runs of one case, summarised as benchmarks report them: median, min and max time, and
/// the highest peak memory.
struct Summary {
    var runs: [Measurement]

    var median: Double {
        let sorted = runs.map(\.seconds).sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    var minimum: Double { runs.map(\.seconds).min() ?? 0 }
    var maximum: Double { runs.map(\.seconds).max() ?? 0 }
    var peakMegabytes: Double { Double(runs.map(\.peakKilobytes).max() ?? 0) / 1024 }
}

/// Runs commands and measures them through `quakes-measure`, a small C program beside this one
/// that forks, runs the command and reports its time and its own peak memory (`wait4`), which
/// neither a shell's `time` nor a child of this larger process would give.
enum Runner {
    /// This program, `quakes-bench`.
    static let harness = Bundle.main.executablePath ?? CommandLine.arguments[0]

    /// `quakes-measure`, built beside this program.
    static let measurer = beside("quakes-measure")

    /// `quakes-floor`, built beside this program: SQLite alone, the floors of the cases.
    static let floor = beside("quakes-floor")

    /// The path of `program`, a product of this package, in this program's folder.
    private static func beside(_ program: String) -> String {
        URL(fileURLWithPath: harness).deletingLastPathComponent().appendingPathComponent(program).path
    }

    /// Runs `arguments[0]` with the rest, standard output to `output` (a path) and standard error to
    /// `errors`; throws when it fails.
    static func measure(
        _ arguments: [String], output: String = "/dev/null", errors: String = "/dev/null",
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> Measurement {
        let report = NSTemporaryDirectory() + "quakes-measure-\(getpid()).out"
        defer { unlink(report) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_addopen(&actions, 3, report, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = ([measurer] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, measurer, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw BenchmarkError("cannot run \(measurer): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let fields = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").split(separator: " ")
        guard status == 0, fields.count == 4, let seconds = Double(fields[0]), let peak = Int(fields[1]),
            let exitStatus = Int32(fields[2]),
            let cpu = Double(fields[3].trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw BenchmarkError("quakes-measure failed on \(arguments[0]); see \(errors)") }
        guard exitStatus == 0 else {
            throw BenchmarkError("\(arguments.joined(separator: " ")) exited with \(exitStatus); see \(errors)")
        }
        return Measurement(seconds: seconds, peakKilobytes: peak, status: exitStatus, cpuSeconds: cpu)
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
