import Foundation

@testable import QuakesCore

/// A program run as a child process from async tests, without blocking Swift's cooperative pool.
///
/// The pool has one thread per core (two here): a test that waited for a child with
/// `waitUntilExit()` or read its pipes with `readDataToEndOfFile()` on it would hold a thread for as
/// long as the child ran, and a few such tests at once stall every other test, and the servers and
/// pipelines those tests drive. Every blocking wait here runs on a thread of its own (`Blocking`).
struct ChildProcess: Sendable {
    /// How a child ended, and what it wrote.
    struct Outcome: Sendable {
        var status: Int32
        var reason: Process.TerminationReason
        var outputData: Data
        var errors: String
        /// True when the child outlived its time limit and was terminated.
        var timedOut = false

        var output: String { String(decoding: outputData, as: UTF8.self) }
        var standardOutput: String { output }
        var standardError: String { errors }
    }

    let process: Process
    private let output: Pipe?
    private let errors: Pipe?

    /// Starts `executable`; standard output and error are captured unless said otherwise.
    init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
        captureOutput: Bool = true, captureErrors: Bool = true, standardInput: FileHandle? = nil,
        directory: String? = nil
    ) throws {
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        if var environment {
            // The sanitizers' own settings (suppressions, halt_on_error) follow the child, whatever
            // world the test gives it.
            for name in ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"] {
                if environment[name] == nil, let value = ProcessInfo.processInfo.environment[name] {
                    environment[name] = value
                }
            }
            process.environment = environment
        }
        output = captureOutput ? Pipe() : nil
        errors = captureErrors ? Pipe() : nil
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = errors ?? FileHandle.nullDevice
        if let standardInput { process.standardInput = standardInput }
        try process.run()
    }

    /// The read end of standard output, for tests that read it as it comes.
    var outputHandle: FileHandle? { output?.fileHandleForReading }

    var identifier: Int32 { process.processIdentifier }

    /// Waits for the child to end, reading both pipes at once (a child that fills one while the
    /// other is being read would otherwise never end); `readOutput: false` when the test read and
    /// closed standard output itself.
    func finish(readOutput: Bool = true) async -> Outcome {
        async let outputData = Self.readAll(readOutput ? output : nil)
        async let errorData = Self.readAll(errors)
        let (out, err) = await (outputData, errorData)
        let process = process
        _ = try? await Blocking.run { process.waitUntilExit() }
        return Outcome(
            status: process.terminationStatus, reason: process.terminationReason, outputData: out,
            errors: String(decoding: err, as: UTF8.self))
    }

    private static func readAll(_ pipe: Pipe?) async -> Data {
        guard let handle = pipe?.fileHandleForReading else { return Data() }
        return (try? await Blocking.run { handle.readDataToEndOfFile() }) ?? Data()
    }

    /// Runs `executable` to its end.
    static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil,
        standardInput: FileHandle? = nil
    ) async throws -> Outcome {
        try await ChildProcess(executable, arguments, environment: environment, standardInput: standardInput).finish()
    }

    /// Runs the program at `executable` to its end, terminating it after `timeLimit` seconds: a
    /// safety net for programs (shells, `man`) that could wait for input that never comes.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil,
        currentDirectory: String? = nil, timeLimit: Double = 60
    ) async throws -> Outcome {
        let child = try ChildProcess(
            URL(fileURLWithPath: executable), arguments, environment: environment,
            standardInput: FileHandle.nullDevice, directory: currentDirectory)
        let process = child.process
        let limit = Task {
            try await Task.sleep(for: .milliseconds(Int64(timeLimit * 1000)))
            guard process.isRunning else { return false }
            process.terminate()
            return true
        }
        var outcome = await child.finish()
        limit.cancel()
        outcome.timedOut = (try? await limit.value) ?? false
        return outcome
    }

    /// The path of `name` when it is installed in one of the usual folders: `/usr/bin/zsh`.
    static func installed(_ name: String) -> String? {
        ["/usr/bin/", "/bin/", "/usr/local/bin/"].map { $0 + name }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Runs a shell command line to its end.
    static func shell(_ script: String, environment: [String: String]? = nil) async throws -> Outcome {
        try await run(URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: environment)
    }

    /// The backtraces, from gdb, of this process's threads whose frames mention one of `texts`, for
    /// the message of a test that timed out waiting for code of the tool (blocking: it runs only
    /// then). Not under a sanitizer, where gdb takes many minutes to read the process.
    static func stacksOfThisProcess(mentioning texts: [String]) -> String {
        guard !SuiteMode.isSanitized else { return "(gdb is not run under a sanitizer)" }
        guard let gdb = installed("gdb") else { return "(gdb is not installed)" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gdb)
        process.arguments = ["-p", "\(getpid())", "-batch", "-nx", "-ex", "thread apply all bt"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "(gdb did not start)" }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let threads = String(decoding: data, as: UTF8.self).components(separatedBy: "\nThread ").dropFirst()
        let relevant = threads.filter { thread in texts.contains { thread.contains($0) } }.map { thread in
            // "#3  0x… in $s10QuakesCore… () at /path/File.swift:12" → the symbol and the place.
            thread.split(separator: "\n").map { line in
                line.replacing(#/\s0x[0-9a-f]+\sin\s/#, with: " ").replacing(#/\s\(.*\)\s(at|from)\s/#, with: " @ ")
            }.joined(separator: "\n")
        }
        return relevant.isEmpty ? "(no thread runs such code)" : "\n" + relevant.joined(separator: "\n")
    }
}
