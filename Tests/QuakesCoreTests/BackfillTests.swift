import Foundation
import LocalHTTPServer
import Testing

@testable import QuakesCore

/// `quakes backfill` against an FDSN emulator on 127.0.0.1 that answers as ComCat does (the cap,
/// the 400 for too many, whole-second inclusive times), over catalogues with aftershock bursts
/// dense enough to need windows of minutes and events on window boundaries.
@Suite struct BackfillTests {
    /// 2024-01-01T00:00:00Z.
    static let start: Int64 = 1_704_067_200_000
    static let day: Int64 = 86_400_000
    /// When the tests' clock says the backfills run: a month after `start`.
    static let now = start + 40 * day

    /// A service with 3,000 events over 30 days and a burst of 2,500 in 10 minutes, capped at 1,000
    /// events an answer, so that windows must shrink to a few minutes in the burst.
    static func service(cap: Int = 1000, seed: UInt64 = 7) throws -> (LocalHTTPServer, FDSNEmulator) {
        let server = try LocalHTTPServer()
        let emulator = FDSNEmulator(server: server, cap: cap, now: { now })
        emulator.replace(
            FDSNEmulator.catalogue(
                count: 3000, from: start, to: start + 30 * day, seed: seed,
                bursts: [(at: start + 10 * day + 3_600_000, events: 2500, spanMilliseconds: 600_000)]))
        return (server, emulator)
    }

    static func backfill(
        _ emulator: FDSNEmulator, database: String, _ options: [String] = [], now: Int64 = now
    ) async -> QuakesRun {
        await QuakesRun.run(
            [
                "backfill", "--db", database, "--service", emulator.serviceURL, "--pause", "0", "--since",
                "2024-01-01T00:00:00Z", "--until", "2024-01-31T00:00:00Z", "--format", "json",
            ] + options, now: now)
    }

    /// The ids of the events the service holds in the range, not deleted.
    static func expectedIDs(_ emulator: FDSNEmulator, from: Int64 = start, to: Int64 = start + 30 * day) -> [String] {
        emulator.events.filter { !$0.isDeleted && $0.time >= from && $0.time < to }.map(\.id).sorted()
    }

    static func storedIDs(_ database: String) throws -> [String] {
        try DatabaseContent(path: database, tables: ["quake"]).tables["quake"]!.map { $0[0] }.sorted()
    }

    static func summary(_ run: QuakesRun) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
        return try #require(object, "\(run.standardOutput) \(run.standardError)")
    }

    static func plan(_ run: QuakesRun) throws -> [String: Any] {
        try #require((try summary(run)["plans"] as? [[String: Any]])?.first, "\(run.standardOutput)")
    }

    @Test(arguments: TestEngine.allCases) func everyEventOfABurstIsStoredExactlyOnce(engine: TestEngine) async throws {
        let (server, emulator) = try Self.service()
        defer { server.stop() }
        let store = try engine.newDatabase()
        let run = await Self.backfill(emulator, database: store.location)
        #expect(run.status == .success, "\(run.standardError)")
        let expected = Self.expectedIDs(emulator)
        #expect(try Self.storedIDs(store.location) == expected)
        let plan = try Self.plan(run)
        #expect(plan["complete"] as? Bool == true)
        #expect(plan["inserted"] as? Int == expected.count)
        #expect(plan["features"] as? Int == expected.count, "no event stored twice, none counted twice")
        #expect(plan["unchanged"] as? Int == 0)
        // Near the fewest requests: at least one per cap's worth of events, and the refusals that
        // found the burst's density; the emulator counts what it answered.
        let requests = try #require(plan["requests"] as? Int)
        let minimum = (expected.count + emulator.cap - 1) / emulator.cap
        #expect(requests == emulator.requests.query)
        // A burst of 2,500 events in ten minutes at a cap of 1,000 costs refusals to find; about
        // 30 requests for a minimum of 6 here (the closing figure is in the reliability table).
        #expect(requests <= 6 * minimum, "\(requests) requests for a minimum of \(minimum)")
        #expect(emulator.requests.count == 0)
        // Windows shrank below an hour in the burst: some query asked for less than that.
        let windows = server.received.compactMap { Self.window(of: $0.path) }
        #expect(windows.contains { $0 < 3_600_000 }, "\(windows)")

        let again = await Self.backfill(emulator, database: store.location)
        #expect(again.status == .success)
        #expect(try Self.plan(again)["wasComplete"] as? Bool == true)
        #expect(emulator.requests.query == requests, "a complete backfill asks nothing")
        let text = await Self.backfill(emulator, database: store.location, ["--format", "text"])
        #expect(text.standardError.contains("complete already, nothing to fetch; later events come with 'quakes sync'"))
        ReliabilityReport.record(
            "Service", "backfill through a burst (\(engine.rawValue))", runs: 1,
            "\(expected.count) events in \(requests) requests (minimum \(minimum)) at a cap of \(emulator.cap)")
    }

    /// Four windows at a time, some 60 in all: every event is stored, and the backfill's end is
    /// recorded whole, so that the next one asks nothing. (Each window's commit records the
    /// progress as it stood when its download ended; a window committed meanwhile beside it is
    /// missing there, which is why the pass's end is recorded once more. That interleaving did not
    /// come about in five runs here: this holds the end-to-end behaviour, not the race.)
    @Test func aBackfillOfFourWindowsAtATimeStoresEveryEventAndIsRecordedComplete() async throws {
        // 3,000 events, no burst, at most 50 an answer: some 60 windows, four at a time.
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let emulator = FDSNEmulator(server: server, cap: 50, now: { Self.now })
        emulator.replace(FDSNEmulator.catalogue(count: 3000, from: Self.start, to: Self.start + 30 * Self.day, seed: 7))
        let store = try TestEngine.sqlite.newDatabase()
        let run = await Self.backfill(emulator, database: store.location, ["--concurrency", "4"])
        #expect(run.status == .success, "\(run.standardError)")
        #expect(try Self.storedIDs(store.location) == Self.expectedIDs(emulator))
        #expect(try Self.plan(run)["complete"] as? Bool == true)
        let requests = emulator.requests.query
        let again = await Self.backfill(emulator, database: store.location, ["--concurrency", "4"])
        #expect(again.status == .success, "\(again.standardError)")
        #expect(try Self.plan(again)["wasComplete"] as? Bool == true, "\(again.standardOutput)")
        #expect(emulator.requests.query == requests, "a complete backfill asks nothing")
    }

    /// The length of the time window a query asked for, from its `starttime` and `endtime`.
    static func window(of path: String) -> Int64? {
        let parameters = Dictionary(
            (URLComponents(string: path)?.queryItems ?? []).map { ($0.name, $0.value ?? "") },
            uniquingKeysWith: { first, _ in first })
        guard let start = parameters["starttime"].flatMap(Self.milliseconds),
            let end = parameters["endtime"].flatMap(Self.milliseconds)
        else { return nil }
        return end - start
    }

    static func milliseconds(_ text: String) -> Int64? {
        TimeExpression.Moment(text + "Z")?.resolve(now: 0, zone: .utc)
    }

    @Test func eventsOnWindowBoundariesAreStoredOnceAndTimesAreWholeSeconds() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let emulator = FDSNEmulator(server: server, cap: 3, now: { Self.now })
        // Five events a second apart on whole seconds, and one just after the last: every boundary
        // a window can have here falls on an event.
        let base = Self.start + Self.day
        var events = (0..<5).map { index in
            FDSNEmulator.Event(
                id: "us\(index)", time: base + Int64(index) * 1000, updated: base, mag: 3, magType: "ml",
                place: "here", longitude: 1, latitude: 2, depth: 5)
        }
        events.append(
            FDSNEmulator.Event(
                id: "us5", time: base + 4001, updated: base, mag: 3, magType: "ml", place: "here", longitude: 1,
                latitude: 2, depth: 5))
        emulator.replace(events)
        let folder = try TemporaryDirectory()
        let run = await QuakesRun.run(
            [
                "backfill", "--db", folder.file("q.sqlite"), "--service", emulator.serviceURL, "--pause", "0",
                "--since", "2024-01-02T00:00:00Z", "--until", "2024-01-02T00:00:04.001Z", "--format", "json",
            ], now: Self.now)
        #expect(run.status == .success, "\(run.standardError)")
        // --until is exclusive: the event at 4.001 s is not in.
        #expect(try Self.storedIDs(folder.file("q.sqlite")) == ["us0", "us1", "us2", "us3", "us4"])
        #expect(try Self.plan(run)["features"] as? Int == 5)
        for request in server.received {
            for name in ["starttime=", "endtime="] {
                let value = request.path.components(separatedBy: name).dropFirst().first?.prefix(19)
                #expect(value.map { !$0.contains(".") } ?? false, "\(request.path)")
            }
            #expect(!request.path.contains("limit="), "\(request.path)")
        }
    }

    /// A service whose cap is smaller than the events of one second cannot be paged: the backfill
    /// ends with the service's fault (69) and a message naming the service, and a first backfill
    /// leaves no database.
    @Test func aServiceThatCannotBePagedIsTheServicesFault() async throws {
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let emulator = FDSNEmulator(server: server, cap: 2, now: { Self.now })
        let second = Self.start + Self.day
        emulator.replace(
            (0..<3).map { index in
                FDSNEmulator.Event(
                    id: "us\(index)", time: second + Int64(index) * 100, updated: second, mag: 3, magType: "ml",
                    place: "here", longitude: 1, latitude: 2, depth: 5)
            })
        let folder = try TemporaryDirectory()
        let run = await QuakesRun.run(
            [
                "backfill", "--db", folder.file("q.sqlite"), "--service", emulator.serviceURL, "--pause", "0",
                "--since", "2024-01-02T00:00:00Z", "--until", "2024-01-02T00:00:01Z",
            ], now: Self.now)
        #expect(run.status == .unavailable, "\(run.standardError)")
        #expect(
            run.standardError.hasPrefix(
                "Error: the FDSN event service \(emulator.serviceURL) answers more than 2 events even for the second "
                    + "from 2024-01-02T00:00:00"), "\(run.standardError)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left == [], "\(left)")
    }

    @Test func aThrottledServiceIsWaitedForAndAnOutageResumesWhereItStopped() async throws {
        let (server, emulator) = try Self.service()
        defer { server.stop() }
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        emulator.throttle(next: 1, retryAfter: "1")
        emulator.fail(next: 1)
        let run = await Self.backfill(emulator, database: database)
        #expect(run.status == .success, "\(run.standardError)")
        #expect(try Self.plan(run)["retried"] as? Int == 2)
        #expect(server.received.first?.headers["user-agent"] == "quakes/\(Quakes.version)")
        #expect(try Self.storedIDs(database) == Self.expectedIDs(emulator))

        // An outage longer than the retries: the run fails (69) having stored nothing, but its plan
        // is kept, and without --until its end stays when it first ran. (In a database that holds
        // something: one that holds nothing is left as none, below.)
        let other = folder.file("other.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: other)
        let fixtureIDs = try Self.storedIDs(other)
        #expect(fixtureIDs.count == 18)
        emulator.fail(next: 1)
        let arguments = [
            "backfill", "--db", other, "--service", emulator.serviceURL, "--pause", "0", "--since",
            "2024-01-01T00:00:00Z", "--retries", "0", "--format", "json",
        ]
        let failed = await QuakesRun.run(arguments, now: Self.start + 30 * Self.day)
        #expect(failed.status == .unavailable, "\(failed.standardError)")
        #expect(failed.standardError.contains("Error: HTTP 503"))
        #expect(try Self.summary(failed)["exitCode"] as? Int == 69)
        let resumed = await QuakesRun.run(arguments, now: Self.now)
        #expect(resumed.status == .success, "\(resumed.standardError)")
        #expect(try Self.plan(resumed)["until"] as? String == "2024-01-31T00:00:00.000Z")
        #expect(try Self.storedIDs(other) == (Self.expectedIDs(emulator) + fixtureIDs).sorted())

        // Into a new database the same outage leaves no database, and the next run starts afresh.
        let new = folder.file("new.sqlite")
        emulator.fail(next: 1)
        var fresh = arguments
        fresh[2] = new
        let none = await QuakesRun.run(fresh, now: Self.start + 30 * Self.day)
        #expect(none.status == .unavailable, "\(none.standardError)")
        #expect(!FileManager.default.fileExists(atPath: new))
        #expect(!FileManager.default.fileExists(atPath: new + ".lock"))
    }

    /// `kill -9` and SIGTERM at random moments of a backfill run by the binary, which is then run
    /// again until it completes: the events and their owners are exactly those of a backfill that
    /// was never interrupted.
    @Test(arguments: TestEngine.allCases) func aBackfillKilledAtRandomMomentsEndsAsAnUninterruptedOne(
        engine: TestEngine
    ) async throws {
        let (server, emulator) = try Self.service()
        defer { server.stop() }
        let reference = try engine.newDatabase()
        let uninterrupted = await Self.backfill(emulator, database: reference.location)
        #expect(uninterrupted.status == .success, "\(uninterrupted.standardError)")
        let expected = try DatabaseContent(path: reference.location, tables: DatabaseContent.orderIndependentTables)

        var generator = SystemRandomNumberGenerator()
        var kills = 0
        for round in 0..<SuiteMode.rounds(2, long: 10, sanitized: 1) {
            let store = try engine.newDatabase()
            var finished = false
            for attempt in 0..<40 where !finished {
                let child = try ChildProcess(
                    BinaryTests.executable,
                    [
                        "backfill", "--db", store.location, "--service", emulator.serviceURL, "--pause", "0",
                        "--since", "2024-01-01T00:00:00Z", "--until", "2024-01-31T00:00:00Z", "--quiet",
                    ], captureOutput: false, captureErrors: true)
                // The moment is the point: anywhere in a run of a second or two, growing with each
                // attempt so that the backfill always ends.
                try await Task.sleep(for: .milliseconds(Int.random(in: 20...(150 + 100 * attempt), using: &generator)))
                kill(child.identifier, Bool.random(using: &generator) ? SIGKILL : SIGTERM)
                let process = await child.finish()
                if process.reason == .exit && process.status == 0 {
                    finished = true
                } else {
                    kills += 1
                    #expect([143, 15, 9].contains(process.status), "round \(round): \(process.status)")
                }
                // A backfill killed before it created the file leaves none, which is as good.
                if engine == .sqlite, FileManager.default.fileExists(atPath: store.location) {
                    #expect(try DatabaseContent.integrity(of: store.location) == "ok")
                }
            }
            if !finished {
                let last = await Self.backfill(emulator, database: store.location)
                #expect(last.status == .success)
            }
            #expect(
                try DatabaseContent(path: store.location, tables: DatabaseContent.orderIndependentTables) == expected,
                "round \(round)")
        }
        ReliabilityReport.record(
            "Fault", "SIGTERM or `kill -9` at random moments of a backfill, then run again (\(engine.rawValue))",
            runs: kills, "every time the same events and owners as an uninterrupted backfill")
    }

    /// Windows are cut at whole seconds strictly inside them, never into a piece a request cannot
    /// ask for alone, and a window inside one second is not cut at all.
    @Test func windowsSplitAtWholeSecondsInside() {
        #expect(PagedFetch.split(0..<10_000, into: 2) == [0..<5000, 5000..<10_000])
        #expect(PagedFetch.split(500..<10_250, into: 4) == [500..<2000, 2000..<5000, 5000..<7000, 7000..<10_250])
        #expect(PagedFetch.split(4000..<5001, into: 3) == [4000..<5000, 5000..<5001])
        #expect(PagedFetch.split(4000..<5000, into: 2) == nil)
        #expect(PagedFetch.split(4001..<4999, into: 2) == nil)
        #expect(PagedFetch.split(0..<2000, into: 50) == [0..<1000, 1000..<2000])
    }
}
