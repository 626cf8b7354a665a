import Foundation
import LocalHTTPServer
import PostgreSQL
import Testing

@testable import PostgresEngine
@testable import QuakesCore

/// What only the PostgreSQL engine does: share one database between processes and hosts, with
/// roles, locks and notifications, on a real server.
@Suite struct PostgresEngineTests {
    private func connect(_ store: TestStore) throws -> PostgresConnection {
        try PostgresConnection(uri: store.location)
    }

    @Test(arguments: [
        "CREATE TABLE inventory (item text)", "CREATE VIEW inventory AS SELECT 1 AS item",
        "CREATE FUNCTION inventory() RETURNS integer LANGUAGE sql AS 'SELECT 1'",
    ])
    func aDatabaseWithOtherObjectsIsRefusedAndLeftAlone(creation: String) async throws {
        let store = try TestEngine.postgresql.newDatabase()
        try connect(store).execute(creation)
        for command in [["fetch", Fixtures.path(Fixtures.weekBefore)], ["count"], ["prune", "--older-than", "1d"]] {
            let run = await QuakesRun.run([command[0], "--db", store.location] + command.dropFirst())
            #expect(run.status == .ioError, "\(command): \(run.standardError)")
            #expect(run.standardError.contains("is not a quakes database"), "\(command): \(run.standardError)")
        }
        let objects = try connect(store).execute(
            """
            SELECT (SELECT count(*) FROM pg_class WHERE relnamespace = 'public'::regnamespace)
                + (SELECT count(*) FROM pg_proc WHERE pronamespace = 'public'::regnamespace)
            """)
        #expect(objects.int64(row: 0, column: 0) == 1)
    }

    @Test func aDatabaseOfANewerSchemaIsRefusedByReadersAndWriters() async throws {
        let store = try TestEngine.postgresql.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: store.location)
        try connect(store).execute("UPDATE quakes_schema SET version = 99")
        for command in [["fetch", Fixtures.path(Fixtures.weekBefore)], ["count"], ["status"]] {
            let run = await QuakesRun.run([command[0], "--db", store.location] + command.dropFirst())
            #expect(run.status == .ioError, "\(command): \(run.standardError)")
            #expect(run.standardError.contains("schema version 99, newer than"), "\(command): \(run.standardError)")
        }
        let count = try connect(store).execute("SELECT count(*) FROM quake")
        #expect(count.int64(row: 0, column: 0) == 18)
    }

    /// A database of the first schema (before backfill progress) is refused by readers, which
    /// never write, and brought up to date by the next fetch with its events kept; an empty one
    /// is created at the latest version in one transaction, so a reader on another host never sees
    /// it between versions.
    @Test func aDatabaseOfAnOlderSchemaIsUpgradedByAFetchInOneStep() async throws {
        let store = try TestEngine.postgresql.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: store.location)
        let versions = try connect(store).execute("SELECT count(*), max(version) FROM quakes_schema")
        #expect(versions.int64(row: 0, column: 0) == 1)
        #expect(versions.int64(row: 0, column: 1) == Int64(PostgresSchema.latestVersion))
        // The first migration's table and the last migration's column were made by one transaction.
        let makers = try connect(store).execute(
            """
            SELECT (SELECT xmin::text FROM pg_class WHERE relname = 'quakes_schema'),
                (SELECT xmin::text FROM pg_attribute
                    WHERE attrelid = 'feed_state'::regclass AND attname = 'progress')
            """)
        #expect(makers.string(row: 0, column: 0) != nil)
        #expect(makers.string(row: 0, column: 0) == makers.string(row: 0, column: 1))
        try connect(store).execute("ALTER TABLE feed_state DROP COLUMN progress")
        try connect(store).execute("ALTER TABLE identity DROP COLUMN fingerprint")
        try connect(store).execute("ALTER TABLE history_change DROP COLUMN fields")
        try connect(store).execute("UPDATE quakes_schema SET version = 1")
        let count = await QuakesRun.run(["count", "--db", store.location])
        #expect(count.status == .ioError)
        #expect(count.standardError.contains("schema version 1, older than"), "\(count.standardError)")
        let fetch = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: store.location)
        #expect(fetch.status == .success, "\(fetch.standardError)")
        let after = try connect(store).execute(
            """
            SELECT (SELECT max(version) FROM quakes_schema), (SELECT count(*) FROM quake),
                (SELECT count(*) FROM information_schema.columns
                    WHERE table_name = 'feed_state' AND column_name = 'progress')
            """)
        #expect(after.int64(row: 0, column: 0) == Int64(PostgresSchema.latestVersion))
        #expect(after.int64(row: 0, column: 2) == 1)
        let counted = await QuakesRun.run(["count", "--db", store.location])
        #expect(counted.status == .success)
        #expect(
            Int64(counted.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines))
                == after.int64(row: 0, column: 1))
        #expect((after.int64(row: 0, column: 1) ?? 0) > 18)
    }

    @Test func anEmptyDatabaseIsMissingForReadersAndCreatedByAFetch() async throws {
        let store = try TestEngine.postgresql.newDatabase()
        let count = await QuakesRun.run(["count", "--db", store.location])
        #expect(count.status == .noInput)
        #expect(count.standardError.contains("does not exist; run 'quakes fetch' first"))
        let fetch = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: store.location)
        #expect(fetch.status == .success, "\(fetch.standardError)")
        let status = await QuakesRun.run(["status", "--db", store.location, "--format", "json"])
        #expect(status.standardOutput.contains(#""schemaVersion":\#(PostgresSchema.latestVersion)"#))
    }

    /// A batch the server refuses part-way through a first load, slowly, so that the next batch's
    /// flush is queued behind it (`PostgresFlush`) and the last batch comes to the commit, which
    /// waits for that flush: the fetch ends with the server's own error, not the aborted
    /// transaction's of the flush behind, and leaves nothing; without the refusal, the same feed
    /// loads whole. A trigger of another schema stands in for any failure on the server. Where the
    /// store decides two batches more slowly than the trigger sleeps (under a sanitizer, say), the
    /// failure is seen before any flush is queued behind it, and the test checks only the rest.
    @Test func aBatchRefusedPartWayThroughAFirstLoadEndsTheFetchWithTheServersError() async throws {
        let store = try TestEngine.postgresql.newDatabase()
        let empty = try store.write("empty.geojson", #"{"type":"FeatureCollection","features":[]}"#)
        let created = await QuakesRun.fetch([empty], database: store.location)
        #expect(created.status == .success, "\(created.standardError)")
        let feed = store.file("large.geojson")
        let count = 8_000
        try LargeFeed.write(count: count, to: feed)
        // In the middle of the third batch from the end (batches of `FeedIngest.chunkSize` bytes).
        let featureBytes = try #require(try FileManager.default.attributesOfItem(atPath: feed)[.size] as? Int)
        let perBatch = FeedIngest.defaultChunkSize / (featureBytes / count)
        let batches = (count + perBatch - 1) / perBatch
        let refused = "big\((batches - 3) * perBatch + perBatch / 2)"
        let connection = try connect(store)
        try connection.execute("CREATE SCHEMA trap")
        try connection.execute(
            """
            CREATE FUNCTION trap.refuse() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                PERFORM pg_sleep(2);
                RAISE EXCEPTION 'refused %', NEW.id;
            END
            $$
            """)
        try connection.execute(
            """
            CREATE TRIGGER refuse BEFORE INSERT ON quake FOR EACH ROW WHEN (NEW.id = '\(refused)')
            EXECUTE FUNCTION trap.refuse()
            """)
        let failed = await QuakesRun.fetch([feed], database: store.location)
        #expect(failed.status == .ioError)
        #expect(failed.standardError.hasPrefix("Error: "), "\(failed.standardError)")
        #expect(failed.standardError.contains("refused \(refused)"), "\(failed.standardError)")
        let left = try connection.execute("SELECT (SELECT count(*) FROM quake), (SELECT count(*) FROM identity)")
        #expect(left.int64(row: 0, column: 0) == 0)
        #expect(left.int64(row: 0, column: 1) == 0)
        try connection.execute("DROP TRIGGER refuse ON quake")
        let loaded = await QuakesRun.fetch([feed], database: store.location)
        #expect(loaded.status == .success, "\(loaded.standardError)")
        let counted = await QuakesRun.run(["count", "--db", store.location])
        #expect(counted.standardOutput == "\(count)\n")
    }

    /// The columns SQL users and dashboards read: times as timestamptz, `extra` as jsonb.
    /// The generated columns for SQL users hold what the stored fields say: `time_utc` and
    /// `updated_utc` the same instants, `extra_json` the same JSON as the exact text of `extra`.
    @Test func timesAndExtraAreThereForSQLUsers() async throws {
        let store = try TestEngine.postgresql.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.weekBefore, Fixtures.detail].map(Fixtures.path), database: store.location)
        let connection = try connect(store)
        let types = try connection.execute(
            """
            SELECT column_name, data_type FROM information_schema.columns
            WHERE table_name = 'quake' AND column_name IN ('time_utc', 'updated_utc', 'extra_json') ORDER BY 1
            """)
        #expect(
            (0..<types.rowCount).map { [types.string(row: $0, column: 0), types.string(row: $0, column: 1)] } == [
                ["extra_json", "jsonb"], ["time_utc", "timestamp with time zone"],
                ["updated_utc", "timestamp with time zone"],
            ])
        let quakes = try await store.read { try $0.allQuakes() }
        let rows = try connection.execute(
            """
            SELECT to_char(time_utc AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                to_char(updated_utc AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), extra_json::text
            FROM quake ORDER BY id
            """)
        #expect(rows.rowCount == quakes.count)
        for (row, quake) in quakes.enumerated() {
            #expect(rows.string(row: row, column: 0) == CivilTime.iso8601(quake.time), "\(quake.id)")
            #expect(rows.string(row: row, column: 1) == quake.updated.map(CivilTime.iso8601), "\(quake.id)")
            let json = rows.string(row: row, column: 2)
            #expect((json == nil) == (quake.extra == nil), "\(quake.id)")
            if let json, let extra = quake.extra {
                let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary
                let original = try JSONSerialization.jsonObject(with: Data(extra.utf8)) as? NSDictionary
                #expect(parsed != nil && parsed == original, "\(quake.id)")
            }
        }
        // The detail file's products are there to query, as jsonb.
        #expect(quakes.contains { $0.extra != nil })
        let products = try connection.execute(
            "SELECT jsonb_object_keys(extra_json -> 'products') FROM quake WHERE id = 'us1000chhc' ORDER BY 1")
        #expect((0..<products.rowCount).compactMap { products.string(row: $0, column: 0) }.contains("origin"))
    }

    @Test func timeWindowsAndMagnitudeSortsUseTheirIndexes() async throws {
        let store = try await EngineParityTests.Universe.shared.store(.postgresql)
        // The plans are read on a thread of their own (the reader blocks), and checked here.
        let (count, byMagnitude, window, strongest) = try await Blocking.run {
            let connection = try PostgresConnection(uri: store.location)
            try connection.execute("ANALYZE")
            let reader = try PostgresReader(uri: store.location, name: "test")
            var filter = QuakeFilter()
            filter.earliest = QueryUniverse.nowMilliseconds - 5 * 3_600_000
            filter.latest = QueryUniverse.nowMilliseconds
            var statement = PostgresStatement()
            let conditions = PostgresQuery.conditions(filter, &statement)
            let count = try reader.plan(
                "SELECT count(*) FROM quake \(PostgresQuery.whereClause(conditions))", statement.parameters)
            let byMagnitude = reader.listing(
                QuakeFilter(), in: nil, sort: SortSpec([SortSpec.Term(.magnitude)]), origin: nil, limit: 100)
            // A listing of a time window, newest first, and of the strongest events.
            let window = reader.listing(filter, in: nil, sort: SortSpec([]), origin: nil, limit: nil)
            var strong = QuakeFilter()
            strong.minimumMagnitude = 6
            let strongest = reader.listing(
                strong, in: nil, sort: SortSpec([SortSpec.Term(.magnitude)]), origin: nil, limit: nil)
            return (
                count, try reader.plan(byMagnitude.sql, byMagnitude.parameters),
                try reader.plan(window.sql, window.parameters), try reader.plan(strongest.sql, strongest.parameters)
            )
        }
        #expect(count.contains { $0.contains("quake_time") }, "\(count)")
        #expect(byMagnitude.contains { $0.contains("quake_mag") }, "\(byMagnitude)")
        #expect(!byMagnitude.contains { $0.contains("Sort") }, "\(byMagnitude)")
        #expect(window.contains { $0.contains("quake_time") }, "\(window)")
        // (A handful of rows: the planner may find them through the index and sort them after.)
        #expect(strongest.contains { $0.contains("Index") && $0.contains("quake_mag") }, "\(strongest)")
    }

    /// The roles of docs/postgresql.md, set up as it says: a writer that owns the
    /// database, whose tables a reader may select from by default privileges given beforehand.
    @Test func everyReadCommandWorksWithAReadOnlyRole() async throws {
        let store = try TestEngine.postgresql.newDatabase()
        let suffix = "_" + String(UInt32.random(in: 0...UInt32.max), radix: 36)
        let (writerRole, readerRole) = ("quakes_writer" + suffix, "quakes_reader" + suffix)
        let admin = try connect(store)
        let databaseName = try #require(try admin.execute("SELECT current_database()").string(row: 0, column: 0))
        try admin.execute("CREATE ROLE \(writerRole) LOGIN")
        try admin.execute("CREATE ROLE \(readerRole) LOGIN")
        defer {
            for role in [readerRole, writerRole] {
                _ = try? admin.execute("REASSIGN OWNED BY \(role) TO postgres")
                _ = try? admin.execute("DROP OWNED BY \(role)")
                _ = try? admin.execute("DROP ROLE \(role)")
            }
        }
        try admin.execute("ALTER DATABASE \(databaseName) OWNER TO \(writerRole)")
        try admin.execute(
            "ALTER DEFAULT PRIVILEGES FOR ROLE \(writerRole) IN SCHEMA public GRANT SELECT ON TABLES TO \(readerRole)")
        let writer = TestStore.uri(store.location, adding: "user=\(writerRole)")
        let fetched = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: writer)
        #expect(fetched.status == .success, "\(fetched.standardError)")
        let reader = TestStore.uri(store.location, adding: "user=\(readerRole)")
        for command in [
            ["count", "--section", "day"], ["list", "--format", "json"], ["show", "us7000enmc"], ["history"],
            ["status"],
        ] {
            let run = await QuakesRun.run([command[0], "--db", reader] + command.dropFirst())
            #expect(run.status == .success, "\(command): \(run.standardError)")
            #expect(!run.standardOutput.isEmpty)
        }
        let watch = RunningQuakes(["watch", "--no-fetch", "--db", reader, "--interval", "1h"])
        try await watch.wait { $0.contains("us7000enmc") }
        #expect(await watch.stop() == .success)
        let write = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: reader)
        #expect(write.status == .ioError)
        #expect(write.standardError.contains("permission denied"), "\(write.standardError)")
    }

    @Test func aWriterHoldingTheLockMakesAnotherWaitThenGiveUpWith75() async throws {
        let store = try TestEngine.postgresql.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: store.location)
        let holder = try connect(store)
        try holder.execute("SELECT pg_advisory_lock(\(PostgresSchema.writerLockKey))")
        let refused = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.weekAfter)], database: store.location, ["--wait", "0.2"])
        #expect(refused.status == .temporaryFailure)
        #expect(refused.standardError.contains("another quakes process is writing to"), "\(refused.standardError)")
        let prune = await QuakesRun.run(["prune", "--db", store.location, "--older-than", "1d"])
        #expect(prune.status == .temporaryFailure, "\(prune.standardError)")
        let before = try store.state()
        let waiting = RunningQuakes([
            "fetch", "--db", store.location, "--wait", "60", Fixtures.path(Fixtures.weekAfter),
        ])
        // Let go only once the patient fetch is trying the lock, and has written nothing.
        try await StalledFetch.waitUntil("the patient fetch tries the lock") {
            try holder.execute(
                """
                SELECT count(*) FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid()
                    AND query LIKE 'SELECT pg_try_advisory_lock(%'
                """
            ).int(row: 0, column: 0) ?? 0 > 0
        }
        #expect(try store.state() == before)
        try holder.execute("SELECT pg_advisory_unlock(\(PostgresSchema.writerLockKey))")
        let done = await waiting.finished()
        #expect(done.status == .success, "\(done.standardError)")
        #expect(try store.state() != before)
    }

    @Test func noMessageShowsThePassword() async throws {
        let server = try TestEngine.serverURI()
        let secret = "s3cret-" + String(UInt32.random(in: 0...UInt32.max))
        for uri in [
            "postgresql://quakes:\(secret)@127.0.0.1:1/quakes",
            "POSTGRESQL://quakes:\(secret)@127.0.0.1:1/quakes",
            TestStore.uri(server, database: "absent") + "&password=\(secret)",
        ] {
            for command in [["count"], ["fetch", Fixtures.path(Fixtures.weekBefore)], ["status", "--format", "json"]] {
                let run = await QuakesRun.run([command[0], "--db", uri] + command.dropFirst())
                #expect(run.status != .success)
                #expect(!(run.standardError + run.standardOutput).contains(secret), "\(run.standardError)")
                #expect(run.standardError.hasPrefix("Error: "), "\(run.standardError)")
            }
        }
    }

    /// A script tells a server that is down (69) from one that turned it away (77) and from a
    /// database nobody created (66), in one `Error:` line that names the host and port.
    @Test(arguments: [["count"], ["fetch", Fixtures.path(Fixtures.weekBefore)], ["watch", "--no-fetch"]])
    func aFailedConnectionEndsWithWhatAScriptCanActOn(command: [String]) async throws {
        let server = try TestEngine.serverURI()
        let cases: [(uri: String, status: QuakesCore.ExitStatus, says: String)] = [
            (
                "postgresql://quakes@127.0.0.1:1/quakes", .unavailable,
                #"connection to server at "127.0.0.1", port 1 failed"#
            ),
            (TestStore.uri(server, adding: "user=nobody_here"), .noPermission, #"role "nobody_here""#),
            (TestStore.uri(server, database: "absent"), .noInput, #"database "absent" does not exist"#),
        ]
        for (uri, status, says) in cases {
            let run = await QuakesRun.run([command[0], "--db", uri] + command.dropFirst())
            #expect(run.status == status, "\(uri): \(run.standardError)")
            #expect(run.standardError.hasPrefix("Error: cannot connect to "), "\(run.standardError)")
            #expect(run.standardError.contains(says), "\(run.standardError)")
            #expect(run.standardError.filter { $0 == "\n" }.count == 1, "\(run.standardError)")
        }
    }

    /// A commit from another process wakes `watch --no-fetch` at once, though its interval is an hour.
    @Test func aWatchOnAnotherHostHearsEveryCommit() async throws {
        let store = try TestEngine.postgresql.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: store.location)
        let watch = RunningQuakes([
            "watch", "--no-fetch", "--db", store.location, "--interval", "1h", "--format", "ndjson",
        ])
        // The first pass lists what is there; it listens from before it.
        try await watch.wait { $0.contains(#""id":"us7000enmc""#) }
        let fetch = try await ChildProcess.run(
            BinaryTests.executable, ["fetch", "--db", store.location, Fixtures.path(Fixtures.weekAfter)])
        #expect(fetch.status == 0, "\(fetch.errors)")
        try await watch.wait { $0.contains(#""id":"ci39746767""#) }
        #expect(await watch.stop() == .success)
    }
}
