import Foundation
import SQLite
import Testing

@testable import QuakesCore

/// The built binary against a full disk, an unwritable folder, damaged and foreign database files,
/// and signals at random points: each ends with an `Error:` line and a sysexits code, and the
/// database holds exactly what the last completed fetch left.
@Suite(.serialized) struct FaultTests {
    /// Runs the binary through `/bin/sh -c` with `setup` before it (a `ulimit`, a `umask`), or as
    /// the unprivileged `nobody` when `asNobody`; returns the status and standard error.
    private func run(_ arguments: [String], setup: String = "", asNobody: Bool = false) async throws -> (Int32, String)
    {
        let outcome = try await UnprivilegedUser.run(arguments, setup: setup, asNobody: asNobody)
        return (outcome.status, outcome.errors)
    }

    /// A database holding the 2023 significant feed, and its content.
    private func seeded(_ folder: TemporaryDirectory) async throws -> (String, DatabaseContent) {
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        return (database, try DatabaseContent(path: database))
    }

    @Test func aFullDiskEndsWith74AndKeepsTheDatabase() async throws {
        let folder = try TemporaryDirectory()
        let (database, before) = try await seeded(folder)
        // 1 MB: the file and its log cannot grow by the 2 MB feed.
        let (status, message) = try await run(
            ["fetch", "--db", database, Fixtures.path(Fixtures.weekAfter)], setup: "ulimit -f 1024")
        #expect(status == 74)
        #expect(message.hasPrefix("Error: database \(database): "), "\(message)")
        #expect(message.contains("disk I/O error") || message.contains("full"), "\(message)")
        #expect(try DatabaseContent.integrity(of: database) == "ok")
        #expect(try DatabaseContent(path: database) == before)
        ReliabilityReport.record(
            "Fault", "a full disk during a fetch (`ulimit -f 1024`)",
            "exit \(status) (`\(firstLine(message, database))`), database unchanged")
    }

    @Test func anUnwritableFolderEndsWith74() async throws {
        let folder = try TemporaryDirectory()
        let (database, before) = try await seeded(folder)
        let locked = folder.file("locked")
        try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
        chmod(folder.path, 0o755)
        chmod(locked, 0o555)
        defer { chmod(locked, 0o755) }
        let (status, message) = try await run(
            ["fetch", "--db", locked + "/q.sqlite", try UnprivilegedUser.readable(Fixtures.path(Fixtures.alerts))],
            asNobody: true)
        #expect(status == 74)
        #expect(message.hasPrefix("Error: "), "\(message)")
        // It names the folder that is not writable.
        #expect(
            message.contains(
                "cannot create the lock file \(locked)/q.sqlite.lock: the folder \(locked) is not writable"),
            "\(message)")
        #expect(!FileManager.default.fileExists(atPath: locked + "/q.sqlite"))
        // A database this user may read but not write: a fetch is refused whole.
        chmod(database, 0o644)
        chmod(folder.path, 0o555)
        defer { chmod(folder.path, 0o755) }
        let (writeStatus, writeMessage) = try await run(
            ["fetch", "--db", database, try UnprivilegedUser.readable(Fixtures.path(Fixtures.nullPlaces))],
            asNobody: true)
        #expect(writeStatus == 74, "\(writeMessage)")
        #expect(writeMessage.hasPrefix("Error: "), "\(writeMessage)")
        chmod(folder.path, 0o755)
        #expect(try DatabaseContent(path: database) == before)
        ReliabilityReport.record(
            "Fault", "a read-only database folder (run as an unprivileged user)", runs: 2,
            "exit \(status) (`\(firstLine(message, folder.path))`), nothing created; an existing database unchanged")
    }

    @Test(arguments: [
        ("a database file that is not SQLite", Array("name,mag\nx,1\n".utf8) + [UInt8](repeating: 0x41, count: 4096)),
        ("a truncated database file", []),
    ])
    func aDamagedDatabaseFileEndsWith74AndIsNotTouched(name: String, content: [UInt8]) async throws {
        let folder = try TemporaryDirectory()
        let (database, _) = try await seeded(folder)
        var bytes = content
        if bytes.isEmpty {
            // The seeded file cut to its first half: its pages point past the end.
            let whole = try Fixtures.contents(of: database)
            bytes = Array(whole.prefix(whole.count / 2))
        }
        try Data(bytes).write(to: URL(fileURLWithPath: database))
        for arguments in [
            ["fetch", "--db", database, Fixtures.path(Fixtures.alerts)], ["count", "--db", database],
            ["list", "--db", database],
        ] {
            let (status, message) = try await run(arguments)
            #expect(status == 74, "\(arguments[0]): \(message)")
            #expect(message.hasPrefix("Error: database \(database): "), "\(arguments[0]): \(message)")
            #expect(try Fixtures.contents(of: database) == bytes, "\(arguments[0]) changed the file")
            if arguments[0] == "fetch" {
                ReliabilityReport.record(
                    "Fault", name, runs: 3,
                    "fetch, count and list: exit \(status) (`\(firstLine(message, database))`), the file untouched")
            }
        }
    }

    @Test func aDatabaseFromANewerQuakesIsRefusedAndNotTouched() async throws {
        let folder = try TemporaryDirectory()
        let (database, _) = try await seeded(folder)
        try Connection(path: database).execute("PRAGMA user_version = 99")
        let bytes = try Fixtures.contents(of: database)
        let (status, message) = try await run(["fetch", "--db", database, Fixtures.path(Fixtures.alerts)])
        #expect(status == 74)
        #expect(message.contains("newer"), "\(message)")
        #expect(try Fixtures.contents(of: database) == bytes)
        ReliabilityReport.record(
            "Fault", "a database written by a newer schema version",
            "exit \(status) (`\(firstLine(message, database))`), the file untouched")
    }

    @Test func filesAreCreatedWithTheUsersUmask() async throws {
        let folder = try TemporaryDirectory()
        for (umask, mode) in [("022", 0o644), ("077", 0o600)] {
            let database = folder.file("q-\(umask).sqlite")
            let (status, message) = try await run(
                ["fetch", "--db", database, Fixtures.path(Fixtures.emptyFeed)], setup: "umask \(umask)")
            #expect(status == 0, "\(message)")
            for file in [database, database + ".lock", database + "-wal", database + "-shm"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: file)
                #expect((attributes[.posixPermissions] as? Int) == mode, "\(file) under umask \(umask)")
            }
        }
        ReliabilityReport.record(
            "Security", "database and lock file permissions", runs: 2,
            "created 0644 under umask 022 and 0600 under umask 077: nothing world-writable")
    }

    /// SIGTERM and `kill -9` at random moments of fetches of two overlapping real feeds in turn,
    /// on each engine: every time, an SQLite file passes `PRAGMA integrity_check`, and the database
    /// holds exactly the events of the last fetch that completed.
    @Test(arguments: TestEngine.allCases) func signalsAtRandomPointsLeaveTheLastCompletedFetch(engine: TestEngine)
        async throws
    {
        let iterations = SuiteMode.rounds(6, long: 100, sanitized: 3)
        let store = try engine.newDatabase()
        let database = store.location
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        let feeds = [Fixtures.path(Fixtures.weekBefore), Fixtures.path(Fixtures.weekAfter)]
        var generator = SystemRandomNumberGenerator()
        var completed = 0
        var interrupted = 0
        var expected = try DatabaseContent(path: database).tables["quake"]
        for iteration in 0..<iterations {
            let feed = feeds[iteration % 2]
            // What the database holds if this fetch completes: the same fetch on a copy.
            let copy = try store.copy()
            _ = await QuakesRun.fetch([feed], database: copy.location)
            let ifCompleted = try DatabaseContent(path: copy.location).tables["quake"]

            let child = try ChildProcess(
                BinaryTests.executable, ["fetch", "--db", database, feed], captureOutput: false, captureErrors: false)
            // A fetch of one of these feeds takes the debug binary about 0.3 s from start to exit,
            // so most signals land inside it, at any stage, and some after it: the moment is the
            // point of the test, chosen at random, not a pace it waits for.
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...400, using: &generator)))
            kill(child.identifier, Bool.random(using: &generator) ? SIGKILL : SIGTERM)
            let process = await child.finish()

            if engine == .sqlite {
                #expect(try DatabaseContent.integrity(of: database) == "ok", "iteration \(iteration)")
            }
            let now = try DatabaseContent(path: database).tables["quake"]
            if process.reason == .exit && process.status == 0 {
                completed += 1
                #expect(now == ifCompleted, "iteration \(iteration): a completed fetch is not all there")
            } else {
                interrupted += 1
                #expect(
                    [143, 15, 9].contains(process.status), "iteration \(iteration): \(process.status)")
                #expect(now == expected || now == ifCompleted, "iteration \(iteration): a partial fetch was stored")
            }
            expected = now
        }
        ReliabilityReport.record(
            "Fault", "SIGTERM or `kill -9` at a random moment of a fetch (\(engine.rawValue))", runs: iterations,
            "\(interrupted) interrupted, \(completed) completed first; every time the events exactly those of the last completed fetch"
                + (engine == .sqlite ? ", and `integrity_check` ok" : "")
        )
    }

    private func firstLine(_ message: String, _ path: String) -> String {
        String(message.split(separator: "\n").first ?? "").replacingOccurrences(of: path, with: "…")
    }
}
