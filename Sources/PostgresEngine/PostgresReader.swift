import PostgreSQL
import QuakesCore

/// The PostgreSQL engine's reader: one connection in a read-only, repeatable-read transaction, so
/// that every answer comes from one snapshot, even while other hosts commit.
///
/// Listings are read through a cursor, a batch of rows at a time, so that memory stays flat however
/// many rows match. Not `Sendable`: it owns a connection, and runs on one thread (see `Blocking`).
final class PostgresReader: QuakeReading {
    private let connection: PostgresConnection
    /// The database's URI without its password, for messages.
    private let name: String
    /// Rows per cursor fetch: enough that round trips cost little, few enough to stay small.
    private static let batch = 2_000
    /// Cursors opened so far, which name the next one.
    private var cursors = 0

    /// Connects to `uri`, which must hold a quakes database of the current schema.
    init(uri: String, name: String) throws {
        self.name = name
        connection = try PostgresConnection(uri: uri)
        guard let version = try PostgresSchema.version(on: connection, name: name) else {
            throw StoreError(path: name, .missing)
        }
        guard version <= PostgresSchema.latestVersion else { throw PostgresSchema.newerSchema(version, name: name) }
        guard version == PostgresSchema.latestVersion else {
            throw StoreError(path: name, .olderSchema(found: version, latest: PostgresSchema.latestVersion))
        }
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    }

    deinit {
        _ = try? connection.execute("ROLLBACK")
    }

    // MARK: - Queries

    func count(_ filter: QuakeFilter) throws -> Int {
        var statement = PostgresStatement()
        let conditions = PostgresQuery.conditions(filter, &statement)
        let result = try connection.execute(
            "SELECT count(*) FROM quake \(PostgresQuery.whereClause(conditions))", statement.parameters)
        return result.int(row: 0, column: 0) ?? 0
    }

    /// Grouped by the server where SQL computes the section as Swift does; for the calendar keys,
    /// whose local time only Swift computes, the times are read and grouped here.
    func sectionCounts(_ key: SectionKey, _ filter: QuakeFilter, zone: DisplayZone) throws -> [SectionValue: Int] {
        var statement = PostgresStatement()
        let whereClause = PostgresQuery.whereClause(PostgresQuery.conditions(filter, &statement))
        var counts: [SectionValue: Int] = [:]
        guard let expression = PostgresQuery.sectionExpression(key) else {
            try forEachRow("SELECT time FROM quake \(whereClause)", statement.parameters) { result, row in
                let time = result.int64(row: row, column: 0) ?? 0
                counts[.number(zone.number(time, in: key.unit!)), default: 0] += 1
                return true
            }
            return counts
        }
        let result = try connection.execute(
            "SELECT \(expression) AS section, count(*) FROM quake \(whereClause) GROUP BY section",
            statement.parameters)
        for row in 0..<result.rowCount {
            let value: SectionValue =
                switch key {
                case .magnitude: result.int64(row: row, column: 0).map(SectionValue.number) ?? .none
                default: result.string(row: row, column: 0).map(SectionValue.text) ?? .none
                }
            counts[value, default: 0] += result.int(row: row, column: 1) ?? 0
        }
        return counts
    }

    func forEachQuake(
        _ filter: QuakeFilter, in rows: (key: SectionKey, rows: SectionKey.Rows)?, sort: SortSpec,
        origin: GeoPoint?, limit: Int?, _ body: (Quake) throws -> Bool
    ) throws {
        let (sql, parameters) = listing(filter, in: rows, sort: sort, origin: origin, limit: limit)
        try forEachRow(sql, parameters) { result, row in
            try body(PostgresColumns.quake(at: row, of: result))
        }
    }

    /// The SELECT of a listing, and its parameters.
    func listing(
        _ filter: QuakeFilter, in rows: (key: SectionKey, rows: SectionKey.Rows)?, sort: SortSpec,
        origin: GeoPoint?, limit: Int?
    ) -> (sql: String, parameters: [PostgresValue?]) {
        var statement = PostgresStatement()
        var conditions = PostgresQuery.conditions(filter, &statement)
        if let rows { conditions.append(PostgresQuery.sectionCondition(rows.key, rows.rows, &statement)) }
        let order = PostgresQuery.orderBy(sort, origin: origin, &statement)
        let sql = """
            SELECT \(PostgresColumns.list) FROM quake \(PostgresQuery.whereClause(conditions)) \(order)\
            \(limit.map { " LIMIT \($0)" } ?? "")
            """
        return (sql, statement.parameters)
    }

    func storedQuake(id: String) throws -> Quake? {
        let row = try connection.executePrepared(
            "SELECT \(PostgresColumns.list) FROM quake WHERE id = $1::text", [.text(id)])
        return row.rowCount > 0 ? PostgresColumns.quake(at: 0, of: row) : nil
    }

    func owner(of id: String) throws -> String? {
        let owner = try connection.executePrepared("SELECT event FROM identity WHERE id = $1::text", [.text(id)])
        return owner.rowCount > 0 ? owner.string(row: 0, column: 0) : nil
    }

    func allQuakes() throws -> [Quake] {
        var quakes: [Quake] = []
        try forEachRow("SELECT \(PostgresColumns.list) FROM quake ORDER BY id", []) { result, row in
            quakes.append(PostgresColumns.quake(at: row, of: result))
            return true
        }
        return quakes
    }

    /// The plan the server chooses for a query, for tests.
    func plan(_ sql: String, _ parameters: [PostgresValue?]) throws -> [String] {
        let result = try connection.execute("EXPLAIN \(sql)", parameters)
        return (0..<result.rowCount).compactMap { result.string(row: $0, column: 0) }
    }

    // MARK: - History and status

    func forEachTransaction(
        after token: Int64, author: String?, withChanges: Bool, ofEvents ids: Set<String>?,
        _ body: (HistoryTransaction) throws -> Bool
    ) throws {
        let wanted = ids.map { PostgresValue.text(PostgresStatement.arrayLiteral(Array($0))) }
        try forEachRow(
            """
            SELECT token, timestamp, author, source, inserted, updated, deleted FROM history_transaction
            WHERE token > $1::bigint AND ($2::text IS NULL OR author = $2::text)
                AND ($3::text[] IS NULL OR EXISTS (
                    SELECT 1 FROM history_change AS change
                    WHERE change.token = history_transaction.token
                        AND (change.id = ANY($3::text[]) OR change.merged_into = ANY($3::text[]))))
            ORDER BY token
            """, [.integer(token), author.map(PostgresValue.text), wanted]
        ) { result, row in
            var transaction = HistoryTransaction(
                token: result.int64(row: row, column: 0) ?? 0, timestamp: result.int64(row: row, column: 1) ?? 0,
                author: result.string(row: row, column: 2) ?? "", source: result.string(row: row, column: 3),
                inserted: result.int(row: row, column: 4) ?? 0, updated: result.int(row: row, column: 5) ?? 0,
                deleted: result.int(row: row, column: 6) ?? 0)
            if withChanges {
                let changes = try connection.executePrepared(
                    """
                    SELECT id, change, merged_into, fields FROM history_change
                    WHERE token = $1::bigint
                        AND ($2::text[] IS NULL OR id = ANY($2::text[]) OR merged_into = ANY($2::text[]))
                    ORDER BY id
                    """, [.integer(transaction.token), wanted])
                transaction.changes = (0..<changes.rowCount).compactMap { row in
                    guard let id = changes.string(row: row, column: 0),
                        let kind = changes.string(row: row, column: 1).flatMap(HistoryChange.Kind.init)
                    else { return nil }
                    return HistoryChange(
                        id: id, kind: kind, mergedInto: changes.string(row: row, column: 2),
                        fields: changes.string(row: row, column: 3).flatMap(FieldChange.stored))
                }
            }
            return try body(transaction)
        }
    }

    func lastToken() throws -> Int64 {
        try connection.execute("SELECT last_token FROM history_state").int64(row: 0, column: 0) ?? 0
    }

    func status() throws -> DatabaseStatus {
        let figures = try connection.execute(
            """
            SELECT (SELECT count(*) FROM quake), (SELECT count(*) FROM identity WHERE id = event AND deleted = 1),
                   (SELECT min(time) FROM quake), (SELECT max(time) FROM quake), (SELECT max(version) FROM quakes_schema)
            """)
        let newest = try connection.execute(
            "SELECT \(PostgresColumns.list) FROM quake ORDER BY time DESC, id ASC LIMIT 1")
        let sources = try connection.execute(
            "SELECT url, etag, last_modified, fetched, checked, outcome, progress FROM feed_state ORDER BY url")
        let states = (0..<sources.rowCount).map { row in
            FeedState(
                url: sources.string(row: row, column: 0) ?? "", etag: sources.string(row: row, column: 1),
                lastModified: sources.string(row: row, column: 2), fetched: sources.int64(row: row, column: 3) ?? 0,
                checked: sources.int64(row: row, column: 4), outcome: sources.string(row: row, column: 5),
                progress: sources.string(row: row, column: 6))
        }
        return DatabaseStatus(
            path: name, schemaVersion: Int32(figures.int64(row: 0, column: 4) ?? 0),
            events: figures.int(row: 0, column: 0) ?? 0, tombstones: figures.int(row: 0, column: 1) ?? 0,
            earliest: figures.int64(row: 0, column: 2), latest: figures.int64(row: 0, column: 3),
            newest: newest.rowCount > 0 ? PostgresColumns.quake(at: 0, of: newest) : nil,
            lastToken: try lastToken(), sources: states)
    }

    // MARK: - Cursors

    /// Runs `sql` through a cursor and calls `body` with each row, a batch at a time, until it
    /// returns false or the rows end.
    private func forEachRow(
        _ sql: String, _ parameters: [PostgresValue?], _ body: (PostgresResult, Int) throws -> Bool
    ) throws {
        cursors += 1
        let cursor = "quakes_rows_\(cursors)"
        try connection.execute("DECLARE \(cursor) NO SCROLL CURSOR FOR \(sql)", parameters)
        defer { _ = try? connection.execute("CLOSE \(cursor)") }
        while true {
            let result = try connection.execute("FETCH \(Self.batch) FROM \(cursor)")
            for row in 0..<result.rowCount {
                guard try body(result, row) else { return }
            }
            if result.rowCount < Self.batch { return }
        }
    }
}
