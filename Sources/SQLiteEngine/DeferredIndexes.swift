import SQLite

/// The secondary indexes of `quake`, set aside while an ingest loads an empty table and built once
/// its rows are in: one sort of every key instead of a B-tree insert per row. SQLite's DDL is
/// transactional, so a rollback brings them back as they were, and readers on other connections
/// never see the table without them. The definitions are read from the database itself, so the
/// schema stays written once, in `Schema`.
struct DeferredIndexes {
    /// The `CREATE INDEX` statements set aside, in the order they were made.
    private(set) var definitions: [String] = []

    /// Drops the secondary indexes of `quake` when the table has no rows (within the open
    /// transaction on `connection`); otherwise leaves them, with nothing to build later.
    static func settingAside(on connection: Connection) throws -> DeferredIndexes {
        var set = DeferredIndexes()
        var names: [String] = []
        do {
            let rows = try connection.statement("SELECT EXISTS (SELECT 1 FROM quake)")
            defer { rows.reset() }
            guard try rows.step(), rows.int64(at: 0) == 0 else { return set }
            // Those of constraints (the primary key's) have no SQL and stay.
            let indexes = try connection.statement(
                "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'quake' AND sql IS NOT NULL"
                    + " ORDER BY rowid")
            defer { indexes.reset() }
            while try indexes.step() {
                guard let name = indexes.string(at: 0), let sql = indexes.string(at: 1) else { continue }
                names.append(name)
                set.definitions.append(sql)
            }
        }
        // Only once both statements are reset: a table cannot change under a running one.
        for name in names {
            try connection.execute("DROP INDEX \(Connection.quoted(name))")
        }
        return set
    }

    /// Builds the indexes set aside, in the same transaction.
    func build(on connection: Connection) throws {
        for sql in definitions { try connection.execute(sql) }
    }
}
