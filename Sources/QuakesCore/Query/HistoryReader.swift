import SQLite

/// One write that changed the store, as the persistent history records it.
public struct HistoryTransaction: Sendable, Equatable {
    /// Strictly increasing, never reused, even after history is pruned.
    public var token: Int64
    /// When the transaction committed, in milliseconds since 1970 UTC.
    public var timestamp: Int64
    /// `fetch` (or a fetch's `--author`), `watch` or `prune`.
    public var author: String
    /// The URL a fetch read; nil for a prune.
    public var source: String?
    public var inserted: Int
    public var updated: Int
    public var deleted: Int
    /// Every changed event id and how it changed, when asked for.
    public var changes: [HistoryChange]?
}

/// How one event changed in a transaction. An event re-identified under a new id is a delete of the
/// old id and an insert (or update) of the new one.
public struct HistoryChange: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case insert, update, delete
    }

    public var id: String
    public var kind: Kind
    /// For a delete: the event that absorbed this one, when it was re-identified (another version
    /// named this id as its own).
    public var mergedInto: String?
}

/// Reads the persistent history on a read-only connection. Not `Sendable`: it owns the connection.
final class HistoryReader {
    private let connection: Connection

    init(path: String) throws {
        connection = try DatabaseFile.openForReading(at: path)
        try connection.begin(.deferred)  // One snapshot for the whole listing.
    }

    deinit {
        try? connection.rollback()
    }

    /// The transactions after `token` (exclusive), oldest first, by `author` when given, with their
    /// changes when asked for; `body` returns false to stop.
    func forEachTransaction(
        after token: Int64, author: String?, withChanges: Bool,
        _ body: (HistoryTransaction) throws -> Bool
    ) throws {
        let statement = try connection.prepare(
            """
            SELECT token, timestamp, author, source, inserted, updated, deleted FROM history_transaction
            WHERE token > ?1 AND (?2 IS NULL OR author = ?2) ORDER BY token
            """)
        try statement.bind(token, at: 1)
        try statement.bind(author, at: 2)
        let changes = try connection.prepare(
            "SELECT id, change, merged_into FROM history_change WHERE token = ?1 ORDER BY id")
        while try statement.step() {
            var transaction = HistoryTransaction(
                token: statement.int64(at: 0) ?? 0, timestamp: statement.int64(at: 1) ?? 0,
                author: statement.string(at: 2) ?? "", source: statement.string(at: 3),
                inserted: statement.int(at: 4) ?? 0, updated: statement.int(at: 5) ?? 0,
                deleted: statement.int(at: 6) ?? 0)
            if withChanges {
                changes.reset()
                try changes.bind(transaction.token, at: 1)
                var list: [HistoryChange] = []
                while try changes.step() {
                    guard let id = changes.string(at: 0),
                        let kind = changes.string(at: 1).flatMap(HistoryChange.Kind.init)
                    else { continue }
                    list.append(HistoryChange(id: id, kind: kind, mergedInto: changes.string(at: 2)))
                }
                transaction.changes = list
            }
            guard try body(transaction) else { return }
        }
    }

    /// The newest token ever issued, 0 before the first; pruned history does not lower it.
    func lastToken() throws -> Int64 {
        try Self.lastToken(on: connection)
    }

    /// The newest token ever issued in the database of `connection`.
    static func lastToken(on connection: Connection) throws -> Int64 {
        let statement = try connection.prepare(
            """
            SELECT max(coalesce((SELECT max(token) FROM history_transaction), 0),
                       coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'history_transaction'), 0))
            """)
        _ = try statement.step()
        return statement.int64(at: 0) ?? 0
    }

    /// Opens a reader on `path` and runs `body`, reporting SQLite's errors as the database file's.
    static func reading<Result>(_ path: String, _ body: (HistoryReader) throws -> Result) throws -> Result {
        do {
            return try body(try HistoryReader(path: path))
        } catch let error as SQLiteError {
            throw StoreError(path: path, error)
        }
    }
}
