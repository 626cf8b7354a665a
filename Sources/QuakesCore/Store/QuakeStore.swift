import SQLite

/// The one owner of the database's write connection, like a background context: every write goes
/// through it, as batches of a prepared upsert.
///
/// It runs on a dispatch queue of its own (`QueueExecutor`), so SQLite's blocking calls never hold
/// a thread of the cooperative pool, and its API speaks only `Sendable` values.
///
/// A fetch of one source is one transaction: `beginIngest()` waits until no other ingest holds the
/// connection, then `ingest(_:for:)` takes batches as they are decoded, and `commit(_:)` or
/// `rollback(_:)` ends it. Readers on other connections see the whole fetch or none of it.
public actor QuakeStore {
    /// The database file.
    public nonisolated let path: String

    private let executor = QueueExecutor(label: "quakes.store")
    private var openConnection: Connection?
    private let arena = TextArena()

    private var activeIngest: UInt64?
    private var lastIngest: UInt64 = 0
    private var ingestWaiters: [CheckedContinuation<Void, Never>] = []

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// A store for the database at `path`, which is opened (and created) on first use, on the
    /// store's own queue.
    public init(path: String) {
        self.path = path
    }

    /// Opens the database now, so that a fetch fails early when it cannot be written.
    public func open() throws(StoreError) {
        _ = try connection()
    }

    // MARK: - Ingest transactions

    /// A claim on the store's write transaction, from `beginIngest()` to `commit(_:)` or `rollback(_:)`.
    public struct IngestTicket: Sendable, Equatable {
        fileprivate let number: UInt64
    }

    /// Waits until no other ingest is open, then begins this one's transaction.
    public func beginIngest() async throws(StoreError) -> IngestTicket {
        while activeIngest != nil {
            await withCheckedContinuation { ingestWaiters.append($0) }
        }
        lastIngest += 1
        activeIngest = lastIngest
        do {
            try connection().begin(.immediate)
        } catch {
            endIngest()
            throw StoreError(path: path, error)
        }
        return IngestTicket(number: lastIngest)
    }

    /// Stores a batch of features in the ingest's transaction and says what became of each.
    public func ingest(_ quakes: [Quake], for ticket: IngestTicket) throws(StoreError) -> IngestCounts {
        try checkActive(ticket)
        var counts = IngestCounts()
        do {
            let writer = try connection()
            let statements = try IngestStatements(writer)
            defer { statements.upsert.clearBindings() }  // Its text pointed into the arena.
            for quake in quakes {
                try apply(quake, with: statements, counts: &counts)
            }
        } catch {
            throw StoreError(path: path, error)
        }
        return counts
    }

    /// Makes the ingest permanent.
    public func commit(_ ticket: IngestTicket) throws(StoreError) {
        try checkActive(ticket)
        defer { endIngest() }
        do {
            try connection().commit()
        } catch {
            try? openConnection?.rollback()
            throw StoreError(path: path, error)
        }
    }

    /// Undoes the ingest; the database is as it was before `beginIngest()`.
    public func rollback(_ ticket: IngestTicket) {
        guard activeIngest == ticket.number else { return }
        try? openConnection?.rollback()
        endIngest()
    }

    // MARK: - Private

    private func connection() throws(StoreError) -> Connection {
        if let openConnection { return openConnection }
        let connection = try DatabaseFile.openForWriting(at: path)
        openConnection = connection
        return connection
    }

    private func checkActive(_ ticket: IngestTicket) throws(StoreError) {
        guard activeIngest == ticket.number else {
            throw StoreError(path: path, "the ingest transaction has already ended")
        }
    }

    private func endIngest() {
        activeIngest = nil
        if !ingestWaiters.isEmpty { ingestWaiters.removeFirst().resume() }
    }

    /// Upserts one feature, following USGS's identity rules.
    ///
    /// A feature is the same event as every stored event it shares an id with: its own id, an id
    /// in its `ids`, or an id in their `ids` (through `quake_alias`). The newest version wins (see
    /// `Version`) and one row remains, under the winner's id. A feature no newer than what is stored
    /// changes nothing; one with status `deleted` removes its event.
    private func apply(_ quake: Quake, with statements: IngestStatements, counts: inout IngestCounts) throws {
        let incoming = Version(updated: quake.updated, feedGenerated: quake.feedGenerated)
        let otherIDs = quake.allIDs.map(String.init).filter { $0 != quake.id }
        var matches: [StoredEvent] = []
        func addMatch(_ id: String) throws {
            guard !matches.contains(where: { $0.id == id }), let event = try statements.storedEvent(id) else { return }
            matches.append(event)
        }
        try addMatch(quake.id)
        for id in [quake.id] + otherIDs {
            if id != quake.id { try addMatch(id) }
            if let owner = try statements.aliasOwner(id), owner != quake.id { try addMatch(owner) }
        }

        if quake.isDeleted {
            guard !matches.isEmpty, matches.allSatisfy({ incoming > $0.version }) else {
                counts.unchanged += 1
                return
            }
            for event in matches { try statements.delete(event.id) }
            counts.deleted += 1
            return
        }
        guard !matches.isEmpty else {
            try statements.upsert(quake, arena: arena)
            try statements.addAliases(otherIDs, for: quake.id)
            counts.inserted += 1
            return
        }
        if matches.allSatisfy({ incoming > $0.version }) {
            let previous = matches.first { $0.id == quake.id }
            if matches.count == 1, let previous, previous.version.updated == incoming.updated {
                // Newer only by its feed: a change only if USGS rewrote something, such as the place.
                guard try statements.updateIfDifferent(quake, arena: arena) else {
                    counts.unchanged += 1
                    return
                }
            } else {
                for event in matches where event.id != quake.id { try statements.delete(event.id) }
                try statements.upsert(quake, arena: arena)
            }
            if previous?.ids != quake.ids {
                try statements.removeAliases(of: quake.id)
                try statements.addAliases(otherIDs, for: quake.id)
            }
            counts.updated += 1
        } else {
            // A stored version is at least as new: it stays, and absorbs any other stored versions
            // of the event this feature has just shown to be the same.
            let newest = matches.max { $0.version < $1.version }!
            let others = matches.filter { $0.id != newest.id }
            for event in others { try statements.delete(event.id) }
            if others.isEmpty { counts.unchanged += 1 } else { counts.updated += 1 }
        }
    }
}

/// A stored event that is the same event as an incoming feature.
private struct StoredEvent {
    var id: String
    var version: Version
    var ids: String?
}

/// How recent a version of an event is: by `updated`, then, for equal `updated`, by when its feed
/// was generated, since USGS rewrites place names without touching `updated`. Missing times are
/// older than any; equal versions are the same version.
private struct Version: Comparable {
    var updated: Int64?
    var feedGenerated: Int64?

    static func < (lhs: Version, rhs: Version) -> Bool {
        func order(_ time: Int64?) -> Int64 { time ?? .min }
        return (order(lhs.updated), order(lhs.feedGenerated)) < (order(rhs.updated), order(rhs.feedGenerated))
    }
}

/// The prepared statements of an ingest, compiled once per connection through its statement cache.
private struct IngestStatements {
    let upsert: Statement
    let updateIfDifferent: Statement
    private let selectEvent: Statement
    private let selectAlias: Statement
    private let deleteEvent: Statement
    private let deleteAliases: Statement
    private let insertAlias: Statement

    private let connection: Connection

    init(_ connection: Connection) throws {
        self.connection = connection
        upsert = try connection.statement(Self.upsertSQL)
        updateIfDifferent = try connection.statement(Self.updateIfDifferentSQL)
        selectEvent = try connection.statement("SELECT updated, generated, ids FROM quake WHERE id = ?1")
        selectAlias = try connection.statement("SELECT id FROM quake_alias WHERE alias = ?1")
        deleteEvent = try connection.statement("DELETE FROM quake WHERE id = ?1")
        deleteAliases = try connection.statement("DELETE FROM quake_alias WHERE id = ?1")
        insertAlias = try connection.statement("INSERT OR REPLACE INTO quake_alias (alias, id) VALUES (?1, ?2)")
    }

    /// Inserts a row, or replaces every column of the row with its id; parameters in column order.
    private static let upsertSQL = """
        INSERT INTO quake (\(QuakeColumns.list))
        VALUES (\(QuakeColumns.names.indices.map { "?\($0 + 1)" }.joined(separator: ", ")))
        ON CONFLICT (id) DO UPDATE SET \(QuakeColumns.names.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """

    /// Replaces the row with id ?1 only when a column other than `generated` differs, compared
    /// NULL-safely with `IS NOT`, so a version that changes no event data leaves the row alone.
    private static let updateIfDifferentSQL: String = {
        let columns = QuakeColumns.names.enumerated().dropFirst()
        let assignments = columns.map { "\($0.element) = ?\($0.offset + 1)" }
        let differences = columns.filter { $0.element != "generated" }.map { "\($0.element) IS NOT ?\($0.offset + 1)" }
        return """
            UPDATE quake SET \(assignments.joined(separator: ", "))
            WHERE id = ?1 AND (\(differences.joined(separator: " OR ")))
            """
    }()

    func storedEvent(_ id: String) throws -> StoredEvent? {
        defer { selectEvent.reset() }
        try selectEvent.bind(id, at: 1)
        guard try selectEvent.step() else { return nil }
        return StoredEvent(id: id, version: Version(updated: selectEvent.int64(at: 0), feedGenerated: selectEvent.int64(at: 1)),
                           ids: selectEvent.string(at: 2))
    }

    func aliasOwner(_ id: String) throws -> String? {
        defer { selectAlias.reset() }
        try selectAlias.bind(id, at: 1)
        guard try selectAlias.step() else { return nil }
        return selectAlias.string(at: 0)
    }

    func upsert(_ quake: Quake, arena: TextArena) throws {
        try QuakeColumns.bind(quake, to: upsert, arena: arena)
        try upsert.run()
    }

    /// Rewrites the stored row of `quake` when its event data differs; returns true when it did.
    func updateIfDifferent(_ quake: Quake, arena: TextArena) throws -> Bool {
        defer { updateIfDifferent.clearBindings() }
        try QuakeColumns.bind(quake, to: updateIfDifferent, arena: arena)
        try updateIfDifferent.run()
        return connection.changes > 0
    }

    func delete(_ id: String) throws {
        try deleteEvent.bind(id, at: 1)
        try deleteEvent.run()
        try removeAliases(of: id)
    }

    func removeAliases(of id: String) throws {
        try deleteAliases.bind(id, at: 1)
        try deleteAliases.run()
    }

    func addAliases(_ aliases: [String], for id: String) throws {
        for alias in aliases {
            try insertAlias.bind(alias, at: 1)
            try insertAlias.bind(id, at: 2)
            try insertAlias.run()
        }
    }
}
