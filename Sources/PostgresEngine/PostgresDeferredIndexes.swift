import PostgreSQL

/// The secondary indexes of `quake`, set aside while an ingest loads an empty table and built once
/// its rows are in, as the SQLite engine does (`DeferredIndexes`): one sort of every key instead of
/// a B-tree insert per row, which was half of the server's time in a fresh ingest. PostgreSQL's DDL
/// is transactional, so a rollback brings them back as they were. The definitions are read from the
/// database itself (`pg_get_indexdef`), so the schema stays written once, in `PostgresSchema`.
/// Indexes that back a constraint (the primary key) stay, as the upserts need them, and so do
/// unique indexes, so that a duplicate fails its row, not the commit.
///
/// Dropping an index locks its table against readers until the ingest commits: readers of a
/// database that held no events wait for its first load, then see all of it. When a reader is
/// already reading the table, the indexes stay rather than make the ingest wait for it.
///
/// `identity`'s indexes always stay: a sync reads `identity` on another connection while its own
/// ingest is open (which of a batch's features name a stored event), and a lock there would have
/// the read wait for the commit and the ingest wait for the read, for ever. Nothing in quakes reads
/// `quake` so.
struct PostgresDeferredIndexes {
    /// The `CREATE INDEX` statements set aside, in the order they were made.
    private(set) var definitions: [String] = []

    /// How long the ingest waits for the lock that dropping an index takes before it keeps the
    /// indexes instead.
    static let lockWait = "200ms"

    /// Drops the secondary indexes of `quake` when it has no rows (within the open transaction on
    /// `connection`); otherwise leaves them, with nothing to build later.
    static func settingAside(on connection: PostgresConnection) throws -> PostgresDeferredIndexes {
        let empty = try connection.execute("SELECT NOT EXISTS (SELECT 1 FROM quake)")
        guard empty.bool(row: 0, column: 0) == true else { return PostgresDeferredIndexes() }
        let found = try connection.execute(
            """
            SELECT index_class.oid::regclass::text, pg_catalog.pg_get_indexdef(index_class.oid)
            FROM pg_catalog.pg_index AS x
            JOIN pg_catalog.pg_class AS index_class ON index_class.oid = x.indexrelid
            JOIN pg_catalog.pg_class AS table_class ON table_class.oid = x.indrelid
            WHERE table_class.relnamespace = current_schema()::regnamespace AND table_class.relname = 'quake'
                AND NOT x.indisunique
                AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_constraint AS c WHERE c.conindid = x.indexrelid)
            ORDER BY index_class.oid
            """)
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
            // Each name as `regclass` writes it: quoted, and qualified when the search path needs it.
            for name in names { try connection.execute("DROP INDEX \(name)") }
            try connection.execute("SELECT set_config('lock_timeout', $1::text, true)", [.text(previous ?? "0")])
            try connection.execute("RELEASE SAVEPOINT quakes_deferred_indexes")
            return set
        } catch {
            // lock_not_available: a reader holds the table. Back to the savepoint, lock_timeout too.
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
