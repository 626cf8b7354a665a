/// One write that changed the store, as the persistent history records it.
public struct HistoryTransaction: Sendable, Equatable {
    /// Strictly increasing, never reused, even after history is pruned.
    public var token: Int64
    /// When the transaction committed, in milliseconds since 1970 UTC.
    public var timestamp: Int64
    /// `fetch` (or a fetch's `--author`), `watch` or `prune`.
    public var author: String
    /// The URL a fetch read; nil for a prune.
    public var source: String?
    public var inserted: Int
    public var updated: Int
    public var deleted: Int
    /// Every changed event id and how it changed, when asked for.
    public var changes: [HistoryChange]?

    package init(
        token: Int64, timestamp: Int64, author: String, source: String?, inserted: Int, updated: Int, deleted: Int,
        changes: [HistoryChange]? = nil
    ) {
        self.token = token
        self.timestamp = timestamp
        self.author = author
        self.source = source
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.changes = changes
    }
}

/// How one event changed in a transaction. An event re-identified under a new id is a delete of the
/// old id and an insert (or update) of the new one.
public struct HistoryChange: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case insert, update, delete
    }

    public var id: String
    public var kind: Kind
    /// For a delete: the event that absorbed this one, when it was re-identified (another version
    /// named this id as its own).
    public var mergedInto: String?
    /// For an update, the fields it changed, old and new; for a delete, the deleted event's last
    /// values (its tombstone). Nil for an insert, and for changes recorded before the history kept
    /// fields.
    package var fields: [FieldChange]?

    package init(id: String, kind: Kind, mergedInto: String? = nil, fields: [FieldChange]? = nil) {
        self.id = id
        self.kind = kind
        self.mergedInto = mergedInto
        self.fields = fields
    }
}
