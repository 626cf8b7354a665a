import QuakesCore

/// The GeoJSON-file engine's writer: the store held in memory, changed by the one implementation
/// of the identity rules (`InMemoryIdentities`), and written back whole when a write commits, by
/// replacing the file (`GeoJSONStoreFile.replace`), only when its bytes changed.
///
/// Another process may replace the file between this writer's writes (a `watch` that fetches
/// keeps its writer for hours, a cron fetch runs meanwhile): each write begins, under the writer
/// lock, by reading the file again when its version on disk is not the one this writer last saw.
///
/// It runs on a dispatch queue of its own (`QueueExecutor`): reading, encoding and writing a large
/// file take a while, and never hold a thread of the cooperative pool.
actor GeoJSONStore: QuakeWriting {
    let path: String

    private let executor = QueueExecutor(label: "quakes.geojson-store")
    /// The store as this writer last read or wrote it, and that file's version; nil before `open`.
    private var saved: (file: GeoJSONStoreFile, version: GeoJSONStoreFile.Version?)?
    /// The store with the active ingest's changes so far.
    private var identities = InMemoryIdentities()
    private let turns = WriterTurns<(author: String, source: String?)>()

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    nonisolated var companionExecutor: any TaskExecutor {
        executor.companion
    }

    init(path: String) {
        self.path = path
    }

    /// Reads the file, so that a fetch fails early when it is not a store. A missing store is made
    /// by the first write that commits, as the other engines make their database: a first fetch
    /// that fails leaves none.
    func open() throws(StoreError) {
        _ = try current()
    }

    // MARK: - Ingest transactions

    func beginIngest(author: String, source: String?) async throws(StoreError) -> IngestTicket {
        let ticket = await turns.take()
        do {
            let file = try current()
            identities = InMemoryIdentities(events: file.events, owners: file.owners)
        } catch {
            turns.end(ticket)
            throw error
        }
        turns.begin(ticket, (author, source))
        return ticket
    }

    func ingest(_ batch: IngestBatch, for ticket: IngestTicket) throws(StoreError) -> IngestOutcome {
        _ = try turns.context(of: ticket, in: path)
        do {
            return try identities.apply(batch)
        } catch {
            throw StoreError(path: path, error)
        }
    }

    func commit(_ ticket: IngestTicket, timestamp: Int64, feedState: FeedState?) throws(StoreError) -> StoreCommit {
        _ = try turns.context(of: ticket, in: path)
        defer { turns.end(ticket) }
        var file = try current()
        var commit = StoreCommit()
        for entry in identities.takeChanges() {
            if let change = entry.change { commit.add(1, of: change) }
        }
        file.events = identities.events
        // The file keeps no fingerprints (a re-ingest decodes every feature): one learnt in this
        // ingest is no change of the file.
        file.owners = identities.owners.mapValues { owner in
            var kept = owner
            kept.fingerprint = nil
            return kept
        }
        if commit.inserted + commit.updated + commit.deleted > 0 {
            file.lastToken += 1
            commit.token = file.lastToken
        }
        if let feedState { file.feeds[feedState.url] = Self.kept(feedState) }
        identities = InMemoryIdentities()
        try write(file)
        return commit
    }

    func rollback(_ ticket: IngestTicket) {
        guard turns.holds(ticket) else { return }
        identities = InMemoryIdentities()
        turns.end(ticket)
    }

    // MARK: - Other writes

    func save(_ feedState: FeedState) async throws(StoreError) {
        let turn = await turns.take()
        defer { turns.end(turn) }
        var file = try current()
        file.feeds[feedState.url] = Self.kept(feedState)
        try write(file)
    }

    func feedState(for url: String) throws(StoreError) -> FeedState? {
        try current().feeds[url]
    }

    /// Forgets the events and the ids older than `cutoff`, by the rule every engine follows
    /// (`IdentityRules.prune(before:at:in:dryRun:)`); the file keeps no history transactions, so
    /// there are none to prune.
    func prune(eventsBefore cutoff: Int64?, historyBefore historyCutoff: Int64?, timestamp: Int64, dryRun: Bool)
        async throws(StoreError) -> PruneResult
    {
        let turn = await turns.take()
        defer { turns.end(turn) }
        var file = try current()
        var result = PruneResult()
        if let cutoff {
            // Nothing of the file's own pruning throws.
            do {
                result = try IdentityRules.prune(before: cutoff, at: timestamp, in: &file, dryRun: dryRun)
            } catch {
                throw StoreError(path: path, error)
            }
        }
        // Written only when it changed, or to create an empty store where there was none, as the
        // other engines' prune creates their database.
        if !dryRun { try write(file) }
        return result
    }

    // MARK: - Private

    /// The store as it is on disk now, read again only when another process replaced the file.
    private func current() throws(StoreError) -> GeoJSONStoreFile {
        let version = GeoJSONStoreFile.Version.of(path)
        if let saved, saved.version == version { return saved.file }
        let (file, read) = try GeoJSONStoreFile.loadIfPresent(from: path) ?? (GeoJSONStoreFile(), nil)
        saved = (file, read)
        return file
    }

    /// Replaces the file with `file`, unless its bytes would be the same.
    private func write(_ file: GeoJSONStoreFile) throws(StoreError) {
        guard file != saved?.file || saved?.version == nil else { return }
        saved = (file, try GeoJSONStoreFile.replace(path, with: file.encoded()))
    }

    /// What the file keeps of a feed: its validators and progress (see `GeoJSONStoreFile`).
    private static func kept(_ state: FeedState) -> FeedState {
        FeedState(
            url: state.url, etag: state.etag, lastModified: state.lastModified, fetched: 0, progress: state.progress)
    }
}
