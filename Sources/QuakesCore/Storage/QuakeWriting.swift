/// The write side of the storage seam: what every engine does for `fetch`, `prune` and a fetching
/// `watch`, speaking only engine-neutral values.
///
/// An engine is an actor that owns its database's writes and keeps its blocking calls off the
/// cooperative pool. A fetch of one source is one transaction: `beginIngest` waits until no other
/// ingest of this writer is open, `ingest(_:for:)` applies batches in order by
/// `IdentityRules` (the one implementation every engine uses), and `commit` or `rollback` ends it.
public protocol QuakeWriting: Actor {
    /// Where a task that mostly waits for this store should run (an ingest's loop): on the store's
    /// own queue, between its jobs (`QueueExecutor.companion`), so that handing it work wakes no
    /// other thread.
    nonisolated var companionExecutor: any TaskExecutor { get }

    /// What the decoders make of each event for this store beside its `Quake`, which the store then
    /// writes from; nil, the default, when it writes from the `Quake` alone.
    nonisolated var eventPreparation: (any EventPreparation)? { get }

    /// Connects, creates or upgrades the schema, so that a fetch fails early when it cannot write.
    func open() async throws(StoreError)

    /// Waits until no other ingest is open, then begins this one's transaction, recorded in the
    /// history under `author` and `source`.
    func beginIngest(author: String, source: String?) async throws(StoreError) -> IngestTicket

    /// Stores a batch of features in the ingest's transaction with `IdentityRules.apply(_:owners:to:)`,
    /// which decodes those of its skimmed features that are not the version stored, and says what
    /// that did.
    func ingest(_ batch: IngestBatch, for ticket: IngestTicket) async throws(StoreError) -> IngestOutcome

    /// Makes the ingest permanent: closes its history transaction at `timestamp` (none when nothing
    /// changed), saves `feedState` for the next conditional request, and commits.
    func commit(_ ticket: IngestTicket, timestamp: Int64, feedState: FeedState?) async throws(StoreError)
        -> StoreCommit

    /// Undoes the ingest; the database is as it was before `beginIngest`.
    func rollback(_ ticket: IngestTicket) async

    /// Saves the validators of a URL outside any ingest (after a fetch that stored nothing).
    func save(_ feedState: FeedState) async throws(StoreError)

    /// The validators saved for `url`, for a conditional request.
    func feedState(for url: String) async throws(StoreError) -> FeedState?

    /// Deletes the events older than `cutoff` (by event time) as one transaction of author `prune`,
    /// and the history transactions older than `historyCutoff`; with `dryRun`, only counts them.
    func prune(eventsBefore cutoff: Int64?, historyBefore historyCutoff: Int64?, timestamp: Int64, dryRun: Bool)
        async throws(StoreError) -> PruneResult
}

extension QuakeWriting {
    /// The default: the store writes from each `Quake`.
    public nonisolated var eventPreparation: (any EventPreparation)? {
        nil
    }

    /// Stores a batch of decoded features and says how many changed an event; `digests` are their
    /// `QuakeDigest`s when the caller computed them already.
    public func ingest(_ quakes: [Quake], digests: [Int64]? = nil, for ticket: IngestTicket) async throws(StoreError)
        -> IngestCounts
    {
        try await ingest(IngestBatch(quakes, digests: digests), for: ticket).counts
    }
}

/// A claim on a writer's ingest transaction, from `beginIngest` to `commit` or `rollback`.
public struct IngestTicket: Sendable, Equatable {
    package let number: UInt64

    package init(number: UInt64) {
        self.number = number
    }
}

/// What a committed ingest recorded in the history.
public struct StoreCommit: Sendable, Equatable {
    /// The transaction's token, or nil when nothing changed and nothing was recorded.
    public var token: Int64?
    public var inserted = 0
    public var updated = 0
    public var deleted = 0

    /// Counts `count` more changes of `kind`.
    package mutating func add(_ count: Int, of kind: HistoryChange.Kind) {
        switch kind {
        case .insert: inserted += count
        case .update: updated += count
        case .delete: deleted += count
        }
    }

    package init(token: Int64? = nil, inserted: Int = 0, updated: Int = 0, deleted: Int = 0) {
        self.token = token
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }
}
