import QuakesCore
import SQLite

/// The SQLite engine: a database that is one file on this machine. It keeps every `--db` value
/// that no other engine claims, since anything else is a file path.
public struct SQLiteEngine: StorageEngine {
    public init() {}

    package var description: EngineDescription { SQLiteDatabase.engine }

    package func database(named value: String, in environment: Environment) -> (any DatabaseWriter)? {
        SQLiteDatabase(path: environment.absolutePath(value))
    }
}

/// An SQLite database file, by its absolute path.
package struct SQLiteDatabase: DatabaseWriter {
    package let path: String

    static let engine = EngineDescription(
        values: "any other path",
        summary: "An SQLite file on this machine, the default: missing folders are created, and its readers "
            + "never wait for a fetch.",
        kind: "an SQLite file", suggestion: "an SQLite file (--db quakes.sqlite)",
        capabilities: [.keepsHistory, .recordsChecks])

    package var engine: EngineDescription { Self.engine }

    package init(path: String) {
        self.path = path
    }

    package var name: String { path }

    package func read<Result>(zone: DisplayZone, _ body: (any QuakeReading) throws -> Result) throws -> Result {
        try SQLiteReader.reading(path, zone: zone, body)
    }

    /// A database whose first write has not committed is not there yet: its writer reads it as
    /// the empty database it is (`DatabaseDraft`).
    package func readAsWriter<Result>(zone: DisplayZone, _ body: (any QuakeReading) throws -> Result) throws
        -> Result
    {
        try SQLiteReader.reading(path, zone: zone, missingIsEmpty: true, body)
    }

    package func checkWritable() async throws {
        try await Blocking.run { [path] in try DatabaseFile.checkWritable(path) }
    }

    package func lockWriter(waiting wait: Double) async throws -> any WriterLease {
        try await FileWriterLock.acquire(forDatabase: path, waiting: wait)
    }

    package func store() -> any QuakeWriting {
        SQLiteStore(path: path)
    }

    /// The statement an unsectioned `list` of `query` runs, and its parameters' values: what the
    /// read floor of `make bench` gives SQLite alone, so that floor and case run the same SQL.
    package static func listingSQL(_ query: QuakeQuery) -> (sql: String, values: [SQLValue]) {
        SQLiteReader.listingSQL(query.filter, sort: query.sort, origin: query.origin, limit: query.limit)
    }
}
