import PostgreSQL

/// The secondary indexes of `quake` and `identity`, set aside while an ingest loads an empty table
/// and built once its rows are in, as the SQLite engine does (`DeferredIndexes`): one sort of every
/// key instead of a B-tree insert per row, which was half of the server's time in a fresh ingest.
/// PostgreSQL's DDL is transactional, so a rollback brings them back as they were. The definitions
/// are read from the database itself (`pg_get_indexdef`), so the schema stays written once, in
/// `PostgresSchema`, and an index a user added is rebuilt as they wrote it. Indexes that back a
/// constraint (the primary keys) stay: the upserts need them.
///
/// Dropping an index locks its table against readers until the ingest commits: readers of a
/// database that held no events wait for its first load, then see all of it. When a reader is
/// already reading the table, the indexes stay rather than make the ingest wait for it.
struct PostgresDeferredIndexes {
    /// The `CREATE INDEX` statements set aside, in the order they were made.
    private(set) var definitions: [String] = []

    /// How long the ingest waits for the lock that dropping an index takes before it keeps the
    /// indexes instead.
    static let lockWait = "200ms"

    /// Drops the secondary indexes of each of `quake` and `identity` that has no rows (within the
    /// open transaction on `connection`); otherwise leaves them, with nothing to build later.
    static func settingAside(on connection: PostgresConnection) throws -> PostgresDeferredIndexes {
        let empty = try connection.execute(
            "SELECT NOT EXISTS (SELECT 1 FROM quake), NOT EXISTS (SELECT 1 FROM identity)")
        let tables = zip(["quake", "identity"], [empty.bool(row: 0, column: 0), empty.bool(row: 0, column: 1)])
            .filter { $0.1 == true }.map(\.0)
        guard !tables.isEmpty else { return PostgresDeferredIndexes() }
        let found = try connection.execute(
            """
            SELECT index_class.relname, pg_catalog.pg_get_indexdef(index_class.oid)
            FROM pg_catalog.pg_index AS x
            JOIN pg_catalog.pg_class AS index_class ON index_class.oid = x.indexrelid
            JOIN pg_catalog.pg_class AS table_class ON table_class.oid = x.indrelid
            WHERE table_class.relnamespace = current_schema()::regnamespace AND table_class.relname = ANY($1::text[])
                AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint AS c WHERE c.conindid = x.indexrelid)
            ORDER BY index_class.oid
            """, [.text(PostgresStatement.arrayLiteral(tables))])
        var set = PostgresDeferredIndexes()
        var names: [String] = []
        for row in 0..<found.rowCount {
            guard let name = found.string(row: row, column: 0), let sql = found.string(row: row, column: 1) else {
                continue
            }
            names.append(name)
            set.definitions.append(sql)
        }
        guard !names.isEmpty else { return set }
        try connection.execute("SAVEPOINT quakes_deferred_indexes")
        do {
            let previous = try connection.execute("SELECT current_setting('lock_timeout')").string(row: 0, column: 0)
            try connection.execute("SELECT set_config('lock_timeout', $1::text, true)", [.text(lockWait)])
            for name in names {
                let quoted = name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"")
                try connection.execute("DROP INDEX \"\(quoted)\"")
            }
            try connection.execute("SELECT set_config('lock_timeout', $1::text, true)", [.text(previous ?? "0")])
            try connection.execute("RELEASE SAVEPOINT quakes_deferred_indexes")
            return set
        } catch {
            // lock_not_available: a reader holds a table. Back to the savepoint, lock_timeout too.
            guard error.sqlState == "55P03" else { throw error }
            try connection.execute("ROLLBACK TO SAVEPOINT quakes_deferred_indexes")
            try connection.execute("RELEASE SAVEPOINT quakes_deferred_indexes")
            return PostgresDeferredIndexes()
        }
    }

    /// Builds the indexes set aside, in the same transaction.
    func build(on connection: PostgresConnection) throws {
        for sql in definitions { try connection.execute(sql) }
    }
}
