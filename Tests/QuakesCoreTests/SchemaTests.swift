import Foundation
import PostgreSQL
import SQLite
import Testing

@testable import PostgresEngine
@testable import QuakesCore
@testable import SQLiteEngine

/// The migrations of the SQL engines are written out by hand, since a released one must never change;
/// the table of fields must still describe the table they leave.
@Suite struct SchemaTests {
    @Test func theSQLiteQuakeTableHasTheFieldsOfTheTableOfFieldsInOrder() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("q.sqlite")
        let fetch = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: path)
        #expect(fetch.status == .success, "\(fetch.standardError)")
        let connection = try Connection(path: path, mode: .readOnly)
        let statement = try connection.statement(
            #"SELECT name, type, "notnull" FROM pragma_table_info('quake') ORDER BY cid"#)
        var columns: [[String]] = []
        while try statement.step() {
            columns.append([
                statement.string(at: 0) ?? "", statement.string(at: 1) ?? "", String(statement.int64(at: 2) ?? -1),
            ])
        }
        let expected = QuakeField.allCases.map { field -> [String] in
            let type =
                switch field.kind {
                case .text: "TEXT"
                case .integer: "INTEGER"
                case .real: "REAL"
                }
            return [field.name, type, field.isRequired ? "1" : "0"]
        }
        #expect(columns == expected)
    }

    /// A fetch into an empty table sets its secondary indexes aside and builds them after the rows
    /// (`DeferredIndexes`): whether it commits or fails, the schema must end as the migrations made
    /// it, and the indexes must hold every row.
    @Test func aFirstFetchLeavesTheSchemaOfTheMigrationsWhetherItCommitsOrFails() async throws {
        let folder = try TemporaryDirectory()
        func schema(_ path: String) throws -> [String] {
            let connection = try Connection(path: path, mode: .readOnly)
            let statement = try connection.statement(
                "SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_schema ORDER BY name")
            var entries: [String] = []
            while try statement.step() { entries.append(statement.string(at: 0) ?? "") }
            return entries
        }
        let migrated = folder.file("migrated.sqlite")
        try Schema.migrator.migrate(try Connection(path: migrated, mode: .readWriteCreate))
        let expected = try schema(migrated)
        #expect(expected.contains { $0.hasPrefix("index quake_time ") })
        #expect(expected.contains { $0.hasPrefix("index quake_mag ") })

        let loaded = folder.file("loaded.sqlite")
        let fetch = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: loaded)
        #expect(fetch.status == .success, "\(fetch.standardError)")
        #expect(try schema(loaded) == expected)
        #expect(try DatabaseContent.integrity(of: loaded) == "ok")
        let indexed = try DatabaseContent.indexedCounts(of: loaded)
        #expect(indexed.count == 3 && Set(indexed).count == 1, "\(indexed)")
        #expect(((indexed.first ?? nil) ?? 0) > 1000)

        // Cut short after most of its features: the ingest rolls back, indexes and all.
        var body = try Fixtures.bytes(Fixtures.weekAfter)
        body.removeLast(3)
        let cut = folder.file("cut.geojson")
        try Data(body).write(to: URL(fileURLWithPath: cut))
        // Into a new database, whose first write it was: no database, no draft and no lock file is left.
        let failed = folder.file("failed.sqlite")
        let failure = await QuakesRun.fetch([cut], database: failed)
        #expect(failure.status == .dataError)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("failed") }
        #expect(left == [])
        // Into an empty database of the current schema.
        let empty = folder.file("empty.sqlite")
        try Schema.migrator.migrate(try Connection(path: empty, mode: .readWriteCreate))
        let emptyFailure = await QuakesRun.fetch([cut], database: empty)
        #expect(emptyFailure.status == .dataError)
        #expect(try schema(empty) == expected)
        // And the next fetch into that empty table loads it as the first would have.
        let retry = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: empty)
        #expect(retry.status == .success)
        #expect(try schema(empty) == expected)
    }

    /// The same on PostgreSQL (`PostgresDeferredIndexes`), where `quake`'s indexes set aside are built
    /// again with new object ids, which shows that they were; and where a reader already reading
    /// the empty table makes the first fetch keep its indexes (the same ids) rather than wait for it.
    @Test func aFirstFetchIntoPostgreSQLLeavesTheIndexesOfTheMigrations() async throws {
        func indexes(_ uri: String) throws -> [String] {
            let result = try PostgresConnection(uri: uri).execute(
                """
                SELECT indexname || ': ' || indexdef FROM pg_indexes
                WHERE schemaname = current_schema() AND tablename IN ('quake', 'identity') ORDER BY indexname
                """)
            return (0..<result.rowCount).map { result.string(row: $0, column: 0) ?? "" }
        }
        func objectIDs(_ uri: String) throws -> [String] {
            let result = try PostgresConnection(uri: uri).execute(
                """
                SELECT indexrelid::regclass::text || ' ' || indexrelid::oid::text FROM pg_index
                WHERE indrelid IN ('quake'::regclass, 'identity'::regclass) AND indisvalid AND indisready
                ORDER BY 1
                """)
            return (0..<result.rowCount).map { result.string(row: $0, column: 0) ?? "" }
        }
        func migrated() throws -> TestStore {
            let store = try TestEngine.postgresql.newDatabase()
            try PostgresSchema.migrate(try PostgresConnection(uri: store.location), name: "test")
            return store
        }
        let reference = try migrated()
        let expected = try indexes(reference.location)
        #expect(expected.count == 5 && expected.contains { $0.hasPrefix("quake_mag: ") })

        let loaded = try migrated()
        let before = try objectIDs(loaded.location)
        let fetch = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: loaded.location)
        #expect(fetch.status == .success, "\(fetch.standardError)")
        #expect(try indexes(loaded.location) == expected)
        let after = try objectIDs(loaded.location)
        #expect(after.count == 5)
        // The primary keys and identity's index stay; quake's two secondary indexes were built again.
        #expect(Set(before).intersection(after).count == 3, "\(before) \(after)")
        #expect(!Set(before).intersection(after).contains { $0.hasPrefix("quake_time ") || $0.hasPrefix("quake_mag ") })

        let folder = try TemporaryDirectory()
        var body = try Fixtures.bytes(Fixtures.weekAfter)
        body.removeLast(3)
        let cut = try folder.write("cut.geojson", body)
        let failed = try migrated()
        let failure = await QuakesRun.fetch([cut], database: failed.location)
        #expect(failure.status == .dataError)
        #expect(try indexes(failed.location) == expected)

        let read = try migrated()
        let untouched = try objectIDs(read.location)
        let reader = try PostgresConnection(uri: read.location)
        // Should the fetch wait for the reader after all, the server ends the reader and the
        // expectations below fail, rather than the test hang: after as long as a watch test waits,
        // since an in-process fetch beside the whole suite has taken tens of seconds.
        try reader.execute("SET idle_in_transaction_session_timeout = '300s'")
        try reader.execute("BEGIN")
        try reader.execute("SELECT count(*) FROM quake")
        let beside = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: read.location)
        #expect(beside.status == .success, "\(beside.standardError)")
        // Committed while the reader's transaction is still open, which sees it (read committed).
        #expect((try reader.execute("SELECT count(*) FROM quake").int64(row: 0, column: 0) ?? 0) > 1000)
        try reader.execute("COMMIT")
        #expect(try objectIDs(read.location) == untouched)
        #expect(try indexes(read.location) == expected)
    }

    @Test func thePostgreSQLQuakeTableBeginsWithTheFieldsOfTheTableOfFieldsInOrder() async throws {
        let store = try TestEngine.postgresql.newDatabase()
        let fetch = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: store.location)
        #expect(fetch.status == .success, "\(fetch.standardError)")
        let result = try PostgresConnection(uri: store.location).execute(
            """
            SELECT column_name, data_type, is_nullable FROM information_schema.columns
            WHERE table_name = 'quake' ORDER BY ordinal_position
            """)
        let columns = (0..<result.rowCount).map { row in
            (0..<3).map { result.string(row: row, column: $0) ?? "" }
        }
        let expected = QuakeField.allCases.map { field -> [String] in
            let type =
                switch field.kind {
                case .text: "text"
                case .integer: "bigint"
                case .real: "double precision"
                }
            return [field.name, type, field.isRequired ? "NO" : "YES"]
        }
        #expect(Array(columns.prefix(expected.count)) == expected)
        #expect(
            columns.dropFirst(expected.count).map(\.[0]) == ["place_folded", "time_utc", "updated_utc", "extra_json"])
    }
}
