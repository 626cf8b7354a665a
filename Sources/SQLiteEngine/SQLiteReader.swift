import QuakesCore
import SQLite

/// The SQLite engine's reader: counts computed by the database, sections, rows streamed in order as
/// they are read, the history and the status, on a read-only connection.
///
/// Every answer comes from one snapshot, taken when it opens, even while a fetch commits. Not
/// `Sendable`: it owns a connection, and runs on one thread (see `Blocking`).
final class SQLiteReader: QuakeReading {
    private let connection: Connection
    private let path: String

    /// Opens the database at `path`, which must exist, for reading, with the query functions for
    /// `zone`.
    convenience init(path: String, zone: DisplayZone = .utc) throws {
        try self.init(try DatabaseFile.openForReading(at: path), path: path, zone: zone)
    }

    /// A reader of `connection`, whose errors name `path`.
    private init(_ connection: Connection, path: String, zone: DisplayZone) throws {
        self.connection = connection
        self.path = path
        try SQLFunctionNames.register(on: connection, zone: zone)
        try connection.begin(.deferred)
    }

    /// A reader of an empty database of the current schema, in memory, whose errors name `path`.
    private static func empty(as path: String, zone: DisplayZone) throws -> SQLiteReader {
        let connection = try Connection(path: ":memory:")
        try Schema.migrator.migrate(connection)
        return try SQLiteReader(connection, path: path, zone: zone)
    }

    deinit {
        try? connection.rollback()
    }

    /// Opens a reader on the database at `path` and runs `body` with it, reporting SQLite's errors
    /// as errors of that database file.
    /// With `missingIsEmpty`, a database not created yet is read as the empty one it is (see
    /// `DatabaseDraft`), for the commands that write it.
    static func reading<Result>(
        _ path: String, zone: DisplayZone = .utc, missingIsEmpty: Bool = false, _ body: (SQLiteReader) throws -> Result
    ) throws -> Result {
        do {
            if missingIsEmpty, try DatabaseFile.inspect(path) == .missing {
                return try body(try empty(as: path, zone: zone))
            }
            return try body(try SQLiteReader(path: path, zone: zone))
        } catch let error as SQLiteError {
            throw StoreError(path: path, error)
        }
    }

    // MARK: - Queries

    func count(_ filter: QuakeFilter) throws -> Int {
        let condition = SQLiteQuery.condition(filter)
        let statement = try connection.prepare("SELECT count(*) FROM quake \(condition.whereClause)")
        try statement.bind(condition.values)
        _ = try statement.step()
        return statement.int(at: 0) ?? 0
    }

    /// Computed by the database, grouping by the section's expression (a query function for the
    /// calendar keys, registered for the reader's zone).
    func sectionCounts(_ key: SectionKey, _ filter: QuakeFilter, zone: DisplayZone) throws -> [SectionValue: Int] {
        let condition = SQLiteQuery.condition(filter)
        let statement = try connection.prepare(
            """
            SELECT \(SQLiteQuery.sectionExpression(key)) AS section, count(*) FROM quake \(condition.whereClause)
            GROUP BY section
            """)
        try statement.bind(condition.values)
        var counts: [SectionValue: Int] = [:]
        while try statement.step() {
            counts[SQLiteQuery.sectionValue(statement, at: 0), default: 0] += statement.int(at: 1) ?? 0
        }
        return counts
    }

    func forEachQuake(
        _ filter: QuakeFilter, in rows: (key: SectionKey, rows: SectionKey.Rows)?, sort: SortSpec,
        origin: GeoPoint?, limit: Int?, _ body: (Quake) throws -> Bool
    ) throws {
        let statement = try listing(filter, in: rows, sort: sort, origin: origin, limit: limit, explained: false)
        while try statement.step() {
            guard try body(QuakeColumns.quake(from: statement)) else { return }
        }
    }

    func forEachRow(
        _ filter: QuakeFilter, in rows: (key: SectionKey, rows: SectionKey.Rows)?, sort: SortSpec,
        origin: GeoPoint?, limit: Int?, _ body: (any QuakeRow) throws -> Bool
    ) throws {
        let statement = try listing(filter, in: rows, sort: sort, origin: origin, limit: limit, explained: false)
        try PipelinedRows.forEach(in: statement, body)
    }

    func storedQuake(id: String) throws -> Quake? {
        let row = try connection.prepare("SELECT \(QuakeColumns.list) FROM quake WHERE id = ?1")
        try row.bind(id, at: 1)
        return try row.step() ? QuakeColumns.quake(from: row) : nil
    }

    func owner(of id: String) throws -> String? {
        let owner = try connection.prepare("SELECT event FROM identity WHERE id = ?1")
        try owner.bind(id, at: 1)
        return try owner.step() ? owner.string(at: 0) : nil
    }

    func allQuakes() throws -> [Quake] {
        let statement = try connection.prepare("SELECT \(QuakeColumns.list) FROM quake ORDER BY id")
        var quakes: [Quake] = []
        while try statement.step() { quakes.append(QuakeColumns.quake(from: statement)) }
        return quakes
    }

    // MARK: - Plans

    /// The query plan SQLite chooses for a listing's statement, for tests.
    func plan(_ query: QuakeQuery) throws -> [String] {
        let statement = try listing(
            query.filter, in: nil, sort: query.sort, origin: query.origin, limit: query.limit, explained: true)
        var plan: [String] = []
        while try statement.step() { plan.append(statement.string(at: 3) ?? "") }
        return plan
    }

    /// The query plan of `count`.
    func countPlan(_ filter: QuakeFilter) throws -> [String] {
        let condition = SQLiteQuery.condition(filter)
        let statement = try connection.prepare("EXPLAIN QUERY PLAN SELECT count(*) FROM quake \(condition.whereClause)")
        try statement.bind(condition.values)
        var plan: [String] = []
        while try statement.step() { plan.append(statement.string(at: 3) ?? "") }
        return plan
    }

    private func listing(
        _ filter: QuakeFilter, in rows: (key: SectionKey, rows: SectionKey.Rows)?, sort: SortSpec,
        origin: GeoPoint?, limit: Int?, explained: Bool
    ) throws -> Statement {
        let listing = Self.listingSQL(filter, in: rows, sort: sort, origin: origin, limit: limit)
        let statement = try connection.prepare((explained ? "EXPLAIN QUERY PLAN " : "") + listing.sql)
        try statement.bind(listing.values)
        return statement
    }

    /// The statement of a listing and the values of its parameters: here once, for the reader and
    /// for the read floor of `make bench` (`SQLiteDatabase.listingSQL`).
    static func listingSQL(
        _ filter: QuakeFilter, in rows: (key: SectionKey, rows: SectionKey.Rows)? = nil, sort: SortSpec,
        origin: GeoPoint?, limit: Int?
    ) -> (sql: String, values: [SQLValue]) {
        var condition = SQLiteQuery.condition(filter)
        if let rows { condition = condition.and(SQLiteQuery.sectionCondition(rows.key, rows.rows)) }
        let order = SQLiteQuery.orderBy(sort, origin: origin)
        return (
            """
            SELECT \(QuakeColumns.list) FROM quake \(condition.whereClause)
            \(order.clause) LIMIT ?
            """,
            condition.values + order.values + [.integer(limit.map(Int64.init) ?? -1)]
        )
    }

    // MARK: - History and status

    func forEachTransaction(
        after token: Int64, author: String?, withChanges: Bool, ofEvents ids: Set<String>?,
        _ body: (HistoryTransaction) throws -> Bool
    ) throws {
        let statement = try connection.prepare(
            """
            SELECT token, timestamp, author, source, inserted, updated, deleted FROM history_transaction
            WHERE token > ?1 AND (?2 IS NULL OR author = ?2)
                AND (?3 IS NULL OR EXISTS (
                    SELECT 1 FROM history_change AS change
                    WHERE change.token = history_transaction.token AND \(Self.isOfEvents("change"))))
            ORDER BY token
            """)
        let wanted = ids.map { IngestStatements.jsonArray(Array($0)) }
        try statement.bind(token, at: 1)
        try statement.bind(author, at: 2)
        try statement.bind(wanted, at: 3)
        let changes = try connection.prepare(
            """
            SELECT id, change, merged_into, fields FROM history_change
            WHERE token = ?1 AND (?3 IS NULL OR \(Self.isOfEvents("history_change"))) ORDER BY id
            """)
        try changes.bind(wanted, at: 3)
        while try statement.step() {
            var transaction = HistoryTransaction(
                token: statement.int64(at: 0) ?? 0, timestamp: statement.int64(at: 1) ?? 0,
                author: statement.string(at: 2) ?? "", source: statement.string(at: 3),
                inserted: statement.int(at: 4) ?? 0, updated: statement.int(at: 5) ?? 0,
                deleted: statement.int(at: 6) ?? 0)
            if withChanges {
                changes.reset()
                try changes.bind(transaction.token, at: 1)
                var list: [HistoryChange] = []
                while try changes.step() {
                    guard let id = changes.string(at: 0),
                        let kind = changes.string(at: 1).flatMap(HistoryChange.Kind.init)
                    else { continue }
                    list.append(
                        HistoryChange(
                            id: id, kind: kind, mergedInto: changes.string(at: 2),
                            fields: changes.string(at: 3).flatMap(FieldChange.stored)))
                }
                transaction.changes = list
            }
            guard try body(transaction) else { return }
        }
    }

    /// True for a row of `history_change` (as `table`) of one of the ids of the JSON array ?3, or
    /// merged into one.
    private static func isOfEvents(_ table: String) -> String {
        "(\(table).id IN (SELECT value FROM json_each(?3)) OR \(table).merged_into IN (SELECT value FROM json_each(?3)))"
    }

    /// The larger of the newest transaction's token and the sequence's, which a prune of the
    /// history does not lower.
    func lastToken() throws -> Int64 {
        let statement = try connection.prepare(
            """
            SELECT max(coalesce((SELECT max(token) FROM history_transaction), 0),
                       coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'history_transaction'), 0))
            """)
        _ = try statement.step()
        return statement.int64(at: 0) ?? 0
    }

    func status() throws -> DatabaseStatus {
        func integer(_ sql: String) throws -> Int64? {
            let statement = try connection.prepare(sql)
            _ = try statement.step()
            return statement.int64(at: 0)
        }
        let newest = try connection.prepare(
            "SELECT \(QuakeColumns.list) FROM quake ORDER BY time DESC, id ASC LIMIT 1")
        let sources = try connection.prepare(
            "SELECT url, etag, last_modified, fetched, checked, outcome, progress FROM feed_state ORDER BY url")
        var states: [FeedState] = []
        while try sources.step() {
            states.append(
                FeedState(
                    url: sources.string(at: 0) ?? "", etag: sources.string(at: 1),
                    lastModified: sources.string(at: 2), fetched: sources.int64(at: 3) ?? 0,
                    checked: sources.int64(at: 4), outcome: sources.string(at: 5), progress: sources.string(at: 6)))
        }
        return DatabaseStatus(
            path: path, schemaVersion: try connection.userVersion(),
            events: Int(try integer("SELECT count(*) FROM quake") ?? 0),
            tombstones: Int(try integer("SELECT count(*) FROM identity WHERE id = event AND deleted = 1") ?? 0),
            earliest: try integer("SELECT min(time) FROM quake"),
            latest: try integer("SELECT max(time) FROM quake"),
            newest: try newest.step() ? QuakeColumns.quake(from: newest) : nil,
            lastToken: try lastToken(), sources: states)
    }
}
