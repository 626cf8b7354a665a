/// What prune's rule needs of an engine (`IdentityRules.prune(before:at:in:dryRun:)`): the events
/// and the owners older than a moment, counted and forgotten.
package protocol PruningStore {
    /// How many stored events happened before `cutoff`.
    func countEvents(before cutoff: Int64) throws -> Int
    /// How many owners of events that happened before `cutoff` are tombstones
    /// (`IdentityOwner.isTombstone(of:)`).
    func countTombstones(before cutoff: Int64) throws -> Int
    /// Deletes the stored events that happened before `cutoff`, as one history transaction of
    /// `author` at `timestamp`, and gives its token.
    mutating func deleteEvents(before cutoff: Int64, author: String, timestamp: Int64) throws -> Int64?
    /// Forgets the owner of every id whose owning version is of an event that happened before `cutoff`.
    mutating func forgetOwners(before cutoff: Int64) throws
}

extension IdentityRules {
    /// The author the history records for a prune.
    package static let pruneAuthor = "prune"

    /// Prune's rule, for every engine: the events that happened before `cutoff` go, each a deletion
    /// in one history transaction, and so does every id whose newest version is of an event that
    /// old, tombstones among them, so that a copy fetched again is new. Tombstones are not events:
    /// forgetting only them records no history. With `dryRun`, only counts.
    package static func prune(
        before cutoff: Int64, at timestamp: Int64, in store: inout some PruningStore, dryRun: Bool
    ) throws -> PruneResult {
        var result = PruneResult()
        result.events = try store.countEvents(before: cutoff)
        result.tombstones = try store.countTombstones(before: cutoff)
        guard !dryRun, result.events + result.tombstones > 0 else { return result }
        if result.events > 0 {
            result.token = try store.deleteEvents(before: cutoff, author: pruneAuthor, timestamp: timestamp)
        }
        try store.forgetOwners(before: cutoff)
        return result
    }
}
