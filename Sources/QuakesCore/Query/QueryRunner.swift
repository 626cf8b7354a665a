import SQLite

/// Answers queries on a read-only connection: counts computed by the database, sections, and rows
/// streamed in order as they are read.
///
/// Not `Sendable`: it owns a connection, and runs on one thread (see `Blocking`).
final class QueryRunner {
    private let connection: Connection
    private let zone: DisplayZone

    /// Opens the database at `path` for reading, with the query functions for `zone`.
    init(path: String, zone: DisplayZone) throws {
        connection = try DatabaseFile.openForReading(at: path)
        self.zone = zone
        try SQLFunctionNames.register(on: connection, zone: zone)
        // Every statement of a listing sees the same snapshot, even while a fetch commits.
        try connection.begin(.deferred)
    }

    deinit {
        try? connection.rollback()
    }

    /// Opens a runner on the database at `path` and runs `body` with it, reporting SQLite's errors
    /// as errors of that database file.
    static func reading<Result>(_ path: String, zone: DisplayZone, _ body: (QueryRunner) throws -> Result) throws
        -> Result
    {
        do {
            return try body(try QueryRunner(path: path, zone: zone))
        } catch let error as SQLiteError {
            throw StoreError(path: path, error)
        }
    }

    /// How many events match.
    func count(_ filter: QuakeFilter) throws -> Int {
        let condition = filter.condition
        let statement = try connection.prepare("SELECT count(*) FROM quake \(condition.whereClause)")
        try statement.bind(condition.values)
        _ = try statement.step()
        return statement.int(at: 0) ?? 0
    }

    /// Every non-empty section of the query's results, in listing order, with its count.
    func sections(_ query: QuakeQuery) throws -> [QuerySection] {
        guard let key = query.section else { return [] }
        let condition = query.filter.condition
        let statement = try connection.prepare(
            """
            SELECT \(key.expression) AS section, count(*) FROM quake \(condition.whereClause) GROUP BY section
            """)
        try statement.bind(condition.values)
        var sections: [QuerySection] = []
        while try statement.step() {
            let value = SectionValue(statement, at: 0)
            let label = key.label(for: value)
            sections.append(
                QuerySection(value: value, id: label.id, title: label.title, count: statement.int(at: 1) ?? 0))
        }
        let ascending = query.sectionsFollowSort ? query.sort.primary.ascending : nil
        return sections.sorted { key.precedes($0.value, $1.value, ascending: ascending) }
    }

    /// Reads the query's events in output order, calling `body` with each and its section (nil when
    /// unsectioned); `body` returns false to stop. `sections` are those from `sections(_:)`.
    func forEachQuake(
        _ query: QuakeQuery, sections: [QuerySection],
        _ body: (Quake, QuerySection?) throws -> Bool
    ) throws {
        var remaining = query.limit ?? Int.max
        guard let key = query.section else {
            try read(query.filter.condition, query, limit: remaining) { quake in try body(quake, nil) }
            return
        }
        if query.sectionsFollowSort, query.limitPerSection == nil {
            // The sort keeps each section together and in order: one query serves them all.
            let byValue = Dictionary(uniqueKeysWithValues: sections.map { ($0.value, $0) })
            try read(query.filter.condition, query, limit: remaining) { quake in
                try body(quake, byValue[key.value(of: quake, zone: zone)])
            }
            return
        }
        for section in sections where remaining > 0 {
            let condition = query.filter.condition.and(key.condition(for: section.value, zone: zone))
            var keepGoing = true
            try read(condition, query, limit: min(remaining, query.limitPerSection ?? Int.max)) { quake in
                remaining -= 1
                keepGoing = try body(quake, section)
                return keepGoing
            }
            guard keepGoing else { return }
        }
    }

    /// The event stored under `id`, or, for an id stored under another (an id in its `ids`, an old
    /// id of a re-identified event), the event it leads to; nil when none does.
    func quake(withID id: String) throws -> Quake? {
        let row = try connection.prepare("SELECT \(QuakeColumns.list) FROM quake WHERE id = ?1")
        let owner = try connection.prepare("SELECT event FROM identity WHERE id = ?1")
        var current = id
        var visited: Set<String> = []
        while visited.insert(current).inserted {
            row.reset()
            try row.bind(current, at: 1)
            if try row.step() { return QuakeColumns.quake(from: row) }
            owner.reset()
            try owner.bind(current, at: 1)
            guard try owner.step(), let event = owner.string(at: 0) else { return nil }
            current = event
        }
        return nil
    }

    /// The query plan SQLite chooses for a listing's statement, for tests and `--explain`.
    func plan(_ query: QuakeQuery) throws -> [String] {
        let condition = query.filter.condition
        let order = query.sort.orderBy(origin: query.origin)
        let statement = try connection.prepare(
            """
            EXPLAIN QUERY PLAN SELECT \(QuakeColumns.list) FROM quake \(condition.whereClause) \(order.clause) LIMIT ?
            """)
        try statement.bind(condition.values + order.values + [.integer(Int64(query.limit ?? -1))])
        var plan: [String] = []
        while try statement.step() { plan.append(statement.string(at: 3) ?? "") }
        return plan
    }

    /// The query plan of `count`.
    func countPlan(_ filter: QuakeFilter) throws -> [String] {
        let condition = filter.condition
        let statement = try connection.prepare("EXPLAIN QUERY PLAN SELECT count(*) FROM quake \(condition.whereClause)")
        try statement.bind(condition.values)
        var plan: [String] = []
        while try statement.step() { plan.append(statement.string(at: 3) ?? "") }
        return plan
    }

    private func read(
        _ condition: SQLCondition, _ query: QuakeQuery, limit: Int,
        _ body: (Quake) throws -> Bool
    ) throws {
        guard limit > 0 else { return }
        let order = query.sort.orderBy(origin: query.origin)
        let statement = try connection.prepare(
            """
            SELECT \(QuakeColumns.list) FROM quake \(condition.whereClause) \(order.clause) LIMIT ?
            """)
        try statement.bind(condition.values + order.values + [.integer(limit == Int.max ? -1 : Int64(limit))])
        while try statement.step() {
            guard try body(QuakeColumns.quake(from: statement)) else { return }
        }
    }
}
