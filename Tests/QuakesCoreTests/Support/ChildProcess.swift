import Foundation

/// A program run to its end on a thread of its own, with what it wrote.
///
/// Waiting for a process blocks a thread, and Swift's cooperative pool has only as many threads as
/// there are cores (two on CI): a test that waited there would stall every other test. So the
/// waiting happens on a detached thread, and the async caller is resumed when it is over. Output
/// goes to files rather than pipes, so a child that fills one stream cannot block on it.
struct ChildProcess: Sendable {
    var status: Int32
    var standardOutput: String
    var standardError: String
    /// True when the process outlived its time limit and was terminated.
    var timedOut: Bool

    /// Runs `executable` with `arguments` and `environment` (the test's own when nil), ending it
    /// after `timeLimit` seconds.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, timeLimit: Double = 60
    ) async throws -> ChildProcess {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        try runBlocking(
                            executable, arguments, environment: environment, currentDirectory: currentDirectory,
                            timeLimit: timeLimit)
                    })
            }
        }
    }

    /// Whether `name` is an executable in one of the usual folders: `/usr/bin/zsh`.
    static func installed(_ name: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    private static func runBlocking(
        _ executable: String, _ arguments: [String], environment: [String: String]?, currentDirectory: String?,
        timeLimit: Double
    ) throws -> ChildProcess {
        let folder = try TemporaryDirectory()
        let outputPath = try folder.write("stdout", "")
        let errorPath = try folder.write("stderr", "")
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        defer {
            try? output.close()
            try? errors.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        var timedOut = false
        if ended.wait(timeout: .now() + timeLimit) == .timedOut {
            timedOut = true
            process.terminate()
            ended.wait()
        }
        return ChildProcess(
            status: process.terminationStatus,
            standardOutput: try String(contentsOfFile: outputPath, encoding: .utf8),
            standardError: try String(contentsOfFile: errorPath, encoding: .utf8), timedOut: timedOut)
    }
}
