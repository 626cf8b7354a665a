/// What storing a set of features did, one count per feature.
///
/// How events changed (inserted, updated, deleted, merged) is counted per event id by the history
/// transaction (`StoreCommit`), which is what the fetch summary reports; these count features.
public struct IngestCounts: Sendable, Equatable {
    /// Features that inserted, changed or removed an event.
    public var changed = 0
    /// Features that changed no event: an equal or older copy of what is stored.
    public var unchanged = 0

    public init(changed: Int = 0, unchanged: Int = 0) {
        self.changed = changed
        self.unchanged = unchanged
    }

    /// Every feature counted.
    public var total: Int { changed + unchanged }

    public static func += (lhs: inout IngestCounts, rhs: IngestCounts) {
        lhs.changed += rhs.changed
        lhs.unchanged += rhs.unchanged
    }
}
