import QuakesCore
import SQLite

/// The writes of the persistent history outside an ingest's batches (a prune, by the rule of
/// `IdentityRules.prune(before:at:in:dryRun:)`), and of the feed validators, on the store's
/// connection. The history of a write itself is kept by `SQLitePendingHistory`.
struct HistoryStatements: PruningStore {
    private let connection: Connection

    init(_ connection: Connection) throws {
        self.connection = connection
    }

    // MARK: - Prune

    func countEvents(before cutoff: Int64) throws -> Int {
        try count("SELECT count(*) FROM quake WHERE time < ?1", cutoff)
    }

    func deleteEvents(before cutoff: Int64, author: String, timestamp: Int64) throws -> Int64? {
        let history = try SQLitePendingHistory.begin(on: connection)
        try history.deleteEvents(olderThan: cutoff)
        return try history.record(author: author, source: nil, timestamp: timestamp).token
    }

    func forgetOwners(before cutoff: Int64) throws {
        try run("DELETE FROM identity WHERE time < ?1", cutoff)
    }

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
            INSERT INTO feed_state (url, etag, last_modified, fetched, checked, outcome, progress)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            ON CONFLICT (url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
                fetched = excluded.fetched, checked = excluded.checked, outcome = excluded.outcome,
                progress = excluded.progress
            """)
        try statement.bind(state.url, at: 1)
        try statement.bind(state.etag, at: 2)
        try statement.bind(state.lastModified, at: 3)
        try statement.bind(state.fetched, at: 4)
        try statement.bind(state.checked, at: 5)
        try statement.bind(state.outcome, at: 6)
        try statement.bind(state.progress, at: 7)
        try statement.run()
    }

    func feedState(for url: String) throws -> FeedState? {
        let statement = try connection.statement(
            "SELECT etag, last_modified, fetched, checked, outcome, progress FROM feed_state WHERE url = ?1")
        try statement.bind(url, at: 1)
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        return FeedState(
            url: url, etag: statement.string(at: 0), lastModified: statement.string(at: 1),
            fetched: statement.int64(at: 2) ?? 0, checked: statement.int64(at: 3), outcome: statement.string(at: 4),
            progress: statement.string(at: 5))
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
