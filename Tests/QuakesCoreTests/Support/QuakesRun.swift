import Foundation

@testable import QuakesCore

/// One in-process run of the tool, with what it wrote.
struct QuakesRun {
    var status: ExitStatus
    var standardOutput: String
    var standardError: String

    /// Runs `quakes` with `arguments` in a world of the test's: captured output, the given
    /// variables and folder, and a clock at `now` (milliseconds since 1970) when given.
    static func run(
        _ arguments: [String], variables: [String: String] = [:], directory: String? = nil,
        now: Int64? = nil
    ) async -> QuakesRun {
        await RunningQuakes(arguments, variables: variables, directory: directory, now: now).finished()
    }

    /// Runs `quakes fetch --db DB SOURCES…`.
    static func fetch(_ sources: [String], database: String, _ options: [String] = []) async -> QuakesRun {
        await run(["fetch", "--db", database] + options + sources)
    }
}

/// The state of a database file as a fetch leaves it once every connection has closed.
struct DatabaseState: Equatable {
    /// The main file's bytes. In WAL mode nothing reaches the main file but committed transactions.
    var bytes: Data
    /// Whether a write-ahead log was left beside it: none is, once the last connection closes cleanly.
    var hasLog: Bool

    init(path: String) throws {
        bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        let log = (try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int ?? 0
        hasLog = log > 0
    }
}
