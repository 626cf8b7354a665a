import PostgreSQL
import QuakesCore

/// The history of the write still open, written straight into `history_change` under the token the
/// write will have when it commits, so that a fetch of a million events neither holds a million
/// entries in memory nor copies them from a table of their own at the end.
///
/// Writers take turns (the advisory lock, and the row lock on `history_state` that `begin` takes
/// and the commit keeps), so no other write can be given that token meanwhile, and readers, which
/// see only committed rows, never see the entries before their transaction. A write that changes
/// nothing records no transaction: its entries (only those of events that came and went within it)
/// are removed, and the token is left for the next write.
struct PostgresPendingHistory: PendingHistory {
    private let connection: PostgresConnection
    /// The token the write's transaction will have.
    let token: Int64

    init(_ connection: PostgresConnection, token: Int64) {
        self.connection = connection
        self.token = token
    }

    /// Begins the history of a write, in its transaction: the next token, its row locked until the
    /// transaction ends.
    static func begin(on connection: PostgresConnection) throws -> PostgresPendingHistory {
        let token =
            try connection.execute("SELECT last_token + 1 FROM history_state FOR UPDATE").int64(row: 0, column: 0) ?? 1
        return PostgresPendingHistory(connection, token: token)
    }

    /// Holds the deletion of every event older than `cutoff` and deletes them (a prune), in one
    /// statement: each id once, so none has an earlier entry, and the entry's columns come from the
    /// ledger's own.
    func deleteEvents(olderThan cutoff: Int64) throws {
        let deletion = HistoryLedger.Entry(id: "", existed: true, remains: false, mergedInto: nil)
        // The tombstones in SQL, in `FieldChange.storageText`'s form: the session prints a float
        // with every digit it needs (`extra_float_digits` 3), so each reads back as stored, unlike
        // SQLite's JSON functions (see its prune).
        let kept = FieldChange.tombstoneFields.map(\.name)
        let tombstone = kept.map { "'\($0)', json_build_array(\($0), NULL)" }.joined(separator: ", ")
        try connection.execute(
            """
            WITH deleted AS (DELETE FROM quake WHERE time < $1::bigint RETURNING id, \(kept.joined(separator: ", ")))
            INSERT INTO history_change (token, id, existed, remains, merged_into, change, fields)
            SELECT $2::bigint, id, $3::integer, $4::integer, NULL, $5::text, json_build_object(\(tombstone))::text
            FROM deleted
            """,
            [
                .integer(cutoff), .integer(token), .integer(deletion.existed ? 1 : 0),
                .integer(deletion.remains ? 1 : 0), deletion.change.map { .text($0.rawValue) },
            ])
    }

    /// An index probe for each id, as for the owners (see `PostgresBatchWrites.owners(of:)`).
    func entries(for ids: [String]) throws -> [String: HistoryLedger.Entry] {
        let result = try connection.executePrepared(
            """
            SELECT held.id, held.existed, held.remains, held.merged_into, held.fields
            FROM unnest($1::text[]) AS wanted (id)
            CROSS JOIN LATERAL (
                SELECT * FROM history_change WHERE history_change.token = $2::bigint AND history_change.id = wanted.id
            ) AS held
            """, [.text(PostgresStatement.arrayLiteral(ids)), .integer(token)])
        var found: [String: HistoryLedger.Entry] = [:]
        for row in 0..<result.rowCount {
            guard let id = result.string(row: row, column: 0) else { continue }
            found[id] = HistoryLedger.Entry(
                id: id, existed: result.int64(row: row, column: 1) == 1,
                remains: result.int64(row: row, column: 2) == 1,
                mergedInto: result.string(row: row, column: 3),
                fields: result.string(row: row, column: 4).flatMap(FieldChange.stored))
        }
        return found
    }

    /// A plain COPY: an entry saved twice without `replacing` naming it fails the write on the
    /// primary key rather than lose the first. Every entry is kept, even one whose event came and
    /// went (no change), so that a later batch follows it; the commit removes those. Sorted by id,
    /// as `PostgresBatchWrites.prepare` sends new rows (here on the flush's thread, while the
    /// server waits: a few hundred entries a batch).
    func save(_ entries: [HistoryLedger.Entry], replacing: Set<String>) throws {
        if !replacing.isEmpty {
            var statement = PostgresStatement()
            let ids = statement.bind(array: Array(replacing))
            let token = statement.bind(.integer(token), as: "bigint")
            try connection.execute(
                "DELETE FROM history_change WHERE token = \(token) AND id = ANY(\(ids))", statement.parameters)
        }
        var rows = PostgresCopyRows(
            for: "COPY history_change (token, id, existed, remains, merged_into, change, fields) FROM STDIN",
            format: .binary([.bigint, .text, .integer, .integer, .text, .text, .text]))
        for entry in entries.sorted(by: { $0.id < $1.id }) {
            try rows.appendRow { row throws(PostgresError) in
                try row.appendField(token)
                try row.appendField(entry.id)
                try row.appendField(Int64(entry.existed ? 1 : 0))
                try row.appendField(Int64(entry.remains ? 1 : 0))
                try row.appendField(entry.recordedMergedInto)
                try row.appendField(entry.change?.rawValue)
                try row.appendField(entry.storedFields.map(FieldChange.storageText))
            }
        }
        try connection.copy(encoded: rows)
    }

    /// Records the write as a history transaction of `author` and `source` at `timestamp`, when it
    /// changed an event, announced to every listener when the transaction commits; a write that
    /// changed none records nothing.
    func record(author: String, source: String?, timestamp: Int64) throws -> StoreCommit {
        var commit = StoreCommit(token: nil)
        let counts = try connection.execute(
            "SELECT change, count(*) FROM history_change WHERE token = $1::bigint GROUP BY change", [.integer(token)])
        var keptUnchanged = false
        for row in 0..<counts.rowCount {
            guard let change = counts.string(row: row, column: 0) else {
                keptUnchanged = true
                continue
            }
            guard let kind = HistoryChange.Kind(rawValue: change) else { continue }
            commit.add(counts.int(row: row, column: 1) ?? 0, of: kind)
        }
        // Another pass over the write's entries, which most writes do not need.
        if keptUnchanged {
            try connection.execute(
                "DELETE FROM history_change WHERE token = $1::bigint AND change IS NULL", [.integer(token)])
        }
        guard commit.inserted + commit.updated + commit.deleted > 0 else { return commit }
        commit.token = token
        try connection.execute("UPDATE history_state SET last_token = $1::bigint", [.integer(token)])
        try connection.execute(
            """
            INSERT INTO history_transaction (token, timestamp, author, source, inserted, updated, deleted)
            VALUES ($1::bigint, $2::bigint, $3::text, $4::text, $5::integer, $6::integer, $7::integer)
            """,
            [
                .integer(token), .integer(timestamp), .text(author), source.map(PostgresValue.text),
                .integer(Int64(commit.inserted)), .integer(Int64(commit.updated)), .integer(Int64(commit.deleted)),
            ])
        try connection.execute(
            "SELECT pg_notify($1::text, $2::text)", [.text(PostgresSchema.channel), .text(String(token))])
        return commit
    }
}
