/// How recent a version of an event is: by `updated`, then by the time of the feed that carried it
/// (USGS rewrites a place name without touching `updated`), then by its digest, so that two
/// different versions are never equal and the newest of any set is the same whatever order they
/// came in. A missing time is older than any.
package struct EventVersion: Comparable, Hashable, Sendable {
    package var updated: Int64?
    package var generated: Int64?
    package var digest: Int64

    package init(updated: Int64?, generated: Int64?, digest: Int64) {
        self.updated = updated
        self.generated = generated
        self.digest = digest
    }

    package static func < (lhs: EventVersion, rhs: EventVersion) -> Bool {
        (lhs.updated ?? .min, lhs.generated ?? .min, lhs.digest) < (
            rhs.updated ?? .min, rhs.generated ?? .min, rhs.digest
        )
    }
}

/// The newest version that named an id, which decides the event the id belongs to.
package struct IdentityOwner: Equatable, Sendable {
    /// The version's own id.
    package var event: String
    package var version: EventVersion
    /// True when the version is a deletion (`status: deleted`).
    package var isDeletion: Bool
    /// The event's time, by which `prune` forgets old ids.
    package var time: Int64
    /// The `FeatureFingerprint` of the feature the version was decoded from, when it came from a
    /// feed: a feature with the same bytes is this very version, known without decoding it. Not
    /// part of what the rules decide, only of how fast they do it.
    package var fingerprint: Int64?

    package init(event: String, version: EventVersion, isDeletion: Bool, time: Int64, fingerprint: Int64? = nil) {
        self.event = event
        self.version = version
        self.isDeletion = isDeletion
        self.time = time
        self.fingerprint = fingerprint
    }

    /// True when this version owns `id` as its own: the event stored under `id`, or, for a
    /// deletion, its tombstone.
    package func isOwnVersion(of id: String) -> Bool {
        event == id
    }

    /// True when this owner of `id` is the tombstone of a deleted event: a deletion that owns its
    /// own id, remembered so that an older copy never brings the event back.
    package func isTombstone(of id: String) -> Bool {
        isDeletion && isOwnVersion(of: id)
    }

    /// True when `other` is the same version of the same event as this, but for the feed time
    /// (and the fingerprint) it came with.
    func differsOnlyInFeedTime(from other: IdentityOwner) -> Bool {
        event == other.event && version.updated == other.version.updated && version.digest == other.version.digest
            && isDeletion == other.isDeletion && time == other.time
    }
}

/// What the identity rules need of an engine: the owners of ids, and the writes they decide.
/// Every change of an event goes through `recordChange`, into the history.
package protocol IdentityStore {
    /// The owners of `ids`, for those that have one.
    func owners(of ids: [String]) throws -> [String: IdentityOwner]
    /// The event stored under `id` before the batch wrote it, whose values the history records
    /// when the batch replaces or deletes it; nil when none is, or when its values are not needed
    /// (a first load, whose every change is part of an insert). Asked only of an id the batch has
    /// not written yet, or one it inserted, whose answer then does not matter.
    func storedEvent(_ id: String) throws -> Quake?
    /// Makes `owner` the owner of each of `ids`.
    mutating func setOwner(_ owner: IdentityOwner, of ids: [String]) throws
    /// Stores `quake` under its id, in place of the event stored there if there is one; `prepared`,
    /// when the decoder made it, is the same event in the store's own form (`EventPreparation`),
    /// which it may write from instead.
    mutating func writeEvent(_ quake: Quake, prepared: (any AnyObject & Sendable)?) throws
    /// Sets the feed time of the event stored under `id`, whose data did not change.
    mutating func setFeedTime(_ generated: Int64?, ofEvent id: String) throws
    /// The version that owns `ids` came again, from a later feed: each takes `owner`, which differs
    /// from what it holds only by its feed time, and so does the event stored under `owner.event`.
    /// What a re-ingest of a newer feed with unchanged events does to every feature, which a store
    /// may write in bulk when the batch ends.
    mutating func refreshFeedTime(_ owner: IdentityOwner, of ids: [String]) throws
    mutating func deleteEvent(_ id: String) throws
    /// Notes a change of the event stored under `id`: whether it existed before and remains after,
    /// the event it was merged into when another took its id, and the fields it changed, or for a
    /// deletion the tombstone it left (nil when the values are not known).
    mutating func recordChange(
        _ id: String, existed: Bool, remains: Bool, mergedInto: String?, fields: [FieldChange]?) throws
}

/// USGS's identity rules, written once for every engine.
///
/// An event has several ids: its own, and the others in its `ids` (an event re-identified under a
/// new preferred id lists the old one). Every id belongs to the newest version that named it, and
/// an event is stored under an id when the version that owns the id is its own version: then the
/// stored row is that version, or, when it is a deletion, a tombstone. So the result depends only
/// on the set of versions seen, never on the order of fetches: each id keeps the newest of what
/// named it, which is a maximum, and a maximum does not care about order. A version that takes an
/// id stored as an event of its own absorbs that event (merged into it, in the history).
package enum IdentityRules {
    /// Applies a batch of features, in order, to the store; `owners` holds the owners of every id
    /// the batch names (`IngestBatch.namedIDs`), and is kept current.
    ///
    /// A skimmed feature whose fingerprint is that of the version owning its id is that version,
    /// come again: its digest is the owner's, so the rules run on it undecoded, and as the stored
    /// version is its own, they can only leave it be or give it a later feed time, never write
    /// its data. Any other skimmed feature is decoded here first.
    ///
    /// The stored event a write replaces or deletes is read when it happens (`storedEvent`), so that
    /// the history records its values; a re-ingest of what is stored, or of new events, reads none.
    package static func apply(
        _ batch: IngestBatch, owners: inout [String: IdentityOwner], to store: inout some IdentityStore
    ) throws -> IngestOutcome {
        var outcome = IngestOutcome()
        var replaced: [String: Quake] = [:]
        // By index, each feature read in place: a loop over the features copied each whole.
        for index in batch.features.indices {
            switch batch.features[index] {
            case let .decoded(feature):
                try apply(feature, owners: &owners, replaced: &replaced, to: &store, counting: &outcome)
            case let .skimmed(skim, element):
                if let stored = owners[skim.id], stored.isOwnVersion(of: skim.id), !stored.isDeletion,
                    stored.fingerprint == skim.fingerprint
                {
                    outcome.recognised += 1
                    if skim.otherIDs.isEmpty, stored.version.generated == skim.generated {
                        // The very version stored, from a feed of the same time, naming no other id:
                        // the rules would find it no newer than what they hold, and leave it be.
                        outcome.counts.unchanged += 1
                        continue
                    }
                    let incoming = IdentityOwner(
                        event: skim.id,
                        version: EventVersion(
                            updated: stored.version.updated, generated: skim.generated, digest: stored.version.digest),
                        isDeletion: false, time: stored.time, fingerprint: skim.fingerprint)
                    let changed = try apply(
                        incoming, naming: skim.namedIDs, ownIDOwner: stored, data: nil, owners: &owners,
                        replaced: &replaced, to: &store)
                    outcome.counts += IngestCounts(changed: changed ? 1 : 0, unchanged: changed ? 0 : 1)
                    continue
                }
                switch try batch.decode(element: element) {
                case let .usable(feature):
                    try apply(feature, owners: &owners, replaced: &replaced, to: &store, counting: &outcome)
                case let .unusable(problem): outcome.problems.append(problem)
                }
            }
        }
        return outcome
    }

    /// The ids of stored events that `batch` may replace or delete: every id a feature names that
    /// is stored as an event of its own, but the own id of a feature that is the stored version,
    /// come again (same fingerprint), which the rules never write. A batch of new events, or of the
    /// versions stored, has none. For an engine that reads them ahead, in one query, rather than
    /// one at a time (`storedEvent`).
    package static func replaceableIDs(_ batch: IngestBatch, owners: [String: IdentityOwner]) -> [String] {
        guard !owners.isEmpty else { return [] }
        var ids: [String] = []
        // Each feature's ids from `namedIDs`, which holds them already, its own first.
        let starts = batch.namedIDStarts
        for index in batch.features.indices {
            let fingerprint: Int64? =
                switch batch.features[index] {
                case let .decoded(feature): feature.fingerprint
                case let .skimmed(skim, _): skim.fingerprint
                }
            let end = index + 1 < starts.count ? starts[index + 1] : batch.namedIDs.count
            for position in starts[index]..<end {
                let id = batch.namedIDs[position]
                guard let owner = owners[id], owner.isOwnVersion(of: id), !owner.isDeletion else { continue }
                if position == starts[index], fingerprint != nil, owner.fingerprint == fingerprint { continue }
                ids.append(id)
            }
        }
        return ids
    }

    /// Applies a decoded feature of a batch to the store, and counts what it did in `outcome`: a
    /// feature whose fingerprint is that of the version owning its id is recognised.
    private static func apply(
        _ feature: IngestBatch.DecodedFeature, owners: inout [String: IdentityOwner],
        replaced: inout [String: Quake], to store: inout some IdentityStore,
        counting outcome: inout IngestOutcome
    ) throws {
        let quake = feature.quake
        let stored = owners[quake.id]
        if let fingerprint = feature.fingerprint, stored?.fingerprint == fingerprint {
            outcome.recognised += 1
        }
        let incoming = IdentityOwner(
            event: quake.id,
            version: EventVersion(updated: quake.updated, generated: quake.feedGenerated, digest: feature.digest),
            isDeletion: quake.isDeleted, time: quake.time, fingerprint: feature.fingerprint)
        let changed = try apply(
            incoming, naming: quake.namedIDs, ownIDOwner: stored, data: feature, owners: &owners,
            replaced: &replaced, to: &store)
        outcome.counts += IngestCounts(changed: changed ? 1 : 0, unchanged: changed ? 0 : 1)
    }

    /// Applies the version `incoming`, which names the ids `named` (its own first), to the store;
    /// `owners` holds the owners of every id it names, and is kept current, and `ownIDOwner` is
    /// what it holds for the version's own id, read already by the caller. `data` is the decoded
    /// feature, nil only when the stored event is this version already (same digest), which the
    /// rules then never write. `replaced` holds, for each event the batch replaced or deleted, its
    /// version now (the deleted one, for a deletion), for the history's fields. Returns true when
    /// an event was inserted, changed or removed.
    private static func apply(
        _ incoming: IdentityOwner, naming named: [String], ownIDOwner: IdentityOwner?,
        data: IngestBatch.DecodedFeature?,
        owners: inout [String: IdentityOwner], replaced: inout [String: Quake], to store: inout some IdentityStore
    ) throws -> Bool {
        let ownID = incoming.event
        assert(named.first == ownID, "a version's own id is the first it names")
        var won: [(id: String, previous: IdentityOwner?)] = []
        for (index, id) in named.enumerated() {
            let previous = index == 0 ? ownIDOwner : owners[id]
            if let previous, previous.version >= incoming.version { continue }
            won.append((id, previous))
        }
        guard !won.isEmpty else {
            // The very version stored, from a feed of the same time: only a fingerprint the stored
            // version lacks (a row older than fingerprints) is worth writing, for the next re-ingest.
            if let fingerprint = incoming.fingerprint, let stored = ownIDOwner, stored.fingerprint != fingerprint,
                stored.version == incoming.version, stored.differsOnlyInFeedTime(from: incoming)
            {
                try store.setOwner(incoming, of: [ownID])
                owners[ownID] = incoming
            }
            return false
        }
        // The same data from a later feed, every id it names held by the stored version: the rows
        // remember the newest feed that carried it (below, one feature at a time; here, in bulk).
        if let own = won.first, own.id == ownID, let stored = own.previous, stored.isOwnVersion(of: ownID),
            !stored.isDeletion, stored.fingerprint == incoming.fingerprint,
            won.allSatisfy({ $0.previous?.differsOnlyInFeedTime(from: incoming) == true })
        {
            try store.refreshFeedTime(incoming, of: won.map(\.id))
            for (id, _) in won { owners[id] = incoming }
            return false
        }
        try store.setOwner(incoming, of: won.map(\.id))
        for (id, _) in won { owners[id] = incoming }

        var changed = false
        if let own = won.first(where: { $0.id == ownID }) {
            let stored = own.previous.map { $0.isOwnVersion(of: ownID) && !$0.isDeletion } ?? false
            if incoming.isDeletion {
                if stored {
                    let previous = try previousVersion(of: ownID, replaced: &replaced, in: store)
                    try store.deleteEvent(ownID)
                    try store.recordChange(
                        ownID, existed: true, remains: false, mergedInto: nil,
                        fields: previous.map(FieldChange.tombstone))
                    changed = true
                }
            } else if stored, own.previous?.version.digest == incoming.version.digest {
                // The same data from a later feed: the row remembers the newest feed that carried it.
                try store.setFeedTime(incoming.version.generated, ofEvent: ownID)
            } else {
                // Only a version whose data is stored already comes without it (`apply(_:owners:to:)`),
                // and that one took the branch above.
                guard let data else { preconditionFailure("a version to write without its data") }
                // What it replaces, read before it is written; a new event, or one brought back
                // after a deletion, has no fields (`HistoryLedger.Entry.follow(with:)`).
                var fields: [FieldChange]?
                if stored, let previous = try previousVersion(of: ownID, replaced: &replaced, in: store) {
                    fields = FieldChange.between(previous, data.quake)
                    replaced[ownID] = data.quake
                }
                try store.writeEvent(data.quake, prepared: data.prepared)
                try store.recordChange(ownID, existed: stored, remains: true, mergedInto: nil, fields: fields)
                changed = true
            }
        }
        // Events stored under the other ids it took are this event now: absorbed by the stored event
        // its id leads to, or, for a deletion, deleted with it.
        let absorbed = won.filter { id, previous in
            id != ownID && previous.map { $0.isOwnVersion(of: id) && !$0.isDeletion } == true
        }
        guard !absorbed.isEmpty else { return changed }
        let survivor = incoming.isDeletion ? nil : try storedEvent(named: ownID, owners: &owners, store: store)
        for (id, _) in absorbed {
            let previous = try previousVersion(of: id, replaced: &replaced, in: store)
            try store.deleteEvent(id)
            try store.recordChange(
                id, existed: true, remains: false, mergedInto: survivor, fields: previous.map(FieldChange.tombstone))
        }
        return true
    }

    /// The version of the event stored under `id` that a write is about to replace or delete: the
    /// batch's own, when it wrote one, else the store's, kept in `replaced` from then on.
    private static func previousVersion(
        of id: String, replaced: inout [String: Quake], in store: some IdentityStore
    ) throws -> Quake? {
        if let quake = replaced[id] { return quake }
        let stored = try store.storedEvent(id)
        replaced[id] = stored
        return stored
    }

    /// The id of the stored event that `id` leads to, following owners (a re-identified id to the
    /// version that named it, that version's id to its own owner…), or nil when it ends at a
    /// tombstone or at an id no stored event claims.
    static func storedEvent(named id: String, owners: inout [String: IdentityOwner], store: some IdentityStore)
        throws -> String?
    {
        var current = id
        var visited: Set<String> = []
        while visited.insert(current).inserted {
            if owners[current] == nil, let found = try store.owners(of: [current])[current] { owners[current] = found }
            guard let owner = owners[current] else { return nil }
            if owner.isOwnVersion(of: current) { return owner.isDeletion ? nil : current }
            current = owner.event
        }
        return nil
    }
}
