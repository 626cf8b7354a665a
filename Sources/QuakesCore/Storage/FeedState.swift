/// What the store keeps of a source: the validators of its last response, sent back as
/// `If-None-Match` and `If-Modified-Since`, and when a fetch of it last succeeded.
public struct FeedState: Sendable, Equatable {
    public var url: String
    public var etag: String?
    public var lastModified: String?
    /// When the last response with a body came, in milliseconds since 1970.
    public var fetched: Int64
    /// When a fetch of it last succeeded, a stored download or a 304 Not Modified alike.
    public var checked: Int64?
    /// How that fetch ended: `ok` (stored) or `not-modified`; for a backfill's or a sync's plan,
    /// `running` or `complete`.
    public var outcome: String?
    /// Where a source read in many requests stands (a backfill's windows, a sync's cursor), as the
    /// JSON text its command reads back: saved in the same transaction as the events of each
    /// request, so that an interrupted command goes on exactly where it stopped.
    public var progress: String?

    public init(
        url: String, etag: String?, lastModified: String?, fetched: Int64, checked: Int64? = nil,
        outcome: String? = nil, progress: String? = nil
    ) {
        self.url = url
        self.etag = etag
        self.lastModified = lastModified
        self.fetched = fetched
        self.checked = checked
        self.outcome = outcome
        self.progress = progress
    }
}
