import SQLite

/// The upsert of an ingest and the identity rules it follows, over prepared statements compiled
/// once per connection (through its statement cache). Every change is recorded in the history
/// transaction `token`.
///
/// Not `Sendable`: it belongs to the store actor, which makes one per batch.
struct IngestStatements {
    let upsert: Statement
    private let updateIfDifferent: Statement
    private let selectEvent: Statement
    private let selectAlias: Statement
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
        selectEvent = try connection.statement("SELECT updated, generated, ids FROM quake WHERE id = ?1")
        selectAlias = try connection.statement("SELECT id FROM quake_alias WHERE alias = ?1")
        deleteEvent = try connection.statement("DELETE FROM quake WHERE id = ?1")
        deleteAliases = try connection.statement("DELETE FROM quake_alias WHERE id = ?1")
        insertAlias = try connection.statement("INSERT OR REPLACE INTO quake_alias (alias, id) VALUES (?1, ?2)")
    }

    /// Upserts one feature, following USGS's identity rules.
    ///
    /// A feature is the same event as every stored event it shares an id with: its own id, an id
    /// in its `ids`, or an id in their `ids` (through `quake_alias`). The newest version wins (see
    /// `Version`) and one row remains, under the winner's id. A feature no newer than what is stored
    /// changes nothing; one with status `deleted` removes its event.
    func apply(_ quake: Quake, arena: TextArena, counts: inout IngestCounts) throws {
        let incoming = Version(updated: quake.updated, feedGenerated: quake.feedGenerated)
        let otherIDs = quake.allIDs.map(String.init).filter { $0 != quake.id }
        var matches: [StoredEvent] = []
        func addMatch(_ id: String) throws {
            guard !matches.contains(where: { $0.id == id }), let event = try storedEvent(id) else { return }
            matches.append(event)
        }
        try addMatch(quake.id)
        for id in [quake.id] + otherIDs {
            if id != quake.id { try addMatch(id) }
            if let owner = try aliasOwner(id), owner != quake.id { try addMatch(owner) }
        }

        if quake.isDeleted {
            guard !matches.isEmpty, matches.allSatisfy({ incoming > $0.version }) else {
                counts.unchanged += 1
                return
            }
            for event in matches { try delete(event.id) }
            counts.deleted += 1
            return
        }
        guard !matches.isEmpty else {
            try write(quake, arena: arena)
            try addAliases(otherIDs, for: quake.id)
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
            } else {
                for event in matches where event.id != quake.id { try delete(event.id) }
                try write(quake, arena: arena)
            }
            if previous?.ids != quake.ids {
                try removeAliases(of: quake.id)
                try addAliases(otherIDs, for: quake.id)
            }
            try record(quake.id, existed: previous != nil, remains: true)
            counts.updated += 1
        } else {
            // A stored version is at least as new: it stays, and absorbs any other stored versions
            // of the event this feature has just shown to be the same.
            let newest = matches.max { $0.version < $1.version }!
            let others = matches.filter { $0.id != newest.id }
            for event in others { try delete(event.id) }
            if others.isEmpty { counts.unchanged += 1 } else { counts.updated += 1 }
        }
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

    private func storedEvent(_ id: String) throws -> StoredEvent? {
        defer { selectEvent.reset() }
        try selectEvent.bind(id, at: 1)
        guard try selectEvent.step() else { return nil }
        return StoredEvent(id: id, version: Version(updated: selectEvent.int64(at: 0), feedGenerated: selectEvent.int64(at: 1)),
                           ids: selectEvent.string(at: 2))
    }

    private func aliasOwner(_ id: String) throws -> String? {
        defer { selectAlias.reset() }
        try selectAlias.bind(id, at: 1)
        guard try selectAlias.step() else { return nil }
        return selectAlias.string(at: 0)
    }

    private func write(_ quake: Quake, arena: TextArena) throws {
        try QuakeColumns.bind(quake, to: upsert, arena: arena)
        try upsert.run()
    }

    /// Rewrites the stored row of `quake` when its event data differs; returns true when it did.
    private func rewriteIfDifferent(_ quake: Quake, arena: TextArena) throws -> Bool {
        defer { updateIfDifferent.clearBindings() }
        try QuakeColumns.bind(quake, to: updateIfDifferent, arena: arena)
        try updateIfDifferent.run()
        return connection.changes > 0
    }

    private func delete(_ id: String) throws {
        try deleteEvent.bind(id, at: 1)
        try deleteEvent.run()
        try removeAliases(of: id)
        try record(id, existed: true, remains: false)
    }

    private func removeAliases(of id: String) throws {
        try deleteAliases.bind(id, at: 1)
        try deleteAliases.run()
    }

    private func addAliases(_ aliases: [String], for id: String) throws {
        for alias in aliases {
            try insertAlias.bind(alias, at: 1)
            try insertAlias.bind(id, at: 2)
            try insertAlias.run()
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
