import Foundation
import PostgreSQL
import SQLite

/// Every row of every table of a database (the view `quake_alias` too), to compare what two
/// databases of one engine hold, or what one held before a process died. Both engines have the
/// same tables; a value is compared as the engine writes it as text.
struct DatabaseContent: Equatable {
    /// The tables of the current schema, and the view.
    static let allTables = ["quake", "identity", "quake_alias", "history_transaction", "history_change", "feed_state"]
    /// What the order of fetches may change by design: the history records the order, and the
    /// feed state when each source was fetched.
    static let orderIndependentTables = ["quake", "identity", "quake_alias"]

    var tables: [String: [[String]]]

    /// The content of the database at `path`: an SQLite file, or a `postgresql://` URI.
    init(path: String, tables names: [String] = allTables) throws {
        tables = [:]
        if path.hasPrefix("postgresql://") {
            let connection = try PostgresConnection(uri: path)
            for table in names {
                let result = try connection.execute("SELECT * FROM \(table) ORDER BY 1, 2")
                tables[table] = (0..<result.rowCount).map { row in
                    (0..<result.columnCount).map { result.string(row: row, column: $0) ?? "NULL" }
                }
            }
            return
        }
        let connection = try Connection(path: path, mode: .readOnly)
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

    /// `PRAGMA integrity_check` of an SQLite file: "ok" when the file is sound.
    static func integrity(of path: String) throws -> String? {
        try Connection(path: path, mode: .readOnly).pragma("integrity_check")
    }
}
