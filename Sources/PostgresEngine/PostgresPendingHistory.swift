import PostgreSQL
import QuakesCore

/// The ledger entries of the write still open, in a temporary table of the session, so that a
/// fetch of a million events does not hold a million of them in memory. The table is part of the
/// write's transaction: a rollback empties it, the store moves it into the history and empties it
/// before the commit, and every write begins by emptying it.
struct PostgresPendingHistory: PendingHistory {
    private let connection: PostgresConnection

    init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// Creates the session's table, once, when the connection opens.
    static func createTable(on connection: PostgresConnection) throws {
        try connection.execute(
            """
            CREATE TEMPORARY TABLE IF NOT EXISTS pending_change (
                id          text COLLATE "C" NOT NULL PRIMARY KEY,
                existed     integer NOT NULL,
                remains     integer NOT NULL,
                merged_into text COLLATE "C",
                change      text COLLATE "C"
            )
            """)
    }

    /// Empties the table: a write begins with no entries.
    static func empty(on connection: PostgresConnection) throws {
        try connection.execute("TRUNCATE pending_change")
    }

    /// Holds the deletion of every event older than `cutoff` and deletes them (a prune), in one
    /// statement: each id once, so none has an earlier entry, and the entry's columns come from the
    /// ledger's own.
    static func deleteEvents(olderThan cutoff: Int64, on connection: PostgresConnection) throws {
        let deletion = HistoryLedger.Entry(id: "", existed: true, remains: false, mergedInto: nil)
        try connection.execute(
            """
            WITH deleted AS (DELETE FROM quake WHERE time < $1::bigint RETURNING id)
            INSERT INTO pending_change (id, existed, remains, merged_into, change)
            SELECT id, $2::integer, $3::integer, NULL, $4::text FROM deleted
            """,
            [
                .integer(cutoff), .integer(deletion.existed ? 1 : 0), .integer(deletion.remains ? 1 : 0),
                deletion.change.map { .text($0.rawValue) },
            ])
    }

    /// An index probe for each id, as for the owners (see `PostgresBatchWrites.owners(of:)`).
    func entries(for ids: [String]) throws -> [String: HistoryLedger.Entry] {
        let result = try connection.executePrepared(
            """
            SELECT held.id, held.existed, held.remains, held.merged_into
            FROM unnest($1::text[]) AS wanted (id)
            CROSS JOIN LATERAL (SELECT * FROM pending_change WHERE pending_change.id = wanted.id LIMIT 1) AS held
            """, [.text(PostgresStatement.arrayLiteral(ids))])
        var found: [String: HistoryLedger.Entry] = [:]
        for row in 0..<result.rowCount {
            guard let id = result.string(row: row, column: 0) else { continue }
            found[id] = HistoryLedger.Entry(
                id: id, existed: result.int64(row: row, column: 1) == 1,
                remains: result.int64(row: row, column: 2) == 1,
                mergedInto: result.string(row: row, column: 3))
        }
        return found
    }

    /// A plain COPY: an entry saved twice without `replacing` naming it fails the write on the
    /// primary key rather than lose the first.
    func save(_ entries: [HistoryLedger.Entry], replacing: Set<String>) throws {
        // By the primary key, one at a time: the table has no statistics for the planner, and ids
        // changed in two batches of one write are few.
        for id in replacing {
            try connection.executePrepared("DELETE FROM pending_change WHERE id = $1::text", [.text(id)])
        }
        try connection.copy(
            "COPY pending_change (id, existed, remains, merged_into, change) FROM STDIN",
            rows: entries.lazy.map { entry in
                [
                    .text(entry.id), .integer(entry.existed ? 1 : 0), .integer(entry.remains ? 1 : 0),
                    entry.recordedMergedInto.map(PostgresValue.text), entry.change.map { .text($0.rawValue) },
                ]
            })
    }
}
