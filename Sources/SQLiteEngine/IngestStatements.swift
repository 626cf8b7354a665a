import QuakesCore
import SQLite

/// The writes of an ingest on SQLite: the store side of `IdentityRules`, over prepared statements
/// compiled once per connection (through its statement cache). Every change is recorded in the
/// ledger of the ingest's history.
///
/// Events and owners are written many rows to a statement (`MultiRowInsert`): the rules read back
/// no row of the batch (they keep the owners they wrote, and `storedEvent` is asked only of ids the
/// batch has not written, or inserted, whose answer then does not matter), so the rows held need
/// only be written before another statement writes their tables, and when the batch ends.
///
/// Not `Sendable`: it belongs to the store actor, which makes one per batch.
struct IngestStatements: IdentityStore {
    private let connection: Connection
    /// Bound in place from packed events (`PackedQuake`): the decoders packed them, or `writeEvent`
    /// does, for a feature the store decoded itself.
    private var events = MultiRowInsert<PackedQuake>(upsertSQL) { event, statement, first, _ in
        try QuakeColumns.bind(event, to: statement, from: first)
    }
    private var owned = MultiRowInsert<(id: String, owner: IdentityOwner)>(upsertOwnerSQL) {
        row, statement, first, arena in
        let owner = row.owner
        try statement.bind(unownedText: arena.store(row.id), at: first)
        try statement.bind(unownedText: arena.store(owner.event), at: first + 1)
        try statement.bind(owner.version.updated, at: first + 2)
        try statement.bind(owner.version.generated, at: first + 3)
        try statement.bind(owner.version.digest, at: first + 4)
        try statement.bind(owner.isDeletion ? 1 : 0, at: first + 5)
        try statement.bind(owner.time, at: first + 6)
        try statement.bind(owner.fingerprint, at: first + 7)
    }
    private let selectOwners: Statement
    private let updateFeedTime: Statement
    private let refreshOwners: Statement
    private let refreshEvents: Statement
    private let deleteRow: Statement
    private let selectEvent: Statement
    /// The refreshes of feed time not yet written, all to one feed time: `refreshFeedTime` for a
    /// whole re-ingest of a newer feed is two statements a batch, not two a feature.
    private var refreshing: (generated: Int64?, owners: [String], events: [String])?
    /// The batch's changes, spilled into `pending` when the batch has been applied.
    private var ledger = HistoryLedger()
    private let pending: SQLitePendingHistory
    private let arena: TextArena
    /// The ids the ingest has given owners, when it began with none stored.
    private let fresh: FreshIdentities?

    /// The statements of a batch on `connection`, whose ingest keeps its history in `history`;
    /// `fresh` when the ingest began with no owner stored (`startsFresh(on:)`).
    init(_ connection: Connection, history: SQLitePendingHistory, fresh: FreshIdentities?, arena: TextArena) throws {
        self.connection = connection
        self.arena = arena
        self.fresh = fresh
        pending = history
        // A join, with `json_each` outermost, seeks each id in turn; `id IN (SELECT …)` would first
        // sort the ids into a temporary index, work the join does not do.
        selectOwners = try connection.statement(
            """
            SELECT identity.id, nullif(event, identity.id), updated, generated, digest, deleted, time, fingerprint
            FROM json_each(?1) AS named CROSS JOIN identity ON identity.id = named.value
            """)
        updateFeedTime = try connection.statement("UPDATE quake SET generated = ?2 WHERE id = ?1")
        refreshOwners = try connection.statement(
            "UPDATE identity SET generated = ?1 WHERE id IN (SELECT value FROM json_each(?2))")
        refreshEvents = try connection.statement(
            "UPDATE quake SET generated = ?1 WHERE id IN (SELECT value FROM json_each(?2))")
        deleteRow = try connection.statement("DELETE FROM quake WHERE id = ?1")
        selectEvent = try connection.statement("SELECT \(QuakeColumns.list) FROM quake WHERE id = ?1")
    }

    /// Applies a batch of features, in order, following `IdentityRules`; `digests` are their
    /// `QuakeDigest`s. Returns how many features changed an event.
    ///
    /// The owners of every id the batch names are read up front by one set-based query and kept
    /// current as the batch is written: a statement per feature would cost more than the writes.
    /// In a first load, only the ids an earlier batch may have given owners are looked up.
    mutating func apply(_ batch: IngestBatch) throws -> IngestOutcome {
        let stored = try owners(of: fresh.map { batch.namedIDs.filter($0.mayContain) } ?? batch.namedIDs)
        var owners = stored
        let outcome = try IdentityRules.apply(batch, owners: &owners, to: &self)
        try writeRefreshes()
        try writeHeldRows()
        // Only an id stored before the batch can have changed in an earlier batch of the ingest.
        try ledger.spill(into: pending) { stored[$0] != nil }
        return outcome
    }

    /// A `FreshIdentities` when the database holds no owner (within the ingest's transaction on
    /// `connection`, before its first batch), nil otherwise.
    static func startsFresh(on connection: Connection) throws -> FreshIdentities? {
        let rows = try connection.statement("SELECT EXISTS (SELECT 1 FROM identity)")
        defer { rows.reset() }
        guard try rows.step(), rows.int64(at: 0) == 0 else { return nil }
        return FreshIdentities()
    }

    // MARK: - IdentityStore

    func owners(of ids: [String]) throws -> [String: IdentityOwner] {
        guard !ids.isEmpty else { return [:] }
        var owners: [String: IdentityOwner] = [:]
        owners.reserveCapacity(ids.count)
        try selectOwners.bind(Self.jsonArray(ids), at: 1)
        defer { selectOwners.reset() }
        while try selectOwners.step() {
            guard let id = selectOwners.string(at: 0) else { continue }
            owners[id] = IdentityOwner(
                // Most ids are their own event's: one string for both.
                event: selectOwners.string(at: 1) ?? id,
                version: EventVersion(
                    updated: selectOwners.int64(at: 2), generated: selectOwners.int64(at: 3),
                    digest: selectOwners.int64(at: 4) ?? 0),
                isDeletion: selectOwners.int64(at: 5) == 1, time: selectOwners.int64(at: 6) ?? 0,
                fingerprint: selectOwners.int64(at: 7))
        }
        return owners
    }

    /// A point query, asked only when a write replaces or deletes an event (the rows the batch holds
    /// need not be written for it: see the type's comment). In a first load, none: every stored
    /// event was inserted by this very ingest, so its changes are part of an insert, which records
    /// no fields.
    func storedEvent(_ id: String) throws -> Quake? {
        guard fresh == nil else { return nil }
        try selectEvent.bind(id, at: 1)
        defer { selectEvent.reset() }
        return try selectEvent.step() ? QuakeColumns.quake(from: selectEvent) : nil
    }

    mutating func setOwner(_ owner: IdentityOwner, of ids: [String]) throws {
        try writeRefreshes()
        for id in ids {
            fresh?.insert(id)
            try owned.append((id, owner), on: connection, arena: arena)
        }
    }

    /// `prepared` is a `PackedQuake`: the only form this store's `eventPreparation` makes, and an
    /// ingest prepares the batches of the store it gives them to (`FeedIngest`). The cast checks
    /// it all the same: a class's type is one comparison.
    mutating func writeEvent(_ quake: Quake, prepared: (any AnyObject & Sendable)?) throws {
        try writeRefreshes()
        let packed = prepared.map { $0 as! PackedQuake } ?? PackedQuake(quake)
        try events.append(packed, on: connection, arena: arena)
    }

    mutating func setFeedTime(_ generated: Int64?, ofEvent id: String) throws {
        try writeRefreshes()
        try events.flush(on: connection, arena: arena)
        try updateFeedTime.bind(id, at: 1)
        try updateFeedTime.bind(generated, at: 2)
        try updateFeedTime.run()
    }

    /// Kept until the batch ends or another write comes (the rules read back no row of the batch:
    /// they keep the owners they wrote), then written in bulk.
    mutating func refreshFeedTime(_ owner: IdentityOwner, of ids: [String]) throws {
        if let refreshing, refreshing.generated != owner.version.generated { try writeRefreshes() }
        if refreshing == nil { refreshing = (owner.version.generated, [], []) }
        refreshing!.owners += ids
        refreshing!.events.append(owner.event)
    }

    mutating func deleteEvent(_ id: String) throws {
        try writeRefreshes()
        try events.flush(on: connection, arena: arena)
        try deleteRow.bind(id, at: 1)
        try deleteRow.run()
    }

    mutating func recordChange(_ id: String, existed: Bool, remains: Bool, mergedInto: String?, fields: [FieldChange]?)
    {
        ledger.record(id, existed: existed, remains: remains, mergedInto: mergedInto, fields: fields)
    }

    /// Writes the refreshes of feed time kept so far.
    private mutating func writeRefreshes() throws {
        guard let refreshing else { return }
        self.refreshing = nil
        try writeHeldRows()
        for (statement, ids) in [(refreshOwners, refreshing.owners), (refreshEvents, refreshing.events)] {
            try statement.bind(refreshing.generated, at: 1)
            try statement.bind(Self.jsonArray(ids), at: 2)
            try statement.run()
        }
    }

    /// Writes the events and owners held.
    private mutating func writeHeldRows() throws {
        try events.flush(on: connection, arena: arena)
        try owned.flush(on: connection, arena: arena)
    }

    // MARK: - Statements

    /// Inserts rows, each replacing every column of the row with its id; parameters in column order.
    private static let upsertSQL = MultiRowInsert<PackedQuake>.SQL(columns: QuakeColumns.names.count) { values in
        """
        INSERT INTO quake (\(QuakeColumns.list))
        VALUES \(values)
        ON CONFLICT (id) DO UPDATE SET \(QuakeColumns.names.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        """
    }

    /// Makes each row the owner of its id.
    private static let upsertOwnerSQL = MultiRowInsert<(id: String, owner: IdentityOwner)>.SQL(columns: 8) { values in
        """
        INSERT INTO identity (id, event, updated, generated, digest, deleted, time, fingerprint)
        VALUES \(values)
        ON CONFLICT (id) DO UPDATE SET event = excluded.event, updated = excluded.updated,
            generated = excluded.generated, digest = excluded.digest, deleted = excluded.deleted, time = excluded.time,
            fingerprint = excluded.fingerprint
        """
    }

    /// `["a","b"]`, for `json_each`.
    static func jsonArray(_ ids: [String]) -> String {
        var json = JSONBuffer(capacity: ids.count * 16)
        json.raw("[")
        for (index, id) in ids.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(id)
        }
        json.raw("]")
        return json.string
    }
}
