import SQLite

/// A read-only connection to the database, for the query side.
///
/// Reading never waits for a fetch and never sees half of one: in WAL mode a reader sees the
/// database as of its last committed transaction. Not `Sendable`: one owner uses it at a time.
public final class QuakeReader {
    let connection: Connection

    /// Opens the database at `path`, which must exist.
    public init(path: String) throws(StoreError) {
        connection = try DatabaseFile.openForReading(at: path)
    }

    /// The number of stored events.
    public func count() throws -> Int {
        let statement = try connection.statement("SELECT count(*) FROM quake")
        _ = try statement.step()
        return statement.int(at: 0) ?? 0
    }

    /// The event stored under `id`, or nil.
    public func quake(id: String) throws -> Quake? {
        let statement = try connection.statement("SELECT \(QuakeColumns.list) FROM quake WHERE id = ?1")
        try statement.bind(id, at: 1)
        return try statement.step() ? QuakeColumns.quake(from: statement) : nil
    }

    /// Every stored event, by id.
    public func allQuakes() throws -> [Quake] {
        let statement = try connection.statement("SELECT \(QuakeColumns.list) FROM quake ORDER BY id")
        var quakes: [Quake] = []
        while try statement.step() { quakes.append(QuakeColumns.quake(from: statement)) }
        return quakes
    }
}
