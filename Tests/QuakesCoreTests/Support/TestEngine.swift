import Foundation
import PostgreSQL
import Registry
import SQLite
import Testing

@testable import GeoJSONEngine
@testable import PostgresEngine
@testable import QuakesCore
@testable import SQLiteEngine

/// The storage engines the behavioural suites run on: every fetch, query, history and watch test
/// that is not about SQLite's file itself takes one as its argument and runs on each: SQLite,
/// PostgreSQL, and the GeoJSON-file store (which keeps no history transactions: the history tests
/// expect its refusal).
enum TestEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgresql, geojson

    var testDescription: String { rawValue }

    /// The engines the behavioural suites run on: all three, but under a sanitizer SQLite and
    /// PostgreSQL only. The GeoJSON file reads and rewrites itself whole at every command, which in
    /// a debug build under AddressSanitizer would more than double the suites' time; there its own
    /// suite (`GeoJSONEngineTests`: its writer actor, parallel decoding, read cache and file
    /// replacement) and the engine-parity suite run it.
    static var allCases: [TestEngine] {
        SuiteMode.isSanitized ? [.sqlite, .postgresql] : [.sqlite, .postgresql, .geojson]
    }

    /// What the engine says of itself.
    var description: EngineDescription {
        switch self {
        case .sqlite: SQLiteDatabase.engine
        case .postgresql: PostgresDatabase.engine
        case .geojson: GeoJSONDatabase.engine
        }
    }

    /// False for an engine that keeps its last token but no history transactions (the GeoJSON-file
    /// store): `history` refuses, with 64, and names the engines that keep one.
    var keepsHistory: Bool { description.capabilities.contains(.keepsHistory) }

    /// False for an engine that does not record when a source was last checked (the GeoJSON-file
    /// store, which would change the file on every check): `status` says so, and `--fresh-within`
    /// refuses.
    var recordsChecks: Bool { description.capabilities.contains(.recordsChecks) }

    /// The engines whose `history` lists transactions.
    static var keepingHistory: [TestEngine] { allCases.filter(\.keepsHistory) }

    /// The engines that record when a source was last checked.
    static var recordingChecks: [TestEngine] { allCases.filter(\.recordsChecks) }

    /// The schema version the engine's databases are at.
    var schemaVersion: Int32 {
        switch self {
        case .sqlite: Schema.migrator.latestVersion
        case .postgresql: PostgresSchema.latestVersion
        case .geojson: Int32(GeoJSONStoreFile.schemaVersion)
        }
    }

    /// A new, empty database of this engine, which lives as long as the returned value.
    func newDatabase() throws -> TestStore {
        switch self {
        case .sqlite: try TestStore(file: TemporaryDirectory())
        case .postgresql: try TestStore(server: Self.serverURI())
        case .geojson: try TestStore(file: TemporaryDirectory(), named: "quakes.geojson")
        }
    }

    /// QUAKES_TEST_POSTGRES, or a failure that says how to set it: the PostgreSQL engine is never
    /// left untested because a server was missing.
    static func serverURI() throws -> String {
        try #require(
            ProcessInfo.processInfo.environment["QUAKES_TEST_POSTGRES"],
            "QUAKES_TEST_POSTGRES is not set: run `make test`, or `scripts/with-postgres swift test`")
    }
}

/// A database for one test: a file in a folder of its own, or a database of its own on the test
/// server (dropped when the value goes), so that tests run in parallel without seeing each other.
final class TestStore: Sendable {
    /// What `--db` takes: the file's path, or the database's URI.
    let location: String
    private let folder: TemporaryDirectory
    /// The server's URI and the database's name, for a PostgreSQL database.
    private let server: (uri: String, name: String)?

    init(file folder: TemporaryDirectory, named name: String = "quakes.sqlite") {
        self.folder = folder
        location = folder.file(name)
        server = nil
    }

    /// True for a GeoJSON-file store, which every command reads whole.
    var isGeoJSON: Bool {
        location.hasSuffix(".geojson")
    }

    init(server uri: String, template: String? = nil) throws {
        folder = try TemporaryDirectory()
        let name = "quakes_test_" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        try PostgresConnection(uri: uri).execute("CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0)" } ?? ""))
        server = (uri, name)
        location = Self.uri(uri, database: name)
    }

    deinit {
        if let server {
            // FORCE ends the connections a test left open (PostgreSQL 13 and later).
            _ = try? PostgresConnection(uri: server.uri).execute("DROP DATABASE \(server.name) WITH (FORCE)")
        }
    }

    /// The engine's view of the database, as the commands have it: kept by the registry's engine that
    /// takes its location.
    var database: any DatabaseWriter {
        let environment = Environment(
            currentDirectory: "/", standardOutput: CapturedOutput(), standardError: CapturedOutput())
        guard
            let database = Registry.engines.lazy.compactMap({ $0.database(named: self.location, in: environment) })
                .first
        else { preconditionFailure("no engine keeps \(location)") }
        return database
    }

    /// A file in the test's own folder, for feeds and other files beside the database.
    func file(_ name: String) -> String {
        folder.file(name)
    }

    /// Writes `text` to a file of that name in the test's own folder, and gives its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try folder.write(name, text)
    }

    /// Writes `bytes` to a file of that name in the test's own folder, and gives its path.
    @discardableResult
    func write(_ name: String, _ bytes: some Sequence<UInt8>) throws -> String {
        try folder.write(name, bytes)
    }

    /// A reader of one snapshot of the database, opened here and now (tests may block).
    func reader() throws -> any QuakeReading {
        if isGeoJSON { return try GeoJSONReader(path: location, zone: .utc) }
        return server == nil ? try SQLiteReader(path: location) : try PostgresReader(uri: location, name: location)
    }

    /// Waits until a process holds the database's writer lock: the `flock` beside an SQLite file,
    /// the advisory lock of a PostgreSQL database.
    func waitUntilLocked() async throws {
        try await Self.waitUntilLocked(location)
    }

    /// `waitUntilLocked()` of the database `location` names.
    static func waitUntilLocked(_ location: String) async throws {
        guard location.hasPrefix("postgresql://") else {
            return try await StalledFetch.waitUntilLocked(location + ".lock")
        }
        let watcher = try PostgresConnection(uri: location)
        try await StalledFetch.waitUntil("a process holds the writer lock of \(location)") {
            try watcher.execute(
                """
                SELECT count(*) FROM pg_locks
                WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid() AND database =
                    (SELECT oid FROM pg_database WHERE datname = current_database())
                """
            ).int(row: 0, column: 0) ?? 0 > 0
        }
    }

    /// Waits until a fetch is in the middle of its writes: SQLite's WAL write lock is held, or
    /// another PostgreSQL session has written to `quake` in a transaction still open (it holds a
    /// row-exclusive lock on the table), or, for a GeoJSON file, whose writer changes only its
    /// memory until it commits, the writer lock is held.
    func waitUntilWriting() async throws {
        try await Self.waitUntilWriting(location)
    }

    /// `waitUntilWriting()` of the database `location` names.
    static func waitUntilWriting(_ location: String) async throws {
        if location.hasSuffix(".geojson") { return try await waitUntilLocked(location) }
        guard location.hasPrefix("postgresql://") else { return try await StalledFetch.waitUntilWriting(location) }
        let watcher = try PostgresConnection(uri: location)
        try await StalledFetch.waitUntil("a fetch writes \(location)") {
            try watcher.execute(
                """
                SELECT count(*) FROM pg_locks JOIN pg_class ON pg_class.oid = pg_locks.relation
                WHERE pg_class.relname = 'quake' AND pg_locks.mode = 'RowExclusiveLock'
                    AND pg_locks.pid <> pg_backend_pid()
                """
            ).int(row: 0, column: 0) ?? 0 > 0
        }
    }

    /// What a failed write must leave exactly as it was: the file's bytes, for SQLite; every row
    /// of every table, on a server.
    func state() throws -> StoredState {
        server == nil ? .file(try DatabaseState(path: location)) : .server(try DatabaseContent(path: location))
    }

    /// A new database of the same engine holding what this one holds now: `VACUUM INTO` a file
    /// beside it, a copy of a GeoJSON file, or a database made with this one as its template (no
    /// session may be connected to it meanwhile).
    func copy() throws -> TestStore {
        guard let server else {
            let copy = TestStore(file: try TemporaryDirectory(), named: (location as NSString).lastPathComponent)
            if isGeoJSON {
                try FileManager.default.copyItem(atPath: location, toPath: copy.location)
            } else {
                try Connection(path: location).execute("VACUUM INTO '\(copy.location)'")
            }
            return copy
        }
        return try TestStore(server: server.uri, template: server.name)
    }

    /// Reads the database through its engine's reader, on one snapshot.
    func read<Result: Sendable>(_ body: @escaping @Sendable (any QuakeReading) throws -> Result) async throws
        -> Result
    {
        try await database.reading(body)
    }

    /// `uri` with its database replaced by `database`.
    static func uri(_ uri: String, database: String) -> String {
        PostgresConnection.uri(uri, database: database)
    }

    /// `uri` with the connection parameter `parameter` (`user=someone`) added.
    static func uri(_ uri: String, adding parameter: String) -> String {
        PostgresConnection.uri(uri, adding: parameter)
    }
}

/// What a database holds, compared exactly: an SQLite file's bytes, or every row of a server's tables.
enum StoredState: Equatable {
    case file(DatabaseState)
    case server(DatabaseContent)
}
