import SQLite

/// The upsert of an ingest and the identity rules it follows, over prepared statements compiled
/// once per connection (through its statement cache). Every change is recorded in the history
/// transaction `token`.
///
/// Not `Sendable`: it belongs to the store actor, which makes one per batch.
struct IngestStatements {
    let upsert: Statement
    private let updateIfDifferent: Statement
    private let selectEvents: Statement
    private let selectAliases: Statement
    private let hasAliases: Statement
    private let deleteEvent: Statement
    private let deleteAliases: Statement
    private let insertAlias: Statement
    private let connection: Connection
    private let history: HistoryRecorder

    init(_ connection: Connection, history: HistoryRecorder) throws {
        self.connection = connection
        self.history = history
        upsert = try connection.statement(Self.upsertSQL)
        updateIfDifferent = try connection.statement(Self.updateIfDifferentSQL)
        selectEvents = try connection.statement(
            "SELECT id, updated, generated, ids FROM quake WHERE id IN (SELECT value FROM json_each(?1))")
        selectAliases = try connection.statement(
            "SELECT alias, id FROM quake_alias WHERE alias IN (SELECT value FROM json_each(?1))")
        hasAliases = try connection.statement("SELECT EXISTS (SELECT 1 FROM quake_alias)")
        deleteEvent = try connection.statement("DELETE FROM quake WHERE id = ?1")
        deleteAliases = try connection.statement("DELETE FROM quake_alias WHERE id = ?1")
        insertAlias = try connection.statement("INSERT OR REPLACE INTO quake_alias (alias, id) VALUES (?1, ?2)")
    }

    /// Upserts a batch of features, in order, following USGS's identity rules.
    ///
    /// Everything the batch needs to know of the store (the rows and aliases of every id it names)
    /// is read up front by a few set-based queries, and kept current as the batch is written: a
    /// statement per feature would cost more than the writes themselves.
    func apply(_ quakes: [Quake], arena: TextArena, counts: inout IngestCounts) throws {
        var known = try prefetch(quakes)
        for quake in quakes {
            try apply(quake, known: &known, arena: arena, counts: &counts)
        }
    }

    /// Upserts one feature.
    ///
    /// A feature is the same event as every stored event it shares an id with: its own id, an id
    /// in its `ids`, or an id in their `ids` (through `quake_alias`). The newest version wins (see
    /// `Version`) and one row remains, under the winner's id. A feature no newer than what is stored
    /// changes nothing; one with status `deleted` removes its event.
    private func apply(_ quake: Quake, known: inout KnownEvents, arena: TextArena, counts: inout IngestCounts) throws {
        let incoming = Version(updated: quake.updated, feedGenerated: quake.feedGenerated)
        let otherIDs = quake.otherIDs
        var matches: [StoredEvent] = []
        func addMatch(_ id: String) {
            guard let event = known.rows[id], !matches.contains(where: { $0.id == id }) else { return }
            matches.append(event)
        }
        addMatch(quake.id)
        if let owner = known.owners[quake.id], owner != quake.id { addMatch(owner) }
        for id in otherIDs {
            addMatch(id)
            if let owner = known.owners[id], owner != quake.id { addMatch(owner) }
        }

        if quake.isDeleted {
            guard !matches.isEmpty, matches.allSatisfy({ incoming > $0.version }) else {
                counts.unchanged += 1
                return
            }
            for event in matches { try delete(event.id, known: &known) }
            counts.deleted += 1
            return
        }
        guard !matches.isEmpty else {
            try write(quake, arena: arena, known: &known)
            try addAliases(otherIDs, for: quake.id, known: &known)
            try record(quake.id, existed: false, remains: true)
            counts.inserted += 1
            return
        }
        if matches.allSatisfy({ incoming > $0.version }) {
            let previous = matches.first { $0.id == quake.id }
            if matches.count == 1, let previous, previous.version.updated == incoming.updated {
                // Newer only by its feed: a change only if USGS rewrote something, such as the place.
                guard try rewriteIfDifferent(quake, arena: arena) else {
                    counts.unchanged += 1
                    return
                }
                known.rows[quake.id] = StoredEvent(quake)
            } else {
                for event in matches where event.id != quake.id { try delete(event.id, known: &known) }
                try write(quake, arena: arena, known: &known)
            }
            if previous?.ids != quake.ids {
                try removeAliases(of: quake.id, known: &known)
                try addAliases(otherIDs, for: quake.id, known: &known)
            }
            try record(quake.id, existed: previous != nil, remains: true)
            counts.updated += 1
        } else {
            // A stored version is at least as new: it stays, and absorbs any other stored versions
            // of the event this feature has just shown to be the same.
            let newest = matches.max { $0.version < $1.version }!
            let others = matches.filter { $0.id != newest.id }
            for event in others { try delete(event.id, known: &known) }
            if others.isEmpty { counts.unchanged += 1 } else { counts.updated += 1 }
        }
    }

    /// The rows and aliases of every id `quakes` name, and the rows their aliases point to.
    private func prefetch(_ quakes: [Quake]) throws -> KnownEvents {
        var known = KnownEvents()
        var ids: [String] = []
        ids.reserveCapacity(quakes.count)
        for quake in quakes {
            ids.append(quake.id)
            ids += quake.otherIDs
        }
        let list = Self.jsonArray(ids)
        try readRows(list, into: &known)
        defer { hasAliases.reset() }
        guard try hasAliases.step(), hasAliases.int64(at: 0) == 1 else { return known }
        try selectAliases.bind(list, at: 1)
        defer { selectAliases.reset() }
        while try selectAliases.step() {
            if let alias = selectAliases.string(at: 0), let owner = selectAliases.string(at: 1) {
                known.owners[alias] = owner
            }
        }
        let owners = Set(known.owners.values).filter { known.rows[$0] == nil }
        if !owners.isEmpty { try readRows(Self.jsonArray(Array(owners)), into: &known) }
        return known
    }

    /// Reads the rows of the ids in the JSON array `list`.
    private func readRows(_ list: String, into known: inout KnownEvents) throws {
        try selectEvents.bind(list, at: 1)
        defer { selectEvents.reset() }
        while try selectEvents.step() {
            guard let id = selectEvents.string(at: 0) else { continue }
            known.rows[id] = StoredEvent(
                id: id,
                version: Version(
                    updated: selectEvents.int64(at: 1),
                    feedGenerated: selectEvents.int64(at: 2)),
                ids: selectEvents.string(at: 3))
        }
    }

    /// `["a","b"]`, for `json_each`.
    private static func jsonArray(_ ids: [String]) -> String {
        var json = JSONBuffer(capacity: ids.count * 16)
        json.raw("[")
        for (index, id) in ids.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(id)
        }
        json.raw("]")
        return String(decoding: json.bytes, as: UTF8.self)
    }

    // MARK: - Statements

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

    private func write(_ quake: Quake, arena: TextArena, known: inout KnownEvents) throws {
        try QuakeColumns.bind(quake, to: upsert, arena: arena)
        try upsert.run()
        known.rows[quake.id] = StoredEvent(quake)
    }

    /// Rewrites the stored row of `quake` when its event data differs; returns true when it did.
    private func rewriteIfDifferent(_ quake: Quake, arena: TextArena) throws -> Bool {
        defer { updateIfDifferent.clearBindings() }
        try QuakeColumns.bind(quake, to: updateIfDifferent, arena: arena)
        try updateIfDifferent.run()
        return connection.changes > 0
    }

    private func delete(_ id: String, known: inout KnownEvents) throws {
        try deleteEvent.bind(id, at: 1)
        try deleteEvent.run()
        known.rows[id] = nil
        try removeAliases(of: id, known: &known)
        try record(id, existed: true, remains: false)
    }

    private func removeAliases(of id: String, known: inout KnownEvents) throws {
        try deleteAliases.bind(id, at: 1)
        try deleteAliases.run()
        guard connection.changes > 0 else { return }
        known.owners = known.owners.filter { $0.value != id }
    }

    private func addAliases(_ aliases: [String], for id: String, known: inout KnownEvents) throws {
        for alias in aliases {
            try insertAlias.bind(alias, at: 1)
            try insertAlias.bind(id, at: 2)
            try insertAlias.run()
            known.owners[alias] = id
        }
    }

    private func record(_ id: String, existed: Bool, remains: Bool) throws {
        try history.record(id, existed: existed, remains: remains)
    }
}

/// A stored event that is the same event as an incoming feature.
private struct StoredEvent {
    var id: String
    var version: Version
    var ids: String?
}

extension StoredEvent {
    /// The event as `quake` leaves it once written.
    init(_ quake: Quake) {
        self.init(
            id: quake.id, version: Version(updated: quake.updated, feedGenerated: quake.feedGenerated), ids: quake.ids)
    }
}

/// What the store holds of the ids a batch names: rows by id (an id missing here has no row), and
/// the event each alias belongs to. Kept current as the batch is written.
private struct KnownEvents {
    var rows: [String: StoredEvent] = [:]
    var owners: [String: String] = [:]
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
