import Foundation
import LocalHTTPServer
import SQLite
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// One database, many users: a cron job's database read by users who may read it but not write its
/// folder, while a fetch may be writing; read commands that leave the folder as they found it; and
/// other programs' databases, which quakes never touches.
@Suite(.serialized) struct SharingTests {
    /// The names and sizes of the files in `folder`, and the database's bytes: what a read command
    /// must leave as it found it.
    struct FolderState: Equatable {
        var files: [String: Int]
        var database: Data

        init(_ folder: String, database: String) throws {
            files = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + name)
                files[name] = attributes[.size] as? Int ?? -1
            }
            self.database = try Data(contentsOf: URL(fileURLWithPath: database))
        }
    }

    /// A database of the weekly feed in a folder only its owner (root here) can write.
    private func sharedDatabase() async throws -> (TemporaryDirectory, String) {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let run = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: database)
        #expect(run.status == .success)
        chmod(folder.path, 0o755)
        return (folder, database)
    }

    private static let readCommands: [[String]] = [
        ["count"], ["list", "--limit", "3", "--format", "ndjson"], ["show", "us7000enmc"], ["history"],
        ["status"], ["count", "--section", "day", "--format", "json"],
    ]

    @Test(.enabled(if: UnprivilegedUser.isAvailable))
    func aUserWhoMayOnlyReadTheDatabaseCanQueryIt() async throws {
        let (folder, database) = try await sharedDatabase()
        let before = try FolderState(folder.path, database: database)
        #expect(before.files.keys.sorted() == ["q.sqlite", "q.sqlite-shm", "q.sqlite-wal", "q.sqlite.lock"])
        for arguments in Self.readCommands {
            let outcome = try await UnprivilegedUser.run(arguments + ["--db", database], asNobody: true)
            #expect(outcome.status == 0, "\(arguments): \(outcome.errors)")
            #expect(outcome.errors.isEmpty, "\(arguments)")
            #expect(try FolderState(folder.path, database: database) == before, "\(arguments) changed the folder")
        }
        let count = try await UnprivilegedUser.run(["count", "--db", database], asNobody: true)
        #expect(count.output == "3098\n")
        // Writing is for its owner.
        let fetch = try await UnprivilegedUser.run(
            ["fetch", "--db", database, try UnprivilegedUser.readable(Fixtures.path(Fixtures.alerts))], asNobody: true)
        #expect(fetch.status == 74, "\(fetch.errors)")
        #expect(try FolderState(folder.path, database: database) == before)
    }

    @Test(.enabled(if: UnprivilegedUser.isAvailable))
    func aReaderWithoutWriteAccessSeesAFetchWholeOrNotAtAll() async throws {
        let (folder, database) = try await sharedDatabase()
        _ = folder
        let server = try await StalledFetch.server()
        defer { server.stop() }
        let fetch = try ChildProcess(
            BinaryTests.executable, ["fetch", "--db", database, server.url(StalledFetch.path)], captureOutput: false)
        try await StalledFetch.waitUntilWriting(database)
        let during = try await UnprivilegedUser.run(["count", "--db", database], asNobody: true)
        #expect(during.status == 0, "\(during.errors)")
        #expect(during.output == "3098\n")
        server.release(StalledFetch.path)
        #expect(await fetch.finish().status == 0)
        let after = try await UnprivilegedUser.run(["count", "--db", database], asNobody: true)
        #expect(after.output == "\(3098 + StalledFetch.featureCount)\n", "\(after.errors)")
    }

    /// A first fetch is loaded beside the database and linked into place when it commits
    /// (`DatabaseDraft`): until then readers find no database, then all of it.
    @Test func aFirstFetchAppearsWhole() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let server = try await StalledFetch.server()
        defer { server.stop() }
        let fetch = try ChildProcess(
            BinaryTests.executable, ["fetch", "--db", database, server.url(StalledFetch.path)], captureOutput: false)
        try await StalledFetch.waitUntilWritingDraft(of: database)
        let during = await QuakesRun.run(["count", "--db", database])
        #expect(during.status == .noInput)
        #expect(during.standardError.contains("does not exist"), "\(during.standardError)")
        #expect(!FileManager.default.fileExists(atPath: database))
        server.release(StalledFetch.path)
        #expect(await fetch.finish().status == 0)
        let after = await QuakesRun.run(["count", "--db", database])
        #expect(after.standardOutput == "\(StalledFetch.featureCount)\n", "\(after.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["q.sqlite", "q.sqlite-shm", "q.sqlite-wal", "q.sqlite.lock"])
    }

    @Test(.enabled(if: UnprivilegedUser.isAvailable))
    func withoutItsLogFilesAReadOnlyUserIsToldWhy() async throws {
        let (folder, database) = try await sharedDatabase()
        // Another SQLite program (here the tests' own wrapper, as sqlite3 would) closes it last,
        // and removes the -wal and -shm files.
        _ = try Connection(path: database).prepare("SELECT count(*) FROM quake").step()
        #expect(!FileManager.default.fileExists(atPath: database + "-shm"))
        let before = try FolderState(folder.path, database: database)
        let outcome = try await UnprivilegedUser.run(["count", "--db", database], asNobody: true)
        #expect(outcome.status == 74)
        #expect(outcome.errors.hasPrefix("Error: database \(database): "), "\(outcome.errors)")
        #expect(outcome.errors.contains("-wal and -shm"), "\(outcome.errors)")
        #expect(try FolderState(folder.path, database: database) == before)
        // The next fetch by its owner puts them back.
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        let again = try await UnprivilegedUser.run(["count", "--db", database], asNobody: true)
        #expect(again.status == 0, "\(again.errors)")
    }

    @Test func readCommandsLeaveTheFolderAsTheyFoundIt() async throws {
        let (folder, database) = try await sharedDatabase()
        let before = try FolderState(folder.path, database: database)
        for arguments in Self.readCommands {
            let run = await QuakesRun.run(arguments + ["--db", database], variables: ["TZ": "UTC"])
            #expect(run.status == .success, "\(arguments): \(run.standardError)")
            #expect(try FolderState(folder.path, database: database) == before, "\(arguments) changed the folder")
        }
        // A watch that only follows the history: its first answer, then SIGINT.
        let watch = RunningQuakes(
            ["watch", "--no-fetch", "--db", database, "--min-magnitude", "5", "--interval", "0.1s"],
            variables: ["TZ": "UTC"], directory: folder.path)
        try await watch.wait { $0.contains("insert") }
        #expect(await watch.stop() == .success)
        #expect(try FolderState(folder.path, database: database) == before, "watch --no-fetch changed the folder")
    }

    // MARK: - Other programs' databases

    /// An SQLite database of another program, as `make` returns it: the statements that build it.
    private static let foreignDatabases: [(name: String, sql: String)] = [
        ("a bookmarks table", "CREATE TABLE bookmarks (url TEXT, title TEXT); INSERT INTO bookmarks VALUES ('a', 'b')"),
        (
            "a bookmarks table at user_version 1",
            "CREATE TABLE bookmarks (url TEXT); INSERT INTO bookmarks VALUES ('a'); PRAGMA user_version = 1"
        ),
        ("another program's application id", "CREATE TABLE quake (id TEXT); PRAGMA application_id = 42"),
        (
            "a WAL database with quakes' table names but other columns",
            "PRAGMA journal_mode = WAL; CREATE TABLE quake (id TEXT, mag REAL); PRAGMA user_version = 2"
        ),
    ]

    @Test(arguments: foreignDatabases.indices)
    func anotherProgramsDatabaseIsRefusedAndLeftExactlyAsItWas(index: Int) async throws {
        let (name, sql) = Self.foreignDatabases[index]
        let folder = try TemporaryDirectory()
        let database = folder.file("other.sqlite")
        do {
            let connection = try Connection(path: database)
            try connection.execute(sql)
        }
        let before = try FolderState(folder.path, database: database)
        let commands: [[String]] =
            Self.readCommands + [
                ["fetch", Fixtures.path(Fixtures.alerts)], ["prune", "--older-than", "1d"],
                ["watch", Fixtures.path(Fixtures.alerts)], ["watch", "--no-fetch"],
            ]
        for arguments in commands {
            let run = await QuakesRun.run(arguments + ["--db", database], variables: ["TZ": "UTC"])
            #expect(run.status == .ioError, "\(name), \(arguments): \(run.standardError)")
            #expect(
                run.standardError.hasPrefix("Error: database \(database) is not a quakes database: "),
                "\(name), \(arguments): \(run.standardError)")
            #expect(try FolderState(folder.path, database: database) == before, "\(name), \(arguments)")
        }
        ReliabilityReport.record(
            "Fault", "another program's SQLite database (\(name))", runs: commands.count,
            "every command: exit 74 (`Error: database … is not a quakes database: …`), the file byte for byte as it was, nothing new beside it"
        )
    }

    @Test func aDatabaseOfAnOlderSchemaIsReadOnlyOnceAWriterUpgradedIt() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("old.sqlite")
        // A schema 2 database as the previous version of quakes left it: no application id,
        // the alias table, and no log files once closed.
        do {
            let connection = try Connection(path: database)
            for migration in Schema.migrator.migrations.prefix(2) { try connection.execute(migration.sql) }
            try connection.execute(
                """
                PRAGMA user_version = 2;
                INSERT INTO quake (id, time, updated, longitude, latitude, ids, generated)
                    VALUES ('ci39746767', 1626757970460, 1626796217729, -117.5, 36.6, ',ci39746767,us7000enmc,', 1);
                INSERT INTO quake_alias (alias, id) VALUES ('us7000enmc', 'ci39746767');
                """)
        }
        let before = try FolderState(folder.path, database: database)
        for arguments in Self.readCommands {
            let run = await QuakesRun.run(arguments + ["--db", database], variables: ["TZ": "UTC"])
            #expect(run.status == .ioError, "\(arguments)")
            #expect(
                run.standardError.contains(
                    "has schema version 2, older than this version of quakes uses (\(Schema.migrator.latestVersion))"),
                "\(arguments): \(run.standardError)")
            #expect(try FolderState(folder.path, database: database) == before, "\(arguments)")
        }
        // A writer upgrades it, whole: the event and its old id are still found.
        let fetch = await QuakesRun.fetch([Fixtures.path(Fixtures.emptyFeed)], database: database)
        #expect(fetch.status == .success, "\(fetch.standardError)")
        let show = await QuakesRun.run(["show", "--db", database, "us7000enmc", "--format", "json"])
        #expect(show.standardOutput.hasPrefix(#"{"id":"ci39746767""#), "\(show.standardError)")
        let connection = try Connection(path: database, mode: .readOnly)
        #expect(try connection.userVersion() == Schema.migrator.latestVersion)
        #expect(try connection.applicationID() == Schema.applicationID)
    }
}
