import SQLite

/// What a database holds and how current it is: what `quakes status` reports.
struct DatabaseStatus: Sendable {
    /// The database file.
    var path: String
    var schemaVersion: Int32
    /// Stored events.
    var events: Int
    /// Deleted events that are remembered, so that an older copy never brings them back.
    var tombstones: Int
    /// The time of the oldest and of the newest stored event.
    var earliest: Int64?
    var latest: Int64?
    /// The event that happened last.
    var newest: Quake?
    /// The newest history token (0 before the first write).
    var lastToken: Int64
    /// Every source fetched into it, and when a fetch of each last succeeded.
    var sources: [FeedState]

    /// The moment a fetch last succeeded, any source: a stored download or a 304 alike.
    var lastSuccess: Int64? {
        sources.compactMap(\.checked).max()
    }

    /// Reads the status of the database at `path`, read-only.
    static func read(_ path: String) throws -> DatabaseStatus {
        do {
            let connection = try DatabaseFile.openForReading(at: path)
            try connection.begin(.deferred)  // One snapshot for every figure.
            defer { try? connection.rollback() }
            func integer(_ sql: String) throws -> Int64? {
                let statement = try connection.prepare(sql)
                _ = try statement.step()
                return statement.int64(at: 0)
            }
            let newest = try connection.prepare(
                "SELECT \(QuakeColumns.list) FROM quake ORDER BY time DESC, id ASC LIMIT 1")
            let sources = try connection.prepare(
                "SELECT url, etag, last_modified, fetched, checked, outcome FROM feed_state ORDER BY url")
            var states: [FeedState] = []
            while try sources.step() {
                states.append(
                    FeedState(
                        url: sources.string(at: 0) ?? "", etag: sources.string(at: 1),
                        lastModified: sources.string(at: 2), fetched: sources.int64(at: 3) ?? 0,
                        checked: sources.int64(at: 4), outcome: sources.string(at: 5)))
            }
            return DatabaseStatus(
                path: path, schemaVersion: try connection.userVersion(),
                events: Int(try integer("SELECT count(*) FROM quake") ?? 0),
                tombstones: Int(try integer("SELECT count(*) FROM identity WHERE id = event AND deleted = 1") ?? 0),
                earliest: try integer("SELECT min(time) FROM quake"),
                latest: try integer("SELECT max(time) FROM quake"),
                newest: try newest.step() ? QuakeColumns.quake(from: newest) : nil,
                lastToken: try HistoryReader.lastToken(on: connection), sources: states)
        } catch let error as SQLiteError {
            throw StoreError(path: path, error)
        }
    }
}
