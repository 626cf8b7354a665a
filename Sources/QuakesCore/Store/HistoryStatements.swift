import SQLite

/// The writes of the persistent history and of the feed validators, on the store's connection.
///
/// A history transaction is opened with a token, collects one row per changed event id (the first
/// change sets `existed`, the last sets `remains`, so an event inserted then updated in one fetch is
/// one insert), and is closed with its net counts, or dropped when nothing changed.
struct HistoryStatements {
    private let connection: Connection

    init(_ connection: Connection) throws {
        self.connection = connection
    }

    /// Records a change of an event: `?1` token, `?2` id, `?3` existed before, `?4` remains after,
    /// `?5` the event it was merged into.
    static let recordChangeSQL = """
        INSERT INTO history_change (token, id, existed, remains, merged_into) VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT (token, id) DO UPDATE SET remains = excluded.remains, merged_into = excluded.merged_into
        """

    /// Opens a history transaction and returns its token; its time is set when it closes.
    func beginTransaction(author: String, source: String?) throws -> Int64 {
        let statement = try connection.statement(
            "INSERT INTO history_transaction (timestamp, author, source) VALUES (0, ?1, ?2) RETURNING token")
        try statement.bind(author, at: 1)
        try statement.bind(source, at: 2)
        defer { statement.reset() }
        guard try statement.step(), let token = statement.int64(at: 0) else {
            throw SQLiteError(code: 1, message: "no token for the history transaction")
        }
        while try statement.step() {}
        return token
    }

    /// Turns the transaction's changes into inserts, updates and deletes, and closes it at
    /// `timestamp`; a transaction that changed nothing is dropped (its token is never reused).
    func finishTransaction(_ token: Int64, timestamp: Int64) throws -> QuakeStore.Commit {
        try run("DELETE FROM history_change WHERE token = ?1 AND existed = 0 AND remains = 0", token)
        try run(
            """
            UPDATE history_change
            SET change = CASE WHEN existed = 0 THEN 'insert' WHEN remains = 0 THEN 'delete' ELSE 'update' END,
                merged_into = CASE WHEN remains = 0 THEN merged_into END
            WHERE token = ?1
            """, token)
        let counts = try connection.statement(
            """
            SELECT count(*) FILTER (WHERE change = 'insert'), count(*) FILTER (WHERE change = 'update'),
                   count(*) FILTER (WHERE change = 'delete')
            FROM history_change WHERE token = ?1
            """)
        try counts.bind(token, at: 1)
        _ = try counts.step()
        let commit = QuakeStore.Commit(
            token: token, inserted: counts.int(at: 0) ?? 0, updated: counts.int(at: 1) ?? 0,
            deleted: counts.int(at: 2) ?? 0)
        counts.reset()
        guard commit.inserted + commit.updated + commit.deleted > 0 else {
            try run("DELETE FROM history_transaction WHERE token = ?1", token)
            return QuakeStore.Commit(token: nil)
        }
        let close = try connection.statement(
            """
            UPDATE history_transaction SET timestamp = ?2, inserted = ?3, updated = ?4, deleted = ?5 WHERE token = ?1
            """)
        try close.bind([
            .integer(token), .integer(timestamp), .integer(Int64(commit.inserted)),
            .integer(Int64(commit.updated)), .integer(Int64(commit.deleted)),
        ])
        try close.run()
        return commit
    }

    // MARK: - Prune

    func countEvents(before cutoff: Int64) throws -> Int {
        try count("SELECT count(*) FROM quake WHERE time < ?1", cutoff)
    }

    /// Deletes the events older than `cutoff`, recording each as a delete in the transaction
    /// `token` (when there is one), and forgets every id whose newest version is that old
    /// (tombstones among them): a copy of them fetched again is new.
    func deleteEvents(before cutoff: Int64, token: Int64?) throws {
        if let token {
            try run(
                """
                INSERT INTO history_change (token, id, existed, remains) SELECT ?2, id, 1, 0 FROM quake WHERE time < ?1
                """, cutoff, token)
        }
        try run("DELETE FROM quake WHERE time < ?1", cutoff)
        try run("DELETE FROM identity WHERE time < ?1", cutoff)
    }

    /// How many tombstones are older than `cutoff`.
    func countTombstones(before cutoff: Int64) throws -> Int {
        try count("SELECT count(*) FROM identity WHERE id = event AND deleted = 1 AND time < ?1", cutoff)
    }

    func countTransactions(before cutoff: Int64) throws -> Int {
        try count("SELECT count(*) FROM history_transaction WHERE timestamp < ?1", cutoff)
    }

    /// Drops the history transactions closed before `cutoff`, and their changes.
    func deleteTransactions(before cutoff: Int64) throws {
        try run(
            "DELETE FROM history_change WHERE token IN (SELECT token FROM history_transaction WHERE timestamp < ?1)",
            cutoff)
        try run("DELETE FROM history_transaction WHERE timestamp < ?1", cutoff)
    }

    // MARK: - Feed validators

    /// Saves what is known of a source: its validators and its last successful fetch.
    func save(_ state: FeedState) throws {
        let statement = try connection.statement(
            """
            INSERT INTO feed_state (url, etag, last_modified, fetched, checked, outcome) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT (url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
                fetched = excluded.fetched, checked = excluded.checked, outcome = excluded.outcome
            """)
        try statement.bind(state.url, at: 1)
        try statement.bind(state.etag, at: 2)
        try statement.bind(state.lastModified, at: 3)
        try statement.bind(state.fetched, at: 4)
        try statement.bind(state.checked, at: 5)
        try statement.bind(state.outcome, at: 6)
        try statement.run()
    }

    func feedState(for url: String) throws -> FeedState? {
        let statement = try connection.statement(
            "SELECT etag, last_modified, fetched, checked, outcome FROM feed_state WHERE url = ?1")
        try statement.bind(url, at: 1)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return FeedState(
            url: url, etag: statement.string(at: 0), lastModified: statement.string(at: 1),
            fetched: statement.int64(at: 2) ?? 0, checked: statement.int64(at: 3), outcome: statement.string(at: 4))
    }

    // MARK: - Private

    private func run(_ sql: String, _ parameters: Int64...) throws {
        let statement = try connection.statement(sql)
        try statement.bind(parameters.map(SQLValue.integer))
        try statement.run()
    }

    private func count(_ sql: String, _ parameter: Int64) throws -> Int {
        let statement = try connection.statement(sql)
        try statement.bind(parameter, at: 1)
        defer { statement.reset() }
        _ = try statement.step()
        return statement.int(at: 0) ?? 0
    }
}

/// The history transaction of one ingest, opened at its first change, so that an ingest that changes
/// nothing leaves no trace. Not `Sendable`: the store actor owns it.
final class HistoryRecorder {
    private let connection: Connection
    private let author: String
    private let source: String?
    /// The transaction's token, once something changed.
    private(set) var token: Int64?
    private var recordChange: Statement?

    init(connection: Connection, author: String, source: String?) {
        self.connection = connection
        self.author = author
        self.source = source
    }

    /// Notes a change of event `id`: whether it existed before the change, and remains after it, and
    /// the event it was merged into.
    func record(_ id: String, existed: Bool, remains: Bool, mergedInto: String? = nil) throws {
        let token = try self.token ?? HistoryStatements(connection).beginTransaction(author: author, source: source)
        self.token = token
        let statement = try recordChange ?? connection.statement(HistoryStatements.recordChangeSQL)
        recordChange = statement
        try statement.bind(token, at: 1)
        try statement.bind(id, at: 2)
        try statement.bind(existed ? 1 : 0, at: 3)
        try statement.bind(remains ? 1 : 0, at: 4)
        try statement.bind(mergedInto, at: 5)
        try statement.run()
    }
}
