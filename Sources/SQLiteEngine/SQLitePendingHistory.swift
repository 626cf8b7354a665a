import QuakesCore
import SQLite

/// The history of the write still open, written straight into `history_change` under the token the
/// write will have when it commits, as the PostgreSQL engine does: a fetch of a million events
/// neither holds a million entries in memory nor copies them from a table of their own at the end
/// (which cost a temporary B-tree of every entry, its copy and its deletion).
///
/// The token is the one `AUTOINCREMENT` would give next (`sqlite_sequence` never goes back, even
/// after history is pruned), and no other write can take it meanwhile: a write holds SQLite's write
/// lock from its `BEGIN IMMEDIATE` to its end. Readers see only committed rows, so never the entries
/// before their transaction. A write that changes nothing records no transaction: its entries (only
/// those of events that came and went within it) are removed, and the token is left for the next.
struct SQLitePendingHistory: PendingHistory {
    private let connection: Connection
    /// The token the write's transaction will have.
    let token: Int64
    /// The text of the entries being saved, bound in place.
    private let arena = TextArena()
    /// The entries held so far, by kind.
    private let tally = EntryTally()

    init(_ connection: Connection, token: Int64) {
        self.connection = connection
        self.token = token
    }

    /// Begins the history of a write, in its transaction (begun IMMEDIATE): the next token.
    static func begin(on connection: Connection) throws -> SQLitePendingHistory {
        let next = try connection.statement(
            """
            SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'history_transaction'), 0),
                coalesce((SELECT max(token) FROM history_transaction), 0)) + 1
            """)
        defer { next.reset() }
        guard try next.step(), let token = next.int64(at: 0) else {
            throw SQLiteError(code: 1, message: "no next history token")
        }
        return SQLitePendingHistory(connection, token: token)
    }

    func entries(for ids: [String]) throws -> [String: HistoryLedger.Entry] {
        let select = try connection.statement(
            """
            SELECT id, existed, remains, merged_into, fields FROM history_change
            WHERE token = ?1 AND id IN (SELECT value FROM json_each(?2))
            """)
        try select.bind(token, at: 1)
        try select.bind(IngestStatements.jsonArray(ids), at: 2)
        defer { select.reset() }
        var found: [String: HistoryLedger.Entry] = [:]
        while try select.step() {
            guard let id = select.string(at: 0) else { continue }
            found[id] = HistoryLedger.Entry(
                id: id, existed: select.int64(at: 1) == 1, remains: select.int64(at: 2) == 1,
                mergedInto: select.string(at: 3), fields: select.string(at: 4).flatMap(FieldChange.stored))
        }
        return found
    }

    /// A plain insert, many entries to a statement: an entry saved twice without `replacing`
    /// naming it fails the write on the primary key rather than lose the first. Every entry is
    /// kept, even one whose event came and went (no change), so that a later batch follows it;
    /// `record` removes those.
    func save(_ entries: [HistoryLedger.Entry], replacing: Set<String>) throws {
        do {
            try hold(entries, replacing: replacing)
        } catch {
            // Some entries may be counted and not held: should the write still commit, `record`
            // counts what is held.
            tally.isKnown = false
            throw error
        }
    }

    private func hold(_ entries: [HistoryLedger.Entry], replacing: Set<String>) throws {
        if !replacing.isEmpty {
            let delete = try connection.statement(
                "DELETE FROM history_change WHERE token = ?1 AND id = ?2 RETURNING change")
            try delete.bind(token, at: 1)
            defer { delete.reset() }
            for id in replacing {
                try delete.bind(id, at: 2)
                while try delete.step() { tally.count(delete.string(at: 0).flatMap(HistoryChange.Kind.init), -1) }
                delete.reset()
            }
        }
        var insert = MultiRowInsert<HistoryLedger.Entry>(Self.insertSQL) { [token] entry, statement, first, arena in
            try statement.bind(token, at: first)
            try statement.bind(unownedText: arena.store(entry.id), at: first + 1)
            if let change = entry.change {
                try statement.bind(unownedText: arena.store(change.rawValue), at: first + 2)
            } else {
                try statement.bindNull(at: first + 2)
            }
            try statement.bind(entry.existed ? 1 : 0, at: first + 3)
            try statement.bind(entry.remains ? 1 : 0, at: first + 4)
            if let mergedInto = entry.recordedMergedInto {
                try statement.bind(unownedText: arena.store(mergedInto), at: first + 5)
            } else {
                try statement.bindNull(at: first + 5)
            }
            if let fields = entry.storedFields {
                try statement.bind(unownedText: arena.store(FieldChange.storageText(fields)), at: first + 6)
            } else {
                try statement.bindNull(at: first + 6)
            }
        }
        for entry in entries {
            tally.count(entry.change, 1)
            try insert.append(entry, on: connection, arena: arena)
        }
        try insert.flush(on: connection, arena: arena)
    }

    private static let insertSQL = MultiRowInsert<HistoryLedger.Entry>.SQL(columns: 7) { values in
        "INSERT INTO history_change (token, id, change, existed, remains, merged_into, fields) VALUES \(values)"
    }

    /// Holds the deletion of every event older than `cutoff`, with its tombstone, and deletes them
    /// (a prune): each id once, so none has an earlier entry. The tombstones are written in Swift,
    /// a chunk at a time, as every other entry's fields are: SQLite's JSON functions print a real
    /// with 15 digits, which does not always read back as the stored number.
    func deleteEvents(olderThan cutoff: Int64) throws {
        let kept = FieldChange.tombstoneFields
        let select = try connection.statement(
            "SELECT id, \(kept.map(\.name).joined(separator: ", ")) FROM quake WHERE time < ?1")
        try select.bind(cutoff, at: 1)
        defer { select.reset() }
        var chunk: [HistoryLedger.Entry] = []
        while try select.step() {
            guard let id = select.string(at: 0) else { continue }
            let tombstone = kept.enumerated().map { index, field in
                let column = Int32(index + 1)
                let value: QuakeField.Value? =
                    switch field.kind {
                    case .text: select.string(at: column).map(QuakeField.Value.text)
                    case .integer: select.int64(at: column).map(QuakeField.Value.integer)
                    case .real: select.double(at: column).map(QuakeField.Value.real)
                    }
                return FieldChange(field: field, old: value, new: nil)
            }
            chunk.append(HistoryLedger.Entry(id: id, existed: true, remains: false, mergedInto: nil, fields: tombstone))
            if chunk.count == 10_000 {
                try save(chunk, replacing: [])
                chunk = []
            }
        }
        try save(chunk, replacing: [])
        let delete = try connection.statement("DELETE FROM quake WHERE time < ?1")
        try delete.bind(cutoff, at: 1)
        try delete.run()
    }

    /// Records the write as a history transaction of `author` from `source` at `timestamp`, when it
    /// changed an event; a write that changed none records nothing.
    func record(author: String, source: String?, timestamp: Int64) throws -> StoreCommit {
        if !tally.isKnown || tally.unchanged > 0 {
            let dropUnchanged = try connection.statement(
                "DELETE FROM history_change WHERE token = ?1 AND change IS NULL")
            try dropUnchanged.bind(token, at: 1)
            try dropUnchanged.run()
        }
        var commit = tally.isKnown ? tally.counts : try countHeld()
        assert(commit == (try? countHeld()), "the tally of the history's entries is not what it holds")
        guard commit.inserted + commit.updated + commit.deleted > 0 else { return commit }
        commit.token = token
        let transaction = try connection.statement(
            """
            INSERT INTO history_transaction (token, timestamp, author, source, inserted, updated, deleted)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        try transaction.bind([
            .integer(token), .integer(timestamp), .text(author), source.map(SQLValue.text) ?? .null,
            .integer(Int64(commit.inserted)), .integer(Int64(commit.updated)), .integer(Int64(commit.deleted)),
        ])
        try transaction.run()
        return commit
    }

    /// The changes held, counted by kind: each entry read again, where the tally has them already.
    private func countHeld() throws -> StoreCommit {
        var commit = StoreCommit(token: nil)
        let counts = try connection.statement(
            "SELECT change, count(*) FROM history_change WHERE token = ?1 GROUP BY change")
        try counts.bind(token, at: 1)
        defer { counts.reset() }
        while try counts.step() {
            guard let kind = counts.string(at: 0).flatMap(HistoryChange.Kind.init) else { continue }
            commit.add(counts.int(at: 1) ?? 0, of: kind)
        }
        return commit
    }
}

/// The entries a write's history holds, by kind, counted as they are saved and replaced: counting
/// them again at the commit read every entry of the write a second time (a quarter of a fresh
/// ingest's commit, 20,000 features).
///
/// Not `Sendable`: it belongs to the store actor, like the history it counts.
private final class EntryTally {
    /// The inserts, updates and deletes held.
    var counts = StoreCommit(token: nil)
    /// The entries of events that came and went within the write, which `record` removes.
    var unchanged = 0
    /// False once a save failed part way, so that `record` counts what is held.
    var isKnown = true

    /// Counts `sign` (1 or -1) more entries of `kind`, nil for an event that came and went.
    func count(_ kind: HistoryChange.Kind?, _ sign: Int) {
        if let kind { counts.add(sign, of: kind) } else { unchanged += sign }
    }
}
