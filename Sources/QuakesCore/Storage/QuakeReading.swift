/// The read side of the storage seam: what `count`, `list`, `show`, `history`, `status` and
/// `watch` ask of an engine, in engine-neutral values. Output writers take rows from it, never
/// statements.
///
/// An engine answers the primitive questions; how sections are ordered and which rows each shows
/// under the limits is decided once, in the extension below, for every engine.
///
/// A reader sees one snapshot of the database from the moment it opens: every answer it gives
/// agrees with the others, even while a fetch commits. Not `Sendable`: a reader owns a connection
/// and runs on one thread (see `Blocking`).
package protocol QuakeReading: AnyObject {
    /// How many events match.
    func count(_ filter: QuakeFilter) throws -> Int

    /// How many events that match are in each non-empty section of `key`, in `zone` for the
    /// calendar keys.
    func sectionCounts(_ key: SectionKey, _ filter: QuakeFilter, zone: DisplayZone) throws -> [SectionValue: Int]

    /// Reads the events that match `filter` (and, when given, are in the section's `rows`) in the
    /// order of `sort` and its tie-breakers, at most `limit` of them, distances measured from
    /// `origin`; `body` returns false to stop.
    func forEachQuake(
        _ filter: QuakeFilter, in rows: (key: SectionKey, rows: SectionKey.Rows)?, sort: SortSpec,
        origin: GeoPoint?, limit: Int?, _ body: (Quake) throws -> Bool
    ) throws

    /// `forEachQuake` as rows, valid only during each call of `body`: an engine that can hand over
    /// its cursor's columns saves building every `Quake` (the default builds them).
    func forEachRow(
        _ filter: QuakeFilter, in rows: (key: SectionKey, rows: SectionKey.Rows)?, sort: SortSpec,
        origin: GeoPoint?, limit: Int?, _ body: (any QuakeRow) throws -> Bool
    ) throws

    /// The event stored under exactly `id`, nil when none is.
    func storedQuake(id: String) throws -> Quake?

    /// The id of the version that owns `id` (the identity rules' owner), nil when none named it.
    func owner(of id: String) throws -> String?

    /// Every stored event, by id.
    func allQuakes() throws -> [Quake]

    /// The history transactions after `token` (exclusive), oldest first, by `author` when given,
    /// with their changes when asked for; `body` returns false to stop. With `ids`, only the
    /// changes of those ids or merged into one of them, and only the transactions that have one,
    /// as the database's query picks them (a scan of the changes, without a value built for each).
    func forEachTransaction(
        after token: Int64, author: String?, withChanges: Bool, ofEvents ids: Set<String>?,
        _ body: (HistoryTransaction) throws -> Bool
    ) throws

    /// The newest history token ever issued, 0 before the first; pruned history does not lower it.
    func lastToken() throws -> Int64

    /// What the database holds and how current it is.
    func status() throws -> DatabaseStatus
}

extension QuakeReading {
    /// Every transaction after `token`, of every event.
    func forEachTransaction(
        after token: Int64, author: String?, withChanges: Bool, _ body: (HistoryTransaction) throws -> Bool
    ) throws {
        try forEachTransaction(after: token, author: author, withChanges: withChanges, ofEvents: nil, body)
    }

    /// The event stored under `id`, or, for an id stored under another (an id in its `ids`, an old
    /// id of a re-identified event), the event it leads to, following owners; nil when none does.
    func quake(withID id: String) throws -> Quake? {
        var current = id
        var visited: Set<String> = []
        while visited.insert(current).inserted {
            if let quake = try storedQuake(id: current) { return quake }
            guard let owner = try owner(of: current) else { return nil }
            current = owner
        }
        return nil
    }

    package func forEachRow(
        _ filter: QuakeFilter, in rows: (key: SectionKey, rows: SectionKey.Rows)?, sort: SortSpec,
        origin: GeoPoint?, limit: Int?, _ body: (any QuakeRow) throws -> Bool
    ) throws {
        try forEachQuake(filter, in: rows, sort: sort, origin: origin, limit: limit) { try body($0) }
    }

    /// Every non-empty section of the query's results, in listing order, with its count.
    func sections(_ query: QuakeQuery) throws -> [QuerySection] {
        guard let key = query.section else { return [] }
        let sections = try sectionCounts(key, query.filter, zone: query.zone).map { value, count in
            let label = key.label(for: value)
            return QuerySection(value: value, id: label.id, title: label.title, count: count)
        }
        let ascending = query.sectionsFollowSort ? query.sort.primary.ascending : nil
        return sections.sorted { key.precedes($0.value, $1.value, ascending: ascending) }
    }

    /// Reads the query's events in output order, calling `body` with each and its section (nil when
    /// unsectioned); `body` returns false to stop. `sections` are those from `sections(_:)`.
    func forEachQuake(
        _ query: QuakeQuery, sections: [QuerySection], _ body: (Quake, QuerySection?) throws -> Bool
    ) throws {
        try forEachRow(query, sections: sections) { row, section in try body(row.quake, section) }
    }

    /// `forEachQuake(_:sections:_:)` as rows, valid only during each call of `body`.
    func forEachRow(
        _ query: QuakeQuery, sections: [QuerySection], _ body: (any QuakeRow, QuerySection?) throws -> Bool
    ) throws {
        var remaining = query.limit ?? Int.max
        func read(_ rows: (key: SectionKey, rows: SectionKey.Rows)?, limit: Int, _ body: (any QuakeRow) throws -> Bool)
            throws
        {
            guard limit > 0 else { return }
            try forEachRow(
                query.filter, in: rows, sort: query.sort, origin: query.origin,
                limit: limit == Int.max ? nil : limit, body)
        }
        guard let key = query.section else {
            try read(nil, limit: remaining) { row in try body(row, nil) }
            return
        }
        if query.sectionsFollowSort, query.limitPerSection == nil {
            // The sort keeps each section together and in order: one query serves them all.
            let byValue = Dictionary(uniqueKeysWithValues: sections.map { ($0.value, $0) })
            try read(nil, limit: remaining) { row in
                try body(row, byValue[key.value(of: row.quake, zone: query.zone)])
            }
            return
        }
        for section in sections where remaining > 0 {
            var keepGoing = true
            try read(
                (key, key.rows(of: section.value, zone: query.zone)),
                limit: min(remaining, query.limitPerSection ?? Int.max)
            ) { row in
                remaining -= 1
                keepGoing = try body(row, section)
                return keepGoing
            }
            guard keepGoing else { return }
        }
    }
}
