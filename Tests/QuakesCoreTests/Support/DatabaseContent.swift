import Foundation
import PostgreSQL
import SQLite

@testable import GeoJSONEngine
@testable import QuakesCore

/// Every row of every table of a database (the view `quake_alias` too), to compare what two
/// databases of one engine hold, or what one held before a process died. The SQL engines have the
/// same tables, and a GeoJSON-file store is read as those tables; a value is compared as the
/// engine writes it as text.
struct DatabaseContent: Equatable {
    /// The tables of the current schema, and the view.
    static let allTables = ["quake", "identity", "quake_alias", "history_transaction", "history_change", "feed_state"]
    /// What the order of fetches may change by design: the history records the order, and the
    /// feed state when each source was fetched.
    static let orderIndependentTables = ["quake", "identity", "quake_alias"]

    var tables: [String: [[String]]]

    /// The content of the database at `path`: an SQLite file, a `postgresql://` URI, or a GeoJSON file.
    init(path: String, tables names: [String] = allTables) throws {
        tables = [:]
        if path.hasSuffix(".geojson") {
            tables = try Self.tables(ofStore: path).filter { names.contains($0.key) }
            return
        }
        if path.hasPrefix("postgresql://") {
            let connection = try PostgresConnection(uri: path)
            for table in names {
                let result = try connection.execute("SELECT \(Self.columns(of: table)) FROM \(table) ORDER BY 1, 2")
                tables[table] = (0..<result.rowCount).map { row in
                    (0..<result.columnCount).map { result.string(row: row, column: $0) ?? "NULL" }
                }
            }
            return
        }
        let connection = try Connection(path: path, mode: .readOnly)
        for table in names {
            let statement = try connection.prepare("SELECT \(Self.columns(of: table)) FROM \(table) ORDER BY 1, 2")
            var rows: [[String]] = []
            while try statement.step() {
                rows.append((0..<statement.columnCount).map { statement.string(at: $0) ?? "NULL" })
            }
            tables[table] = rows
        }
    }

    /// The columns of `table` that say what the database holds: all, but the fingerprints of
    /// `identity`, which say only how a re-ingest knows a version without decoding it (a store
    /// that forgot them holds the same events).
    private static func columns(of table: String) -> String {
        table == "identity" ? "id, event, updated, generated, digest, deleted, time" : "*"
    }

    /// A GeoJSON-file store as the tables an SQL engine would hold: every event's fields, every
    /// owner, the feeds' validators; no history (the file keeps none) and no alias view
    /// (it is the owners, seen another way).
    private static func tables(ofStore path: String) throws -> [String: [[String]]] {
        let file = try GeoJSONStoreFile.load(from: path)
        func text(_ value: Int64?) -> String { value.map(String.init) ?? "NULL" }
        return [
            "quake": file.events.values.map { quake in
                QuakeField.allCases.map { field in
                    switch field.value(of: quake) {
                    case let .text(text)?: text
                    case let .integer(integer)?: String(integer)
                    case let .real(real)?: String(real)
                    case nil: "NULL"
                    }
                }
            }.sorted { $0[0] < $1[0] },
            "identity": file.owners.map { id, owner in
                [
                    id, owner.event, text(owner.version.updated), text(owner.version.generated),
                    String(owner.version.digest), owner.isDeletion ? "1" : "0", String(owner.time),
                ]
            }.sorted { $0[0] < $1[0] },
            "quake_alias": [], "history_transaction": [], "history_change": [],
            "feed_state": file.feeds.values.map {
                [$0.url, $0.etag ?? "NULL", $0.lastModified ?? "NULL", $0.progress ?? "NULL"]
            }
            .sorted { $0[0] < $1[0] },
        ]
    }

    /// Everything but the feed state: what a fetch that changed no event must leave as it was
    /// (it records only when it checked the source).
    static func exceptFeedState(_ path: String) throws -> DatabaseContent {
        try DatabaseContent(path: path, tables: allTables.filter { $0 != "feed_state" })
    }

    /// `PRAGMA integrity_check` of an SQLite file, or, for a GeoJSON-file store, whether it reads
    /// whole as one: "ok" when the file is sound.
    static func integrity(of path: String) throws -> String? {
        if path.hasSuffix(".geojson") {
            do {
                _ = try GeoJSONStoreFile.load(from: path)
                return "ok"
            } catch {
                return String(describing: error)
            }
        }
        // Read-write, as the next quakes writer opens it: a process killed while it switched a new
        // file to WAL leaves a hot rollback journal, which that writer rolls back first and a
        // read-only connection cannot ("attempt to write a readonly database", once in a backfill
        // killed at a random moment).
        return try Connection(path: path, mode: .readWrite).pragma("integrity_check")
    }

    /// How many `quake` rows each index a first load builds after its rows (`DeferredIndexes`)
    /// holds, `quake_time` then `quake_mag`, and then the table itself: all three equal when the
    /// indexes were built whole.
    static func indexedCounts(of path: String) throws -> [Int64?] {
        let counts = try Connection(path: path, mode: .readOnly).statement(
            "SELECT (SELECT count(*) FROM quake INDEXED BY quake_time), (SELECT count(*) FROM quake INDEXED BY quake_mag),"
                + " (SELECT count(*) FROM quake NOT INDEXED)")
        guard try counts.step() else { return [] }
        return [counts.int64(at: 0), counts.int64(at: 1), counts.int64(at: 2)]
    }
}
