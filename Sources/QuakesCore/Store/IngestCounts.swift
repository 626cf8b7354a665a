/// What storing a set of features did, one count per feature.
public struct IngestCounts: Sendable, Equatable {
    /// Features of events that were not stored under any of their ids.
    public var inserted = 0
    /// Features newer than the stored event, which they replaced (under the same id or a new one).
    public var updated = 0
    /// Features no newer than the stored event, which was left alone.
    public var unchanged = 0
    /// Features with status `deleted` that removed their stored event.
    public var deleted = 0

    public init(inserted: Int = 0, updated: Int = 0, unchanged: Int = 0, deleted: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.deleted = deleted
    }

    /// Every feature counted.
    public var total: Int { inserted + updated + unchanged + deleted }

    public static func += (lhs: inout IngestCounts, rhs: IngestCounts) {
        lhs.inserted += rhs.inserted
        lhs.updated += rhs.updated
        lhs.unchanged += rhs.unchanged
        lhs.deleted += rhs.deleted
    }
}
