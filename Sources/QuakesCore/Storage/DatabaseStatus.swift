/// What a database holds and how current it is: what `quakes status` reports.
package struct DatabaseStatus: Sendable {
    /// The database: its file, or its server's URI without the password.
    package var path: String
    package var schemaVersion: Int32
    /// Stored events.
    package var events: Int
    /// Deleted events that are remembered, so that an older copy never brings them back.
    package var tombstones: Int
    /// The time of the oldest and of the newest stored event.
    package var earliest: Int64?
    package var latest: Int64?
    /// The event that happened last.
    package var newest: Quake?
    /// The newest history token (0 before the first write).
    package var lastToken: Int64
    /// Every source fetched into it, and when a fetch of each last succeeded.
    package var sources: [FeedState]

    package init(
        path: String, schemaVersion: Int32, events: Int, tombstones: Int, earliest: Int64?, latest: Int64?,
        newest: Quake?, lastToken: Int64, sources: [FeedState]
    ) {
        self.path = path
        self.schemaVersion = schemaVersion
        self.events = events
        self.tombstones = tombstones
        self.earliest = earliest
        self.latest = latest
        self.newest = newest
        self.lastToken = lastToken
        self.sources = sources
    }

    /// True for a database that holds nothing yet: no event, no tombstone, no history, no source.
    package var holdsNothing: Bool {
        events == 0 && tombstones == 0 && lastToken == 0 && sources.isEmpty
    }

    /// The moment a fetch last succeeded, any source: a stored download or a 304 alike.
    package var lastSuccess: Int64? {
        sources.compactMap(\.checked).max()
    }
}
