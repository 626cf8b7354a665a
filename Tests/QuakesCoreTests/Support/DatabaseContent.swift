import Foundation
import SQLite

/// Every row of every table of a database (the view `quake_alias` too), to compare what two
/// databases hold, or what one held before a process died.
struct DatabaseContent: Equatable {
    /// The tables of the current schema, and the view.
    static let allTables = ["quake", "identity", "quake_alias", "history_transaction", "history_change", "feed_state"]
    /// What the order of fetches may change by design: the history records the order, and the
    /// feed state when each source was fetched.
    static let orderIndependentTables = ["quake", "identity", "quake_alias"]

    var tables: [String: [[String]]]

    init(path: String, tables names: [String] = allTables) throws {
        let connection = try Connection(path: path, mode: .readOnly)
        tables = [:]
        for table in names {
            let statement = try connection.prepare("SELECT * FROM \(table) ORDER BY 1, 2")
            var rows: [[String]] = []
            while try statement.step() {
                rows.append((0..<statement.columnCount).map { statement.string(at: $0) ?? "NULL" })
            }
            tables[table] = rows
        }
    }

    /// Everything but the feed state: what a fetch that changed no event must leave as it was
    /// (it records only when it checked the source).
    static func exceptFeedState(_ path: String) throws -> DatabaseContent {
        try DatabaseContent(path: path, tables: allTables.filter { $0 != "feed_state" })
    }

    /// `PRAGMA integrity_check`: "ok" when the file is sound.
    static func integrity(of path: String) throws -> String? {
        try Connection(path: path, mode: .readOnly).pragma("integrity_check")
    }
}
