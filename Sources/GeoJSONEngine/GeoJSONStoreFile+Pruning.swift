import QuakesCore

/// A prune of the store held in memory, by the rule of `IdentityRules.prune(before:at:in:dryRun:)`.
extension GeoJSONStoreFile: PruningStore {
    package func countEvents(before cutoff: Int64) -> Int {
        events.values.reduce(0) { $0 + ($1.time < cutoff ? 1 : 0) }
    }

    package func countTombstones(before cutoff: Int64) -> Int {
        owners.reduce(0) { $0 + ($1.value.time < cutoff && $1.value.isTombstone(of: $1.key) ? 1 : 0) }
    }

    /// The file keeps no transactions, only the last token, which the prune's takes.
    package mutating func deleteEvents(before cutoff: Int64, author: String, timestamp: Int64) -> Int64? {
        events = events.filter { $0.value.time >= cutoff }
        lastToken += 1
        return lastToken
    }

    package mutating func forgetOwners(before cutoff: Int64) {
        owners = owners.filter { $0.value.time >= cutoff }
    }
}
