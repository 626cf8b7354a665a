import PostgreSQL
import QuakesCore

/// A prune's reads and writes on the store's connection, in its transaction, by the rule of
/// `IdentityRules.prune(before:at:in:dryRun:)`.
struct PostgresPruning: PruningStore {
    let connection: PostgresConnection

    func countEvents(before cutoff: Int64) throws -> Int {
        try count("SELECT count(*) FROM quake WHERE time < $1::bigint", cutoff)
    }

    func countTombstones(before cutoff: Int64) throws -> Int {
        try count("SELECT count(*) FROM identity WHERE id = event AND deleted = 1 AND time < $1::bigint", cutoff)
    }

    func deleteEvents(before cutoff: Int64, author: String, timestamp: Int64) throws -> Int64? {
        let history = try PostgresPendingHistory.begin(on: connection)
        try history.deleteEvents(olderThan: cutoff)
        return try history.record(author: author, source: nil, timestamp: timestamp).token
    }

    func forgetOwners(before cutoff: Int64) throws {
        try connection.execute("DELETE FROM identity WHERE time < $1::bigint", [.integer(cutoff)])
    }

    /// The count `sql` gives with `value` as its one parameter.
    func count(_ sql: String, _ value: Int64) throws -> Int {
        try connection.execute(sql, [.integer(value)]).int(row: 0, column: 0) ?? 0
    }
}
