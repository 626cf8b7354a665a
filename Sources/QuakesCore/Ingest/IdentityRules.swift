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

    package init(event: String, version: EventVersion, isDeletion: Bool, time: Int64) {
        self.event = event
        self.version = version
        self.isDeletion = isDeletion
        self.time = time
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
}

/// What the identity rules need of an engine: the owners of ids, and the writes they decide.
/// Every change of an event goes through `recordChange`, into the history.
package protocol IdentityStore {
    /// The owners of `ids`, for those that have one.
    func owners(of ids: [String]) throws -> [String: IdentityOwner]
    /// Makes `owner` the owner of each of `ids`.
    mutating func setOwner(_ owner: IdentityOwner, of ids: [String]) throws
    /// Stores `quake` under its id, in place of the event stored there if there is one.
    mutating func writeEvent(_ quake: Quake) throws
    /// Sets the feed time of the event stored under `id`, whose data did not change.
    mutating func setFeedTime(_ generated: Int64?, ofEvent id: String) throws
    mutating func deleteEvent(_ id: String) throws
    /// Notes a change of the event stored under `id`: whether it existed before and remains after,
    /// and the event it was merged into when another took its id.
    mutating func recordChange(_ id: String, existed: Bool, remains: Bool, mergedInto: String?) throws
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
    /// Every id the features of a batch name: those whose owners an engine reads, in one query,
    /// before it applies the batch.
    package static func ids(namedBy quakes: [Quake]) -> [String] {
        var ids: [String] = []
        ids.reserveCapacity(quakes.count)
        for quake in quakes {
            ids.append(quake.id)
            ids += quake.otherIDs
        }
        return ids
    }

    /// Applies one feature, `digest` its `QuakeDigest`, to the store; `owners` holds the owners of
    /// every id the feature names, and is kept current. Returns true when an event was inserted,
    /// changed or removed.
    package static func apply(
        _ quake: Quake, digest: Int64, owners: inout [String: IdentityOwner],
        to store: inout some IdentityStore
    ) throws -> Bool {
        let incoming = IdentityOwner(
            event: quake.id,
            version: EventVersion(updated: quake.updated, generated: quake.feedGenerated, digest: digest),
            isDeletion: quake.isDeleted, time: quake.time)
        var named = [quake.id]
        for id in quake.otherIDs where !named.contains(id) { named.append(id) }
        var won: [(id: String, previous: IdentityOwner?)] = []
        for id in named {
            let previous = owners[id]
            if let previous, previous.version >= incoming.version { continue }
            won.append((id, previous))
        }
        guard !won.isEmpty else { return false }
        try store.setOwner(incoming, of: won.map(\.id))
        for (id, _) in won { owners[id] = incoming }

        var changed = false
        if let own = won.first(where: { $0.id == quake.id }) {
            let stored = own.previous.map { $0.isOwnVersion(of: quake.id) && !$0.isDeletion } ?? false
            if incoming.isDeletion {
                if stored {
                    try store.deleteEvent(quake.id)
                    try store.recordChange(quake.id, existed: true, remains: false, mergedInto: nil)
                    changed = true
                }
            } else if stored, own.previous?.version.digest == digest {
                // The same data from a later feed: the row remembers the newest feed that carried it.
                try store.setFeedTime(quake.feedGenerated, ofEvent: quake.id)
            } else {
                try store.writeEvent(quake)
                try store.recordChange(quake.id, existed: stored, remains: true, mergedInto: nil)
                changed = true
            }
        }
        // Events stored under the other ids it took are this event now: absorbed by the stored event
        // its id leads to, or, for a deletion, deleted with it.
        let absorbed = won.filter { id, previous in
            id != quake.id && previous.map { $0.isOwnVersion(of: id) && !$0.isDeletion } == true
        }
        guard !absorbed.isEmpty else { return changed }
        let survivor = incoming.isDeletion ? nil : try storedEvent(named: quake.id, owners: &owners, store: store)
        for (id, _) in absorbed {
            try store.deleteEvent(id)
            try store.recordChange(id, existed: true, remains: false, mergedInto: survivor)
        }
        return true
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
