import Dispatch
import PostgreSQL
import QuakesCore

/// The PostgreSQL engine's writer: the one owner of this process's write connection.
///
/// Like `SQLiteStore`, it runs on a dispatch queue of its own, so libpq's blocking calls never hold
/// a thread of the cooperative pool. A fetch of one source is one transaction. Each batch is
/// decided in Swift by `IdentityRules`, over the owners of every id it names (read by one query),
/// and the decided rows are moved in bulk (see `PostgresBatchWrites`): COPY straight into the tables
/// for rows the database did not hold, through staging tables and one upsert per table for the
/// others. A batch is written on a queue of its own while the next is decided (`PostgresFlush`),
/// and a load into an empty `quake` builds its secondary indexes at the commit
/// (`PostgresDeferredIndexes`). Writers on every host serialise on an advisory lock
/// (`PostgresWriterLock`), so history tokens, taken in the writing transaction from
/// `history_state`, increase in commit order.
public actor PostgresStore: QuakeWriting {
    private let uri: String
    /// The URI without its password, for messages.
    private let name: String
    private let executor = QueueExecutor(label: "quakes.postgres")
    private var openConnection: PostgresConnection?
    /// The last batch of the active ingest, decided but not yet written: it is written while the
    /// next batch is decided (`PostgresFlush`), or at the commit.
    private var unflushed: PostgresBatchWrites?
    /// The last flush queued: the batch being written, or waiting behind `queuedAhead` to be, which
    /// may still be when `ingest` returns, so that the server works on it while the next batch
    /// comes. The connection is the flushes' until it ends (see `connection()`), and the flushes
    /// queued before it end before it does.
    private var inFlight: PostgresFlush?
    /// The flush queued before `inFlight`, which the server may still be on: the next batch waits
    /// for it, so that at most one flush waits behind the one the server is on.
    private var queuedAhead: PostgresFlush?
    /// Where batches are written while the store decides the next (see `PostgresFlush`).
    private let flushQueue = DispatchQueue(label: "quakes.postgres.flush")

    /// The active ingest, with who its history is by and from where, the history its batches
    /// write, recorded as a transaction when it commits, the indexes it builds at the end, and, in
    /// a first load, the ids it has given owners.
    private let turns = WriterTurns<
        (
            author: String, source: String?, history: PostgresPendingHistory, indexes: PostgresDeferredIndexes,
            fresh: FreshIdentities?
        )
    >()

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    public nonisolated var companionExecutor: any TaskExecutor {
        executor.companion
    }

    init(uri: String, name: String) {
        self.uri = uri
        self.name = name
    }

    public func open() throws(StoreError) {
        _ = try connection()
    }

    // MARK: - Ingest transactions

    public func beginIngest(author: String, source: String?) async throws(StoreError) -> IngestTicket {
        let ticket = await turns.take()
        // Nothing of an earlier ingest may reach this one (`commit` and `rollback` clear them).
        unflushed = nil
        try? endFlush()
        do {
            let connection = try beginTransaction()
            let history = try PostgresPendingHistory.begin(on: connection)
            let indexes = try PostgresDeferredIndexes.settingAside(on: connection)
            let fresh = try PostgresBatchWrites.startsFresh(on: connection)
            turns.begin(ticket, (author, source, history, indexes, fresh))
            return ticket
        } catch {
            _ = try? openConnection?.execute("ROLLBACK")
            turns.end(ticket)
            throw StoreError(path: name, error)
        }
    }

    public func ingest(_ batch: IngestBatch, for ticket: IngestTicket) throws(StoreError) -> IngestOutcome {
        let active = try turns.context(of: ticket, in: name)
        do {
            // Not `connection()`, which would wait for the batch in flight: `loadOwners` does only
            // when it must read from the server. A flush that has already failed ends the ingest.
            let connection = try openConnection ?? connection()
            // More flushes queued would let deciding run ahead and take the server's core.
            try queuedAhead?.finish()
            queuedAhead = nil
            try inFlight?.throwIfFailed()
            var writes = PostgresBatchWrites(connection: connection, history: active.history)
            // The owners are read before the previous batch is written, which then happens while
            // this one is decided, and after.
            var owners = try writes.loadOwners(
                of: batch, amongFresh: active.fresh, flushingMeanwhile: unflushed, after: inFlight, on: flushQueue)
            unflushed = nil
            if let flush = writes.previousFlush {
                queuedAhead = inFlight
                inFlight = flush
            }
            let outcome = try IdentityRules.apply(batch, owners: &owners, to: &writes)
            // Noted here, not by the writes, which their flush takes to another thread.
            if let fresh = active.fresh { for id in writes.ownedIDs { fresh.insert(id) } }
            try writes.prepare()
            unflushed = writes
            return outcome
        } catch {
            throw StoreError(path: name, error)
        }
    }

    public func commit(_ ticket: IngestTicket, timestamp: Int64, feedState: FeedState?) throws(StoreError)
        -> StoreCommit
    {
        let active = try turns.context(of: ticket, in: name)
        defer { turns.end(ticket) }
        // The ingest's last batch goes with it, whether it commits or not.
        let last = unflushed
        unflushed = nil
        do {
            let connection = try connection()
            try endFlush()
            if var last { try last.flush() }
            try active.indexes.build(on: connection)
            let commit = try active.history.record(author: active.author, source: active.source, timestamp: timestamp)
            if let feedState { try Self.save(feedState, on: connection) }
            try connection.commit()
            return commit
        } catch {
            inFlight = nil
            queuedAhead = nil
            _ = try? openConnection?.execute("ROLLBACK")
            throw StoreError(path: name, error)
        }
    }

    public func rollback(_ ticket: IngestTicket) {
        guard turns.holds(ticket) else { return }
        try? endFlush()
        unflushed = nil
        _ = try? openConnection?.execute("ROLLBACK")
        turns.end(ticket)
    }

    // MARK: - Other writes

    public func save(_ feedState: FeedState) async throws(StoreError) {
        try await exclusively { connection in try Self.save(feedState, on: connection) }
    }

    public func feedState(for url: String) throws(StoreError) -> FeedState? {
        do {
            // A write holding the turn has a transaction open, which a new session would lose.
            guard !turns.isHeld else { return try Self.feedState(for: url, on: try connection()) }
            // Else on a new session if the server restarted: a watch of a URL reads this first, and
            // would otherwise fail every pass.
            return try onLiveSession { connection throws(PostgresError) in
                try Self.feedState(for: url, on: connection)
            }
        } catch {
            throw StoreError(path: name, error)
        }
    }

    private static func feedState(for url: String, on connection: PostgresConnection) throws(PostgresError)
        -> FeedState?
    {
        let result = try connection.executePrepared(
            "SELECT etag, last_modified, fetched, checked, outcome, progress FROM feed_state WHERE url = $1::text",
            [.text(url)])
        guard result.rowCount > 0 else { return nil }
        return FeedState(
            url: url, etag: result.string(row: 0, column: 0), lastModified: result.string(row: 0, column: 1),
            fetched: result.int64(row: 0, column: 2) ?? 0, checked: result.int64(row: 0, column: 3),
            outcome: result.string(row: 0, column: 4), progress: result.string(row: 0, column: 5))
    }

    public func prune(
        eventsBefore cutoff: Int64?, historyBefore historyCutoff: Int64?, timestamp: Int64, dryRun: Bool
    ) async throws(StoreError) -> PruneResult {
        try await exclusively(committing: !dryRun) { connection in
            var result = PruneResult()
            var pruning = PostgresPruning(connection: connection)
            if let cutoff {
                result = try IdentityRules.prune(before: cutoff, at: timestamp, in: &pruning, dryRun: dryRun)
            }
            if let historyCutoff {
                result.transactions = try pruning.count(
                    "SELECT count(*) FROM history_transaction WHERE timestamp < $1::bigint", historyCutoff)
                if !dryRun {
                    try connection.execute(
                        """
                        DELETE FROM history_change WHERE token IN
                            (SELECT token FROM history_transaction WHERE timestamp < $1::bigint)
                        """, [.integer(historyCutoff)])
                    try connection.execute(
                        "DELETE FROM history_transaction WHERE timestamp < $1::bigint", [.integer(historyCutoff)])
                }
            }
            return result
        }
    }

    // MARK: - Feed state

    private static func save(_ state: FeedState, on connection: PostgresConnection) throws {
        try connection.executePrepared(
            """
            INSERT INTO feed_state (url, etag, last_modified, fetched, checked, outcome, progress)
            VALUES ($1::text, $2::text, $3::text, $4::bigint, $5::bigint, $6::text, $7::text)
            ON CONFLICT (url) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
                fetched = excluded.fetched, checked = excluded.checked, outcome = excluded.outcome,
                progress = excluded.progress
            """,
            [
                .text(state.url), state.etag.map(PostgresValue.text), state.lastModified.map(PostgresValue.text),
                .integer(state.fetched), state.checked.map(PostgresValue.integer),
                state.outcome.map(PostgresValue.text), state.progress.map(PostgresValue.text),
            ])
    }

    // MARK: - Private

    /// Waits until the batch in flight is written, and throws what its flush failed with.
    private func endFlush() throws {
        defer {
            inFlight = nil
            queuedAhead = nil
        }
        try inFlight?.finish()
    }

    /// Begins a transaction on the write connection, or on a new one when the server ended the
    /// session since the last transaction (it restarted), so that a watch that fetches takes up
    /// again when the server is back.
    private func beginTransaction() throws -> PostgresConnection {
        try onLiveSession { connection throws(PostgresError) in
            try connection.execute("BEGIN")
            return connection
        }
    }

    /// Runs `body` on the write connection, and, when the server ended that session since it was
    /// last used (it restarted), once more on a new one. Only for work outside any transaction:
    /// nothing was under way, so nothing is lost.
    private func onLiveSession<Result>(_ body: (PostgresConnection) throws(PostgresError) -> Result) throws
        -> Result
    {
        let current = try connection()
        do {
            return try body(current)
        } catch {
            guard error.sessionEnded else { throw error }
            openConnection = nil
        }
        return try body(try connection())
    }

    /// The write connection, once the batch in flight, if any, has been written. When that flush
    /// failed, the ingest's transaction is over: it is rolled back at once, so that another
    /// source's call (`feedState(for:)`) does not fail inside it, and the ingest's next call throws
    /// the flush's failure (`PostgresFlush.throwIfFailed()`, or `endFlush()` at the commit).
    private func connection() throws(StoreError) -> PostgresConnection {
        if let inFlight {
            do {
                try inFlight.finish()
            } catch {
                _ = try? openConnection?.execute("ROLLBACK")
            }
        }
        if let openConnection { return openConnection }
        do {
            let connection = try PostgresConnection(uri: uri)
            try PostgresSchema.migrate(connection, name: name)
            try PostgresBatchWrites.createStagingTables(on: connection)
            openConnection = connection
            return connection
        } catch {
            throw StoreError(path: name, error)
        }
    }

    /// Runs `body` in a transaction of its own, once no ingest holds the connection, and commits
    /// it, or, when not `committing` (a dry run), rolls it back.
    private func exclusively<Result: Sendable>(
        committing: Bool = true, _ body: (PostgresConnection) throws -> Result
    ) async throws(StoreError) -> Result {
        let turn = await turns.take()
        defer { turns.end(turn) }
        do {
            let connection = try beginTransaction()
            do {
                let result = try body(connection)
                if committing { try connection.commit() } else { try connection.execute("ROLLBACK") }
                return result
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        } catch {
            throw StoreError(path: name, error)
        }
    }
}
