/// What `prune` deleted, or would delete.
public struct PruneResult: Sendable, Equatable {
    /// Events older than the cutoff.
    public var events = 0
    /// Tombstones of deleted events older than the cutoff.
    public var tombstones = 0
    /// History transactions older than the history cutoff.
    public var transactions = 0
    /// The history token of the prune, when it deleted events.
    public var token: Int64?

    package init() {}
}
