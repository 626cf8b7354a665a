import Foundation
import LocalHTTPServer
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// `quakes status`: what the database holds, and whether a fetch succeeded recently enough, for
/// monitoring.
@Suite struct StatusTests {
    @Test(arguments: TestEngine.allCases) func itReportsTheDatabaseItsEventsAndEachSource(engine: TestEngine)
        async throws
    {
        let store = try engine.newDatabase()
        let database = store.location
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route(
            "/feed", .conditional(body: try Fixtures.bytes(Fixtures.alerts), etag: "\"v1\"", lastModified: nil))
        _ = await QuakesRun.run(["fetch", "--db", database, server.url("/feed")], now: 1_700_000_000_000)
        _ = await QuakesRun.run(
            ["fetch", "--db", database, Fixtures.path(Fixtures.fourFiveLater)], now: 1_700_000_100_000)
        // The second fetch of the server's feed is answered 304: a success too.
        _ = await QuakesRun.run(["fetch", "--db", database, server.url("/feed")], now: 1_700_000_200_000)

        let json = await QuakesRun.run(["status", "--db", database, "--format", "json"])
        #expect(json.status == .success, "\(json.standardError)")
        let status = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let quakes = try await store.read { try $0.allQuakes() }
        #expect(status["database"] as? String == database)
        #expect(status["schemaVersion"] as? Int == Int(engine.schemaVersion))
        #expect(status["events"] as? Int == quakes.count)
        #expect(status["tombstones"] as? Int == 0)
        #expect(status["earliest"] as? String == CivilTime.iso8601(quakes.map(\.time).min()!))
        #expect(status["latest"] as? String == CivilTime.iso8601(quakes.map(\.time).max()!))
        let newest = try #require(status["newest"] as? [String: Any])
        #expect(newest["id"] as? String == quakes.max { $0.time < $1.time }?.id)
        #expect(status["lastToken"] as? Int == 2)
        let sources = try #require(status["sources"] as? [[String: Any]])
        #expect(sources.count == 2)
        let http = try #require(sources.first { ($0["url"] as? String)?.hasPrefix("http") == true })
        #expect(http["etag"] as? String == "\"v1\"")
        let file = try #require(sources.first { ($0["url"] as? String)?.hasPrefix("file") == true })
        #expect(status["fresh"] == nil)
        #expect(status["checksRecorded"] as? Bool == engine.recordsChecks)
        let table = await QuakesRun.run(["status", "--db", database, "--utc"])
        #expect(table.standardOutput.contains("events         \(quakes.count)\n"), "\(table.standardOutput)")
        guard engine.recordsChecks else {
            // Nothing of when a check happened is in the file, which changes only with what it holds.
            #expect(status["lastSuccess"] is NSNull)
            for source in sources { #expect(source["checked"] is NSNull && source["outcome"] is NSNull) }
            #expect(table.standardOutput.contains("last success   not recorded\n"))
            #expect(!table.standardOutput.contains("checked"))
            return
        }
        #expect(status["lastSuccess"] as? String == "2023-11-14T22:16:40.000Z")
        #expect(http["outcome"] as? String == "not-modified")
        #expect(http["checked"] as? String == "2023-11-14T22:16:40.000Z")
        #expect(file["outcome"] as? String == "ok")
        #expect(table.standardOutput.contains("last success   2023-11-14 22:16:40 UTC\n"))
        #expect(table.standardOutput.contains("  checked      2023-11-14 22:16:40 UTC (not-modified)\n"))
    }

    @Test func freshWithinIsRefusedWhereChecksAreNotRecorded() async throws {
        let store = try TestEngine.geojson.newDatabase()
        _ = await QuakesRun.run(
            ["fetch", "--db", store.location, Fixtures.path(Fixtures.alerts)], now: 1_700_000_000_000)
        let run = await QuakesRun.run(
            ["status", "--db", store.location, "--fresh-within", "2h"], now: 1_700_000_000_000)
        #expect(run.status == .usage)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.hasPrefix("Error: \(store.location) does not record when a fetch last succeeded"))
        #expect(
            run.standardError.contains(
                "(it is a GeoJSON-file store, and the file changes only when what it holds does), so --fresh-within "
                    + "cannot tell; keep the catalogue in a PostgreSQL database (--db postgresql://…) or an SQLite file "
                    + "(--db quakes.sqlite) to monitor it this way"), "\(run.standardError)")
    }

    @Test(arguments: TestEngine.recordingChecks) func freshWithinExitsWith1WhenNoFetchSucceededInTime(
        engine: TestEngine
    )
        async throws
    {
        let store = try engine.newDatabase()
        let database = store.location
        _ = await QuakesRun.run(["fetch", "--db", database, Fixtures.path(Fixtures.alerts)], now: 1_700_000_000_000)
        let fresh = await QuakesRun.run(
            ["status", "--db", database, "--fresh-within", "2h", "--format", "json"], now: 1_700_000_000_000 + 7_000_000
        )
        #expect(fresh.status == .success)
        #expect(fresh.standardOutput.contains(#""fresh":true"#))
        let stale = await QuakesRun.run(
            ["status", "--db", database, "--fresh-within", "2h", "--format", "json", "--utc"],
            now: 1_700_000_000_000 + 7_300_000)
        #expect(stale.status == .failure)
        #expect(stale.standardOutput.contains(#""fresh":false"#))
        #expect(
            stale.standardError
                == "Error: no fetch succeeded within 2h of 2023-11-15 00:15:00 UTC (the last one: 2023-11-14 22:13:20 UTC)\n"
        )
        // A failed fetch is not a success, and leaves the database as it was.
        let broken = store.file("broken.geojson")
        try "<html>".write(toFile: broken, atomically: true, encoding: .utf8)
        let failed = await QuakesRun.run(["fetch", "--db", database, broken], now: 1_700_000_000_000 + 7_200_000)
        #expect(failed.status == .dataError)
        let still = await QuakesRun.run(
            ["status", "--db", database, "--fresh-within", "2h"], now: 1_700_000_000_000 + 7_300_000)
        #expect(still.status == .failure)
        // A database that was never fetched into is never fresh.
        let emptyStore = try engine.newDatabase()
        let empty = emptyStore.location
        _ = await QuakesRun.run(["prune", "--db", empty, "--older-than", "1d"])
        let never = await QuakesRun.run(["status", "--db", empty, "--fresh-within", "1w"])
        #expect(never.status == .failure)
        #expect(never.standardError.hasSuffix("(none ever did)\n"))
    }
}
