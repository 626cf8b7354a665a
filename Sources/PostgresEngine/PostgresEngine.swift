import PostgreSQL
import QuakesCore

/// The PostgreSQL engine: a database on a server that several hosts share. It keeps the
/// `postgresql://` and `postgres://` URIs, handed to libpq as they are, so that
/// `?host=/run/postgresql`, `sslmode=` and the `PG*` variables work as libpq has them.
public struct PostgresEngine: StorageEngine {
    public init() {}

    package var description: EngineDescription { PostgresDatabase.engine }

    package func database(named value: String, in environment: Environment) -> (any DatabaseWriter)? {
        // A scheme is case-insensitive (RFC 3986), but libpq knows its own in lower case only and
        // would read `POSTGRESQL://…` as key=value settings, quoting it, password and all, in its
        // error: the scheme is handed over in lower case, the rest as it is.
        for scheme in ["postgresql://", "postgres://"] where value.utf8.count >= scheme.utf8.count {
            let prefix = value.prefix(scheme.count)
            if prefix.lowercased() == scheme {
                return PostgresDatabase(uri: scheme + value.dropFirst(scheme.count))
            }
        }
        return nil
    }
}

/// A PostgreSQL database, by its URI.
package struct PostgresDatabase: DatabaseWriter {
    package let uri: String
    package let name: String

    static let engine = EngineDescription(
        values: "postgresql://…",
        summary: "A PostgreSQL database that several hosts share, named by a postgresql:// or postgres:// URI "
            + "that libpq reads (passwords from ~/.pgpass); it announces every commit to watches.",
        kind: "a PostgreSQL database", suggestion: "a PostgreSQL database (--db postgresql://…)",
        capabilities: [.keepsHistory, .recordsChecks, .announcesCommits])

    package var engine: EngineDescription { Self.engine }

    package init(uri: String) {
        self.uri = uri
        name = PostgresConnection.redacted(uri: uri)
    }

    package func read<Result>(zone: DisplayZone, _ body: (any QuakeReading) throws -> Result) throws -> Result {
        do {
            return try body(try PostgresReader(uri: uri, name: name))
        } catch let error as PostgresError {
            throw StoreError(path: name, error)
        }
    }

    /// Nothing to check before the lock: the writer checks the schema when it connects, in a
    /// transaction.
    package func checkWritable() async throws {}

    package func lockWriter(waiting wait: Double) async throws -> any WriterLease {
        try await PostgresWriterLock.acquire(uri: uri, name: name, waiting: wait)
    }

    package func changeListener() async throws -> (any ChangeListener)? {
        try await PostgresChangeListener.listening(uri: uri, name: name)
    }

    package func store() -> any QuakeWriting {
        PostgresStore(uri: uri, name: name)
    }
}
