import Dispatch
import PostgreSQL
import QuakesCore

/// The store side of `IdentityRules` for one batch on PostgreSQL: the rules' decisions are kept in
/// memory, one final state per event id and per identity, and `flush` moves them in bulk, not a
/// round trip per row. Rows the database will not hold when the batch is written (what `loadOwners`
/// read says so) are copied straight into their tables; the others go through staging tables and
/// one upsert per table.
///
/// A batch is written while the next is decided (`PostgresFlush`), so the next reads its owners
/// before this batch's rows are in, and lays this batch's decided owners over them.
///
/// Not `Sendable`: it belongs to the store actor, which makes one per batch, and lends it to its
/// flush.
struct PostgresBatchWrites: IdentityStore {
    private let connection: PostgresConnection
    /// The batch's changes, spilled into the ingest's history when the batch is flushed.
    private var ledger = HistoryLedger()
    private let history: PostgresPendingHistory

    /// What becomes of a stored event.
    private enum EventWrite {
        case store(Quake)
        case setFeedTime(Int64?)
        case delete
    }

    private var events: [String: EventWrite] = [:]
    /// The stored events the batch may replace or delete, read by `loadOwners` (`readAhead(_:)`),
    /// and the ids it read them for.
    private var readAhead: [String: Quake] = [:]
    private var readAheadIDs: Set<String> = []
    /// True in a first load (`loadOwners`' `fresh`), where no stored event's fields are needed.
    private var isFirstLoad = false
    private var owners: [String: IdentityOwner] = [:]
    /// The ids `loadOwners` looked up, and the owners the database will hold for them when the
    /// batch is written (what it held, with what the batch before decided laid over it): a
    /// looked-up id without one has no `identity` row, and its event no `quake` row unless its own
    /// version owns it, not a deletion (the rules keep the two tables so).
    private var lookedUp: Set<String> = []
    private var storedOwners: [String: IdentityOwner] = [:]
    /// The owners the previous batch decided, when its rows are written while this batch is
    /// decided (`PostgresFlush`): the database lacks them until that flush ends.
    private var unflushed: [String: IdentityOwner] = [:]
    /// The previous batch's flush, which must end before this batch uses the connection; it is
    /// queued behind any earlier batch's, so when it ends, they have too.
    private(set) var previousFlush: PostgresFlush?

    init(connection: PostgresConnection, history: PostgresPendingHistory) {
        self.connection = connection
        self.history = history
    }

    /// The session's staging tables, emptied after each upsert.
    static func createStagingTables(on connection: PostgresConnection) throws {
        try connection.execute(
            """
            CREATE TEMPORARY TABLE IF NOT EXISTS quake_staging AS
                SELECT \(PostgresColumns.copiedList) FROM quake WITH NO DATA
            """)
        try connection.execute(
            """
            CREATE TEMPORARY TABLE IF NOT EXISTS identity_staging AS
                SELECT \(identityColumns) FROM identity WITH NO DATA
            """)
    }

    /// The owners of the ids `batch` names when the batch is written, which the batch remembers so
    /// that `flush` knows which rows are new. Every id the rules write in the batch is one of them.
    /// In a first load (`fresh`, the ids the ingest has given owners so far), only the ids that may
    /// be among those are looked up: no other can have an `identity` row. The stored events the
    /// batch may replace are read here too (`storedEvent`), while the connection is free.
    ///
    /// `previous`, when given, is the batch before, decided but not yet written: its decided owners
    /// are laid over what the database holds, and it is flushed on `queue` while this batch is
    /// decided (`previousFlush`), behind `earlier`, the flush queued last. Only when an id must be
    /// read from the database does this wait for `earlier` to end; then the database holds every
    /// batch but `previous`.
    mutating func loadOwners(
        of batch: IngestBatch, amongFresh fresh: FreshIdentities?,
        flushingMeanwhile previous: PostgresBatchWrites?, after earlier: PostgresFlush?, on queue: DispatchQueue
    ) throws -> [String: IdentityOwner] {
        lookedUp = Set(batch.namedIDs)
        let decided = previous?.owners ?? [:]
        let asked = lookedUp.filter { decided[$0] == nil && fresh?.mayContain($0) != false }
        if !asked.isEmpty { try earlier?.finish() }
        storedOwners = try query(Array(asked))
        for id in lookedUp { if let owner = decided[id] { storedOwners[id] = owner } }
        // In a first load, every stored event was inserted by this very ingest: its changes are
        // part of an insert, which records no fields, so none is read.
        isFirstLoad = fresh != nil
        if !isFirstLoad {
            try readAhead(
                IdentityRules.replaceableIDs(batch, owners: storedOwners), writtenBy: previous, after: earlier)
        }
        if let previous {
            unflushed = decided
            previousFlush = PostgresFlush(previous, after: earlier, on: queue)
        }
        return storedOwners
    }

    /// The stored events of `ids` as the batch will find them: those `previous` writes, from it,
    /// and the others from the database, once `earlier` has ended. Read before `previous` is
    /// flushed, so that a batch that replaces events does not wait for that flush.
    private mutating func readAhead(
        _ ids: [String], writtenBy previous: PostgresBatchWrites?, after earlier: PostgresFlush?
    ) throws {
        readAheadIDs = Set(ids)
        guard !ids.isEmpty else { return }
        var asked: [String] = []
        for id in ids {
            switch previous?.events[id] {
            case let .store(quake)?: readAhead[id] = quake
            case .delete?: break
            case .setFeedTime?, nil: asked.append(id)
            }
        }
        if !asked.isEmpty {
            try earlier?.finish()
            readAhead.merge(try queryEvents(asked)) { _, stored in stored }
        }
    }

    /// The ids the batch has given owners.
    var ownedIDs: Dictionary<String, IdentityOwner>.Keys {
        owners.keys
    }

    /// A `FreshIdentities` when the database holds no owner (within the ingest's transaction on
    /// `connection`, before its first batch, after `PostgresPendingHistory.begin` took the row lock
    /// on `history_state` that every ingest takes: no other ingest, on any host, can give an id an
    /// owner before this one commits), nil otherwise.
    static func startsFresh(on connection: PostgresConnection) throws -> FreshIdentities? {
        let result = try connection.execute("SELECT NOT EXISTS (SELECT 1 FROM identity)")
        return result.bool(row: 0, column: 0) == true ? FreshIdentities() : nil
    }

    /// True when the database will hold no `identity` row for `id` when the batch is written.
    private func isNewIdentity(_ id: String) -> Bool {
        lookedUp.contains(id) && storedOwners[id] == nil
    }

    /// True when the database will hold no `quake` row for `id` when the batch is written.
    private func isNewEvent(_ id: String) -> Bool {
        guard lookedUp.contains(id) else { return false }
        guard let owner = storedOwners[id] else { return true }
        return !owner.isOwnVersion(of: id) || owner.isDeletion
    }

    // MARK: - IdentityStore

    /// The owners of `ids`: those the previous batch decided, and, once its flush has ended, those
    /// the database holds.
    func owners(of ids: [String]) throws -> [String: IdentityOwner] {
        var found: [String: IdentityOwner] = [:]
        var asked: [String] = []
        for id in ids {
            if let owner = unflushed[id] { found[id] = owner } else { asked.append(id) }
        }
        guard !asked.isEmpty else { return found }
        try previousFlush?.finish()
        return found.merging(try query(asked)) { decided, _ in decided }
    }

    /// The owners the database holds for `ids`, an index probe for each. A join with a subquery that
    /// cannot be flattened, because `id = ANY(array)` let the planner scan the whole table for a few
    /// hundred ids while it was young and had no statistics, which an ingest into a new database is
    /// throughout: a scan that grows with the table, where the probes do not.
    private func query(_ ids: [String]) throws -> [String: IdentityOwner] {
        guard !ids.isEmpty else { return [:] }
        let result = try connection.executePrepared(
            """
            SELECT owner.id, owner.event, owner.updated, owner.generated, owner.digest, owner.deleted, owner.time,
                owner.fingerprint
            FROM unnest($1::text[]) AS wanted (id)
            CROSS JOIN LATERAL (SELECT * FROM identity WHERE identity.id = wanted.id LIMIT 1) AS owner
            """, [.text(PostgresStatement.arrayLiteral(ids))])
        var found: [String: IdentityOwner] = [:]
        for row in 0..<result.rowCount {
            guard let id = result.string(row: row, column: 0), let event = result.string(row: row, column: 1) else {
                continue
            }
            found[id] = IdentityOwner(
                event: event,
                version: EventVersion(
                    updated: result.int64(row: row, column: 2), generated: result.int64(row: row, column: 3),
                    digest: result.int64(row: row, column: 4) ?? 0),
                isDeletion: result.int64(row: row, column: 5) == 1, time: result.int64(row: row, column: 6) ?? 0,
                fingerprint: result.int64(row: row, column: 7))
        }
        return found
    }

    /// From the batch's own writes, or from what `loadOwners` read ahead: every event the batch
    /// may replace or delete (`IdentityRules.replaceableIDs`). An id it did not read ahead, which
    /// the rules should never ask of, is read here, once the batch before is written.
    func storedEvent(_ id: String) throws -> Quake? {
        if isFirstLoad { return nil }
        if case let .store(quake)? = events[id] { return quake }
        if readAheadIDs.contains(id) { return readAhead[id] }
        assertionFailure("\(id) was not read ahead")
        try previousFlush?.finish()
        return try queryEvents([id])[id]
    }

    /// The events the database holds under `ids`, an index probe for each.
    private func queryEvents(_ ids: [String]) throws -> [String: Quake] {
        let result = try connection.executePrepared(
            """
            SELECT \(PostgresColumns.names.map { "stored." + $0 }.joined(separator: ", "))
            FROM unnest($1::text[]) AS wanted (id)
            CROSS JOIN LATERAL (SELECT * FROM quake WHERE quake.id = wanted.id LIMIT 1) AS stored
            """, [.text(PostgresStatement.arrayLiteral(ids))])
        var found: [String: Quake] = [:]
        for row in 0..<result.rowCount {
            let quake = PostgresColumns.quake(at: row, of: result)
            found[quake.id] = quake
        }
        return found
    }

    mutating func setOwner(_ owner: IdentityOwner, of ids: [String]) {
        for id in ids { owners[id] = owner }
    }

    mutating func writeEvent(_ quake: Quake, prepared: (any AnyObject & Sendable)?) {
        events[quake.id] = .store(quake)
    }

    mutating func setFeedTime(_ generated: Int64?, ofEvent id: String) {
        if case var .store(quake)? = events[id] {
            quake.feedGenerated = generated
            events[id] = .store(quake)
        } else {
            events[id] = .setFeedTime(generated)
        }
    }

    mutating func refreshFeedTime(_ owner: IdentityOwner, of ids: [String]) {
        setOwner(owner, of: ids)
        setFeedTime(owner.version.generated, ofEvent: owner.event)
    }

    mutating func deleteEvent(_ id: String) {
        events[id] = .delete
    }

    mutating func recordChange(_ id: String, existed: Bool, remains: Bool, mergedInto: String?, fields: [FieldChange]?)
    {
        ledger.record(id, existed: existed, remains: remains, mergedInto: mergedInto, fields: fields)
    }

    // MARK: - Flush

    /// What the flush sends: the rows of its COPYs, encoded, and the other changes, listed.
    private struct Prepared {
        var newIdentities: PostgresCopyRows?
        var changedIdentities: PostgresCopyRows?
        var newEvents: PostgresCopyRows?
        var changedEvents: PostgresCopyRows?
        var feedTimes: [(id: String, generated: Int64?)] = []
        var deleted: [String] = []
    }

    private var prepared: Prepared?

    /// Sorts and encodes what the batch decided, ready for `flush`. The store calls it once the
    /// batch is decided, on its own thread, while the server stores the batch before: encoded in
    /// the flush, the rows kept the server waiting while they were written, chunk by chunk.
    mutating func prepare() throws {
        guard prepared == nil else { return }
        var prepared = Prepared()
        // Rows in key order, so that the primary key's inserts go side by side, and ascending ids
        // (one network's codes mostly ascend) in at its rightmost leaf without a descent: in the
        // dictionaries' order each would search a leaf of its own. The keys are sorted, not the rows:
        // moving a `Quake` as the sort does costs more than encoding it.
        var newIdentities: [(id: String, owner: IdentityOwner)] = []
        var changedIdentities: [(id: String, owner: IdentityOwner)] = []
        for id in owners.keys.sorted() {
            guard let owner = owners[id] else { continue }
            if isNewIdentity(id) { newIdentities.append((id, owner)) } else { changedIdentities.append((id, owner)) }
        }
        prepared.newIdentities = try Self.encoded(
            newIdentities, for: Self.copyIdentity(into: "identity"), types: Self.identityTypes, Self.appendIdentity)
        prepared.changedIdentities = try Self.encoded(
            changedIdentities, for: Self.copyIdentity(into: "identity_staging"), types: Self.identityTypes,
            Self.appendIdentity)
        var newEvents: [Quake] = []
        var changedEvents: [Quake] = []
        for id in events.keys.sorted() {
            guard let write = events[id] else { continue }
            switch write {
            case let .store(quake):
                if isNewEvent(id) { newEvents.append(quake) } else { changedEvents.append(quake) }
            case let .setFeedTime(generated): prepared.feedTimes.append((id, generated))
            case .delete: prepared.deleted.append(id)
            }
        }
        prepared.newEvents = try Self.encoded(
            newEvents, for: Self.copyEvents(into: "quake"), types: PostgresColumns.copiedTypes, PostgresColumns.append)
        prepared.changedEvents = try Self.encoded(
            changedEvents, for: Self.copyEvents(into: "quake_staging"), types: PostgresColumns.copiedTypes,
            PostgresColumns.append)
        self.prepared = prepared
    }

    /// Writes what the batch decided, in bulk; every id is in one group only, so the order of the
    /// statements does not matter.
    mutating func flush() throws {
        // The store prepares every batch it decides; this is for a batch it did not.
        try prepare()
        // Taken out, so that each COPY's rows are held once and sent without a copy.
        guard var prepared = prepared.take() else { return }
        if let rows = prepared.newIdentities.take() { try connection.copy(encoded: rows) }
        if let rows = prepared.changedIdentities.take() {
            try connection.copy(encoded: rows)
            try connection.execute(
                """
                INSERT INTO identity (\(Self.identityColumns))
                SELECT \(Self.identityColumns) FROM identity_staging
                ON CONFLICT (id) DO UPDATE SET event = excluded.event, updated = excluded.updated,
                    generated = excluded.generated, digest = excluded.digest, deleted = excluded.deleted,
                    time = excluded.time, fingerprint = excluded.fingerprint
                """)
            try connection.execute("TRUNCATE identity_staging")
        }
        if let rows = prepared.newEvents.take() { try connection.copy(encoded: rows) }
        if let rows = prepared.changedEvents.take() {
            try connection.copy(encoded: rows)
            let columns = PostgresColumns.copiedList
            let assignments = PostgresColumns.copied.dropFirst().map { "\($0) = excluded.\($0)" }
            try connection.execute(
                """
                INSERT INTO quake (\(columns))
                SELECT \(columns) FROM quake_staging
                ON CONFLICT (id) DO UPDATE SET \(assignments.joined(separator: ", "))
                """)
            try connection.execute("TRUNCATE quake_staging")
        }
        let feedTimes = prepared.feedTimes
        if !feedTimes.isEmpty {
            var statement = PostgresStatement()
            let ids = statement.bind(array: feedTimes.map(\.id))
            let times = statement.bind(
                .text("{" + feedTimes.map { $0.generated.map(String.init) ?? "NULL" }.joined(separator: ",") + "}"),
                as: "bigint[]")
            try connection.execute(
                """
                UPDATE quake SET generated = later.generated FROM unnest(\(ids), \(times)) AS later (id, generated)
                WHERE quake.id = later.id
                """, statement.parameters)
        }
        if !prepared.deleted.isEmpty {
            var statement = PostgresStatement()
            let ids = statement.bind(array: prepared.deleted)
            try connection.execute("DELETE FROM quake WHERE id = ANY(\(ids))", statement.parameters)
        }
        // Only an id stored before the batch can have changed in an earlier batch of the ingest.
        try ledger.spill(into: history) { storedOwners[$0] != nil }
        owners = [:]
        events = [:]
        lookedUp = []
        storedOwners = [:]
        readAhead = [:]
        readAheadIDs = []
        unflushed = [:]
        previousFlush = nil
    }

    /// `rows` encoded for `sql`, a binary COPY of columns of `types`, each written by `append`;
    /// nil when there are none.
    private static func encoded<Row>(
        _ rows: [Row], for sql: String, types: [PostgresColumnType],
        _ append: (Row, inout PostgresCopyRows) throws(PostgresError) -> Void
    ) throws(PostgresError) -> PostgresCopyRows? {
        guard !rows.isEmpty else { return nil }
        var encoded = PostgresCopyRows(for: sql, format: .binary(types))
        for row in rows { try append(row, &encoded) }
        return encoded
    }

    private static func copyEvents(into table: String) -> String {
        "COPY \(table) (\(PostgresColumns.copiedList)) FROM STDIN"
    }

    private static func copyIdentity(into table: String) -> String {
        "COPY \(table) (\(identityColumns)) FROM STDIN"
    }

    /// The columns of `identity` a batch writes, in the order of `identityTypes` and `appendIdentity`.
    private static let identityColumns = "id, event, updated, generated, digest, deleted, time, fingerprint"

    /// The types of the columns `copyIdentity` names, in order.
    private static let identityTypes: [PostgresColumnType] = [
        .text, .text, .bigint, .bigint, .bigint, .integer, .bigint, .bigint,
    ]

    private static func appendIdentity(
        _ entry: (id: String, owner: IdentityOwner), to rows: inout PostgresCopyRows
    ) throws(PostgresError) {
        let (id, owner) = entry
        try rows.appendRow { rows throws(PostgresError) in
            try rows.appendField(id)
            try rows.appendField(owner.event)
            try rows.appendField(owner.version.updated)
            try rows.appendField(owner.version.generated)
            try rows.appendField(owner.version.digest)
            try rows.appendField(Int64(owner.isDeletion ? 1 : 0))
            try rows.appendField(owner.time)
            try rows.appendField(owner.fingerprint)
        }
    }
}
