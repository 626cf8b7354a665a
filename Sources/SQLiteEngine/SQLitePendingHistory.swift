import QuakesCore
import SQLite

/// The ledger entries of the write still open, in a temporary table of the write connection, so
/// that a fetch of a million events does not hold a million of them in memory. The table is part
/// of the write's transaction: a rollback empties it, `HistoryStatements.writePending` moves it into
/// the history and empties it before the commit, and every write begins by emptying it.
struct SQLitePendingHistory: PendingHistory {
    private let select: Statement
    private let insert: Statement
    private let delete: Statement

    /// Creates the table when the connection has none, and empties it: a write begins with no
    /// entries. Called at the start of every write, before its statements are prepared.
    static func prepare(on connection: Connection) throws {
        try connection.execute(
            """
            CREATE TEMP TABLE IF NOT EXISTS pending_change (
                id          TEXT    NOT NULL PRIMARY KEY,
                existed     INTEGER NOT NULL,
                remains     INTEGER NOT NULL,
                merged_into TEXT,
                change      TEXT
            ) STRICT, WITHOUT ROWID
            """)
        try connection.execute("DELETE FROM pending_change")
    }

    init(_ connection: Connection) throws {
        select = try connection.statement(
            """
            SELECT id, existed, remains, merged_into FROM pending_change
            WHERE id IN (SELECT value FROM json_each(?1))
            """)
        insert = try connection.statement(
            "INSERT INTO pending_change (id, existed, remains, merged_into, change) VALUES (?1, ?2, ?3, ?4, ?5)")
        delete = try connection.statement("DELETE FROM pending_change WHERE id = ?1")
    }

    func entries(for ids: [String]) throws -> [String: HistoryLedger.Entry] {
        try select.bind(IngestStatements.jsonArray(ids), at: 1)
        defer { select.reset() }
        var found: [String: HistoryLedger.Entry] = [:]
        while try select.step() {
            guard let id = select.string(at: 0) else { continue }
            found[id] = HistoryLedger.Entry(
                id: id, existed: select.int64(at: 1) == 1, remains: select.int64(at: 2) == 1,
                mergedInto: select.string(at: 3))
        }
        return found
    }

    /// A plain insert: an entry saved twice without `replacing` naming it fails the write rather
    /// than lose the first.
    func save(_ entries: [HistoryLedger.Entry], replacing: Set<String>) throws {
        for id in replacing {
            try delete.bind(id, at: 1)
            try delete.run()
        }
        for entry in entries {
            try insert.bind(entry.id, at: 1)
            try insert.bind(entry.existed ? 1 : 0, at: 2)
            try insert.bind(entry.remains ? 1 : 0, at: 3)
            try insert.bind(entry.recordedMergedInto, at: 4)
            try insert.bind(entry.change?.rawValue, at: 5)
            try insert.run()
        }
    }

    /// Holds the deletion of every event older than `cutoff` (a prune), in one statement: each id
    /// once, so none has an earlier entry, and the entry's columns come from the ledger's own.
    static func saveDeletions(olderThan cutoff: Int64, on connection: Connection) throws {
        let deletion = HistoryLedger.Entry(id: "", existed: true, remains: false, mergedInto: nil)
        let statement = try connection.statement(
            """
            INSERT INTO pending_change (id, existed, remains, merged_into, change)
            SELECT id, ?2, ?3, NULL, ?4 FROM quake WHERE time < ?1
            """)
        try statement.bind([
            .integer(cutoff), .integer(deletion.existed ? 1 : 0), .integer(deletion.remains ? 1 : 0),
            deletion.change.map { .text($0.rawValue) } ?? .null,
        ])
        try statement.run()
    }
}
