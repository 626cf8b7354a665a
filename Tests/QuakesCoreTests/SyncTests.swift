import Foundation
import LocalHTTPServer
import Locking
import Testing

@testable import QuakesCore

/// `quakes sync` and vanished events against the FDSN emulator: revisions, deletions and merges of
/// events older than any feed arrive; a copy never grows beyond its scope; events a summary feed
/// stops listing are reported and confirmed by asking the service about each.
@Suite struct SyncTests {
    let start = BackfillTests.start
    let day = BackfillTests.day
    let minute: Int64 = 60_000

    /// The event stored under `id` (or the event it leads to), as `quakes show --format json` says.
    static func show(_ id: String, database: String) async throws -> [String: Any]? {
        let run = await QuakesRun.run(["show", "--db", database, id, "--format", "json"])
        guard run.status == .success else { return nil }
        return try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
    }

    static func sync(_ emulator: FDSNEmulator, database: String, now: Int64, _ options: [String] = []) async
        -> QuakesRun
    {
        await QuakesRun.run(
            ["sync", "--db", database, "--service", emulator.serviceURL, "--pause", "0", "--format", "json"] + options,
            now: now)
    }

    @Test(arguments: TestEngine.allCases) func aSyncBringsRevisionsDeletionsAndMergesAndStaysInItsScope(
        engine: TestEngine
    ) async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let backfilled = start + 40 * day
        let emulator = FDSNEmulator(server: server, cap: 1000, now: { backfilled })
        emulator.replace(FDSNEmulator.catalogue(count: 800, from: start, to: start + 30 * day, seed: 11))
        let store = try engine.newDatabase()
        let database = store.location
        let backfill = await QuakesRun.run(
            [
                "backfill", "--db", database, "--service", emulator.serviceURL, "--pause", "0", "--since",
                "2024-01-01T00:00:00Z", "--until", "2024-01-31T00:00:00Z", "--min-magnitude", "3", "--quiet",
            ], now: backfilled)
        #expect(backfill.status == .success, "\(backfill.standardError)")

        // Revisions a day later: one event's magnitude raised, one lowered below the scope's floor
        // (but not below the floor the sync asks), one deleted, one merged into another; an event
        // outside the scope revised, and a new event in it.
        let live = emulator.events.filter { !$0.isDeleted && $0.time < start + 30 * day }
        let inScope = live.filter { ($0.mag ?? 0) >= 3.5 && $0.ids.count == 1 }
        let raised = inScope[0].id
        let lowered = inScope[1].id
        let deleted = inScope[2].id
        let merged = inScope[3].id
        let survivor = inScope[4].id
        let outside = try #require(live.first { ($0.mag ?? 9) < 2.9 && ($0.mag ?? 0) > 2.1 }).id
        let revised = backfilled + 3_600_000
        emulator.update { events in
            for index in events.indices {
                switch events[index].id {
                case raised: events[index].mag = (events[index].mag ?? 0) + 0.5
                case lowered: events[index].mag = 2.6
                case deleted: events[index].status = "deleted"
                case survivor: events[index].ids += [merged]
                case outside: events[index].mag = 2.8
                default: continue
                }
                events[index].updated = revised
            }
            events.removeAll { $0.id == merged }
            events.append(
                FDSNEmulator.Event(
                    id: "us7000new1", time: start + 5 * day, updated: revised, mag: 4.1, magType: "mb",
                    place: "somewhere", longitude: 120, latitude: -5, depth: 33))
        }
        let raisedTo = try #require(emulator.events.first { $0.id == raised }?.mag)

        let synced = start + 41 * day
        let run = await Self.sync(emulator, database: database, now: synced)
        #expect(run.status == .success, "\(run.standardError)")
        let plan = try BackfillTests.plan(run)
        #expect(plan["parameters"] as? [String: String] == ["minmagnitude": "3"])
        #expect(plan["inserted"] as? Int == 1)
        #expect(plan["deleted"] as? Int == 2, "the deletion and the merged event")
        // The first sync asks from an hour before the backfill began, deleted events included, and
        // a magnitude floor one lower than the scope's.
        let query = try #require(server.received.last { $0.path.contains("updatedafter=") }?.path)
        #expect(query.contains("updatedafter=2024-02-09T23:00:00"), "\(query)")
        #expect(query.contains("includedeleted=true") && query.contains("minmagnitude=2"), "\(query)")

        #expect(try await Self.show(raised, database: database)?["mag"] as? Double == raisedTo)
        #expect(try await Self.show(lowered, database: database)?["mag"] as? Double == 2.6)
        #expect(try await Self.show(deleted, database: database) == nil)
        #expect(try await Self.show(merged, database: database)?["id"] as? String == survivor)
        #expect(try await Self.show(outside, database: database) == nil, "never stored: out of the scope")
        #expect(try await Self.show("us7000new1", database: database)?["mag"] as? Double == 4.1)

        // `status` lists the sync's plan as a source, complete, checked when its window was stored.
        let status = await QuakesRun.run(["status", "--db", database, "--format", "json"], now: synced)
        #expect(
            status.standardOutput.contains(#"includedeleted=true&minmagnitude=3","checked":"#),
            "\(status.standardOutput)")
        #expect(status.standardOutput.contains(#""outcome":"complete""#) || !engine.recordsChecks)

        // The next sync asks from an hour before this one began, and finds nothing new.
        let again = await Self.sync(emulator, database: database, now: synced + day)
        #expect(again.status == .success, "\(again.standardError)")
        let second = try BackfillTests.plan(again)
        #expect(second["inserted"] as? Int == 0 && second["updated"] as? Int == 0 && second["deleted"] as? Int == 0)
        let next = try #require(server.received.last { $0.path.contains("updatedafter=") }?.path)
        #expect(next.contains("updatedafter=2024-02-10T23:00:00"), "\(next)")
    }

    /// A sync reads `identity` on a connection of its own while its ingest is open (which features
    /// of the margin name a stored event). Into an empty PostgreSQL database, whose first ingest sets
    /// `quake`'s indexes aside and so locks that table, the read must not wait for the ingest, which
    /// waits for the read: the answer spans several batches, with features outside the scope and
    /// deletions in every one.
    @Test func aSyncIntoAnEmptyPostgreSQLDatabaseLoadsItsWholeScope() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let now = start + 40 * day
        let emulator = FDSNEmulator(server: server, now: { now })
        emulator.replace(FDSNEmulator.catalogue(count: 3000, from: start, to: start + 30 * day, seed: 7))
        emulator.update { events in
            for index in events.indices where index % 9 == 0 { events[index].status = "deleted" }
        }
        let store = try TestEngine.postgresql.newDatabase()
        // Should the read wait for the ingest after all, it gives up after 10 s and the sync fails,
        // rather than the test hang.
        let database = TestStore.uri(store.location, adding: "options=-c%20lock_timeout%3D10s")
        let run = await Self.sync(
            emulator, database: database, now: now, ["--since", "2024-01-01T00:00:00Z", "--min-magnitude", "3"])
        #expect(run.status == .success, "\(run.standardError)")
        let inScope = emulator.events.filter { !$0.isDeleted && ($0.mag ?? 0) >= 3 }
        #expect(inScope.count > 500 && inScope.count < 2000)
        let count = await QuakesRun.run(["count", "--db", store.location])
        #expect(count.standardOutput == "\(inScope.count)\n", "\(count.standardError)")
    }

    @Test func aSyncWithoutAScopeSaysWhatItNeeds() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let emulator = FDSNEmulator(server: server)
        let folder = try TemporaryDirectory()
        let run = await QuakesRun.run(
            ["sync", "--db", folder.file("q.sqlite"), "--service", emulator.serviceURL, "--pause", "0"])
        #expect(run.status == .usage)
        #expect(
            run.standardError.contains("Error: The database holds no events")
                || run.standardError.contains("Nothing to sync"), "\(run.standardError)")
        #expect(server.received.isEmpty)
    }

    /// The bytes of a URL, as a test's own client reads them.
    static func download(_ url: String) async throws -> [UInt8] {
        final class Collector: ByteSink {
            let bytes = Locked<[UInt8]>([])
            func receive(_ buffer: UnsafeRawBufferPointer) throws { bytes.withLock { $0 += buffer } }
            func finish() throws {}
        }
        let collector = Collector()
        _ = try await CurlDownloader().download(DownloadRequest(url: url, userAgent: "test"), into: collector)
        return collector.bytes.withLock { $0 }
    }

    @Test(arguments: TestEngine.allCases) func vanishedEventsAreReportedAndConfirmed(engine: TestEngine) async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let generated = start + 20 * day
        let clock = Locked(generated)
        let emulator = FDSNEmulator(server: server, now: { clock.withLock { $0 } })
        let first = generated - 6 * day
        var events: [FDSNEmulator.Event] = []
        for index in 0..<12 {
            let time: Int64 = first + Int64(index) * 36_000_000
            let magnitude: Double = 4.6 + Double(index) / 10
            events.append(
                FDSNEmulator.Event(
                    id: "us70000\(100 + index)", time: time, updated: time + minute, mag: magnitude, magType: "mww",
                    place: "place \(index)", longitude: 140, latitude: 36, depth: 10))
        }
        events.append(
            FDSNEmulator.Event(
                id: "us70000200", time: generated - 3 * day, updated: generated - 3 * day, mag: 4.4, magType: "mb",
                place: "below the threshold", longitude: 141, latitude: 37, depth: 20))
        emulator.replace(events)
        let feedQuery =
            emulator.serviceURL + "query?format=geojson&starttime=" + FDSNService.time(generated - 7 * day)
            + "&minmagnitude=4.5"
        let firstBody = try await Self.download(feedQuery)
        let (deleted, lowered, merged, survivor) = ("us70000101", "us70000102", "us70000103", "us70000200")
        emulator.update { events in
            for index in events.indices {
                switch events[index].id {
                case deleted: events[index].status = "deleted"
                case lowered: events[index].mag = 4.2
                case survivor: events[index].ids += [merged]
                default: continue
                }
                events[index].updated = generated + minute
            }
            events.removeAll { $0.id == merged }
        }
        clock.withLock { $0 = generated + 2 * minute }
        let second = try await Self.download(feedQuery)
        server.route(
            "/mirror/4.5_week.geojson",
            .sequence([.respond(status: 200, body: firstBody), .respond(status: 200, body: second)]))

        let store = try engine.newDatabase()
        let database = store.location
        let feed = server.url("/mirror/4.5_week.geojson")
        let before = await QuakesRun.fetch([feed], database: database, ["--format", "json"])
        #expect(before.standardOutput.contains(#""inserted":12"#), "\(before.standardOutput)")
        #expect(before.standardOutput.contains(#""vanished":[]"#))
        let copy = try store.copy()

        let after = await QuakesRun.fetch([feed], database: database)
        #expect(after.status == .success)
        #expect(
            after.standardError.contains("9 features, 0 new, 0 updated, 9 unchanged, 0 skipped, 3 vanished ("),
            "\(after.standardError)")
        let json = await QuakesRun.fetch([feed], database: database, ["--format", "json"])
        #expect(
            json.standardOutput.contains(#""vanished":["us70000101","us70000102","us70000103"]"#),
            "\(json.standardOutput)")
        // Nothing was changed on a guess: they are still stored.
        #expect(try await Self.show(deleted, database: database) != nil)

        let confirmed = await QuakesRun.fetch(
            [feed], database: database, ["--confirm-vanished", "--service", emulator.serviceURL, "--format", "json"])
        #expect(confirmed.status == .success, "\(confirmed.standardError)")
        let output = confirmed.standardOutput
        #expect(output.contains(#"{"id":"us70000101","outcome":"deleted","into":null,"error":null}"#), "\(output)")
        #expect(output.contains(#"{"id":"us70000102","outcome":"revised","into":null,"error":null}"#), "\(output)")
        #expect(
            output.contains(#"{"id":"us70000103","outcome":"merged","into":"us70000200","error":null}"#), "\(output)")
        #expect(try await Self.show(deleted, database: database) == nil)
        #expect(try await Self.show(lowered, database: database)?["mag"] as? Double == 4.2)
        #expect(try await Self.show(merged, database: database)?["id"] as? String == survivor)
        let quiet = await QuakesRun.fetch([feed], database: database)
        #expect(quiet.standardError.contains(" 0 vanished ("), "\(quiet.standardError)")

        // A sync settles the same three on the copy: its scope is the feed's threshold, and it
        // asks about the vanished events the fetch recorded that it did not settle itself.
        _ = await QuakesRun.fetch([feed], database: copy.location)
        let sync = await Self.sync(emulator, database: copy.location, now: generated + day)
        #expect(sync.status == .success, "\(sync.standardError)")
        #expect(try BackfillTests.plan(sync)["parameters"] as? [String: String] == ["minmagnitude": "4.5"])
        #expect(try await Self.show(deleted, database: copy.location) == nil)
        #expect(try await Self.show(lowered, database: copy.location)?["mag"] as? Double == 4.2)
        #expect(try await Self.show(merged, database: copy.location)?["id"] as? String == survivor)
        #expect(
            sync.standardOutput.contains(#""confirmed":[{"id":"us70000102","outcome":"current""#),
            "\(sync.standardOutput)")
    }
}
