import QuakesCore
import SQLite

/// The SQLite engine's writer: the one owner of the database's write connection, like a background context: every write goes
/// through it, as batches of a prepared upsert, and every write that changes the store is recorded
/// in the persistent history.
///
/// It runs on a dispatch queue of its own (`QueueExecutor`), so SQLite's blocking calls never hold
/// a thread of the cooperative pool, and its API speaks only `Sendable` values.
///
/// A fetch of one source is one transaction: `beginIngest` waits until no other ingest holds the
/// connection, then `ingest(_:for:)` takes batches as they are decoded, and `commit` or `rollback`
/// ends it. Readers on other connections see the whole fetch or none of it. An ingest spans several
/// calls, so the actor takes turns (`WriterTurns`) to keep other writes out of it.
public actor SQLiteStore: QuakeWriting {
    /// The database file.
    public nonisolated let path: String

    private let executor = QueueExecutor(label: "quakes.store")
    private var openConnection: Connection?
    /// While the database is missing, the file it is made in, put in place by the first write that
    /// commits (`DatabaseDraft`): the connection of every write until then.
    private var draft: DatabaseDraft?
    private let arena = TextArena()

    /// The active ingest, with who its history is by and from where, and where it is kept until it
    /// commits (`SQLitePendingHistory`: a fetch that changes nothing records nothing), and the
    /// indexes it builds at the end, and, in a first load, the ids it has given owners.
    private let turns = WriterTurns<
        (
            author: String, source: String?, history: SQLitePendingHistory, indexes: DeferredIndexes,
            fresh: FreshIdentities?
        )
    >()

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    public nonisolated var companionExecutor: any TaskExecutor {
        executor.companion
    }

    /// The decoders pack each event (`PackedQuake`), whose texts the store binds where they lie.
    public nonisolated var eventPreparation: (any EventPreparation)? {
        PackedQuake.preparation
    }

    /// A store for the database at `path`, which is opened on first use, on the store's own queue
    /// (a missing one is made in a draft, and created by the first write that commits).
    public init(path: String) {
        self.path = path
    }

    /// Opens the database now, so that a fetch fails early when it cannot be written. A missing
    /// one is not created yet: its draft is.
    public func open() throws(StoreError) {
        _ = try connection()
    }

    // MARK: - Ingest transactions

    /// Waits until no other ingest is open, then begins this one's transaction, recorded in the
    /// history under `author` and `source`.
    public func beginIngest(author: String, source: String?) async throws(StoreError) -> IngestTicket {
        let ticket = await turns.take()
        do {
            let writer = try connectionForNewWrite()
            try writer.begin(.immediate)
            let history = try SQLitePendingHistory.begin(on: writer)
            let indexes = try DeferredIndexes.settingAside(on: writer)
            let fresh = try IngestStatements.startsFresh(on: writer)
            turns.begin(ticket, (author, source, history, indexes, fresh))
            return ticket
        } catch {
            try? openedConnection?.rollback()
            turns.end(ticket)
            throw StoreError(path: path, error)
        }
    }

    /// Stores a batch of features in the ingest's transaction, by the identity rules, and says what
    /// that did.
    public func ingest(_ batch: IngestBatch, for ticket: IngestTicket) throws(StoreError) -> IngestOutcome {
        let active = try turns.context(of: ticket, in: path)
        do {
            let writer = try connection()
            var statements = try IngestStatements(
                writer, history: active.history, fresh: active.fresh, arena: arena)
            return try statements.apply(batch)
        } catch {
            throw StoreError(path: path, error)
        }
    }

    /// Makes the ingest permanent: closes its history transaction at `timestamp` (dropping it when
    /// nothing changed), saves `feedState` for the next conditional request, and commits.
    public func commit(_ ticket: IngestTicket, timestamp: Int64, feedState: FeedState?) throws(StoreError)
        -> StoreCommit
    {
        let active = try turns.context(of: ticket, in: path)
        defer { turns.end(ticket) }
        let commit: StoreCommit
        do {
            let writer = try connection()
            try active.indexes.build(on: writer)
            commit = try active.history.record(author: active.author, source: active.source, timestamp: timestamp)
            if let feedState { try HistoryStatements(writer).save(feedState) }
            try writer.commit()
        } catch {
            try? openedConnection?.rollback()
            throw StoreError(path: path, error)
        }
        try publishDraft()
        return commit
    }

    /// Undoes the ingest; the database is as it was before `beginIngest`.
    public func rollback(_ ticket: IngestTicket) {
        guard turns.holds(ticket) else { return }
        try? openedConnection?.rollback()
        turns.end(ticket)
    }

    // MARK: - Other writes

    /// Saves the validators of a URL outside any ingest (after a fetch that stored nothing).
    public func save(_ feedState: FeedState) async throws(StoreError) {
        try await exclusively { writer in
            try HistoryStatements(writer).save(feedState)
        }
    }

    /// The validators saved for `url`, for a conditional request.
    public func feedState(for url: String) throws(StoreError) -> FeedState? {
        do {
            return try HistoryStatements(try connection()).feedState(for: url)
        } catch {
            throw StoreError(path: path, error)
        }
    }

    /// Deletes the events older than `cutoff` (by event time) as one transaction of author `prune`,
    /// and the history transactions older than `historyCutoff`; with `dryRun`, only counts them.
    public func prune(
        eventsBefore cutoff: Int64?, historyBefore historyCutoff: Int64?, timestamp: Int64,
        dryRun: Bool
    ) async throws(StoreError) -> PruneResult {
        try await exclusively { writer in
            var history = try HistoryStatements(writer)
            var result = PruneResult()
            if let cutoff {
                result = try IdentityRules.prune(before: cutoff, at: timestamp, in: &history, dryRun: dryRun)
            }
            if let historyCutoff {
                result.transactions = try history.countTransactions(before: historyCutoff)
                if !dryRun { try history.deleteTransactions(before: historyCutoff) }
            }
            if dryRun { try writer.rollback() }
            return result
        }
    }

    // MARK: - Private

    /// The connection: to the database, or to its draft while it is missing (made on first use when
    /// nothing at all is at the path). Never changed under a transaction under way.
    private func connection() throws(StoreError) -> Connection {
        if let openConnection { return openConnection }
        if let draft { return draft.connection }
        if DatabaseDraft.isMissing(path), let draft = try DatabaseDraft.make(for: path) {
            self.draft = draft
            return draft.connection
        }
        let connection = try DatabaseFile.openForWriting(at: path)
        openConnection = connection
        return connection
    }

    /// The connection a write begins on, its turn taken (so no ingest is open on a draft): a draft
    /// is given up when another process made the database meanwhile (`watch` makes its draft before
    /// it takes the writer lock).
    private func connectionForNewWrite() throws(StoreError) -> Connection {
        if let draft, draft.isOvertaken { self.draft = nil }
        return try connection()
    }

    /// The connection opened so far, if any: the one to roll back.
    private var openedConnection: Connection? {
        openConnection ?? draft?.connection
    }

    /// Puts the draft in place once its first write has committed, and opens the database there as
    /// every writer does; the next write opens it if that fails now.
    private func publishDraft() throws(StoreError) {
        guard let draft else { return }
        self.draft = nil
        try draft.publish()
        openConnection = try? DatabaseFile.openForWriting(at: path)
    }

    /// Runs `body` in a transaction of its own, once no ingest holds the connection.
    private func exclusively<Result: Sendable>(_ body: (Connection) throws -> Result) async throws(StoreError) -> Result
    {
        let turn = await turns.take()
        defer { turns.end(turn) }
        do {
            let writer = try connectionForNewWrite()
            try writer.begin(.immediate)
            let result: Result
            do {
                result = try body(writer)
                guard writer.isInTransaction else { return result }
                try writer.commit()
            } catch {
                try? writer.rollback()
                throw error
            }
            try publishDraft()
            return result
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: path, error)
        }
    }
}
