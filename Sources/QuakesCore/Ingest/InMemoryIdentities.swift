/// The events and the owners of their ids, held in memory, changed by `IdentityRules` as an
/// engine's tables are: the write side of a store that is read whole and written whole (a GeoJSON
/// file), and, beside the SQL engines, a second implementation of where the rules lead.
package struct InMemoryIdentities: IdentityStore, Sendable {
    /// The stored events, by id.
    package private(set) var events: [String: Quake]
    /// The owner of every id any version named; a deletion that owns its own id is a tombstone.
    package private(set) var owners: [String: IdentityOwner]
    /// What changed since the last `takeChanges()`.
    private var ledger = HistoryLedger()

    package init(events: [String: Quake] = [:], owners: [String: IdentityOwner] = [:]) {
        self.events = events
        self.owners = owners
    }

    /// Applies features in order, as a fetch applies its batches, `digests` their `QuakeDigest`s
    /// when the caller computed them already; returns how many changed an event.
    @discardableResult
    package mutating func apply(_ quakes: [Quake], digests: [Int64]? = nil) -> Int {
        // Nothing here throws: the batch holds no skimmed feature to decode, and the store's
        // methods only change dictionaries.
        (try? apply(IngestBatch(quakes, digests: digests)))?.counts.changed ?? 0
    }

    /// Applies a batch, as a fetch does; throws only when decoding a skimmed feature does.
    package mutating func apply(_ batch: IngestBatch) throws -> IngestOutcome {
        var current = owners(of: batch.namedIDs)
        return try IdentityRules.apply(batch, owners: &current, to: &self)
    }

    /// Deleted events that are remembered: ids owned by their own deletion.
    package var tombstones: Int {
        owners.reduce(0) { $0 + ($1.value.isTombstone(of: $1.key) ? 1 : 0) }
    }

    /// The net changes recorded since the last call, for the history: the ledger holds them all,
    /// as memory is where this store keeps everything anyway.
    package mutating func takeChanges() -> [HistoryLedger.Entry] {
        defer { ledger = HistoryLedger() }
        return ledger.entriesSoFar
    }

    // MARK: - IdentityStore

    package func owners(of ids: [String]) -> [String: IdentityOwner] {
        var found: [String: IdentityOwner] = [:]
        for id in ids { if let owner = owners[id] { found[id] = owner } }
        return found
    }

    package func storedEvent(_ id: String) -> Quake? {
        events[id]
    }

    package mutating func setOwner(_ owner: IdentityOwner, of ids: [String]) {
        for id in ids { owners[id] = owner }
    }

    package mutating func writeEvent(_ quake: Quake, prepared: (any AnyObject & Sendable)?) {
        events[quake.id] = quake
    }

    package mutating func setFeedTime(_ generated: Int64?, ofEvent id: String) {
        events[id]?.feedGenerated = generated
    }

    package mutating func refreshFeedTime(_ owner: IdentityOwner, of ids: [String]) {
        setOwner(owner, of: ids)
        setFeedTime(owner.version.generated, ofEvent: owner.event)
    }

    package mutating func deleteEvent(_ id: String) {
        events[id] = nil
    }

    package mutating func recordChange(
        _ id: String, existed: Bool, remains: Bool, mergedInto: String?, fields: [FieldChange]?
    ) {
        ledger.record(id, existed: existed, remains: remains, mergedInto: mergedInto, fields: fields)
    }
}
