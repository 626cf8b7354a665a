import Foundation
import LocalHTTPServer
import Registry
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// Polite, robust fetching against a server of the tests' own: conditional requests, retries,
/// bodies cut short, timeouts, and the progress line.
@Suite struct CronFetchTests {
    private func body() throws -> [UInt8] {
        try Fixtures.bytes(Fixtures.fourFiveLater)
    }

    @Test(arguments: TestEngine.allCases) func anUnchangedFeedIs304WritesNothingAndRecordsNoTransaction(
        engine: TestEngine
    ) async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/feed", .conditional(body: try body(), etag: "\"v1\"", lastModified: "Thu, 22 Jul 2021 20:40:00 GMT"))
        let store = try engine.newDatabase()
        let database = store.location
        let first = await QuakesRun.fetch([server.url("/feed")], database: database, ["--format", "json"])
        #expect(first.standardOutput.contains(#""status":"ok","features":78,"inserted":78"#))
        let before = try DatabaseContent.exceptFeedState(database)
        let file = try store.state()
        let checked = Environment.systemClock()

        let second = await QuakesRun.fetch([server.url("/feed")], database: database, ["--format", "json"])
        #expect(second.status == .success)
        #expect(second.standardOutput.contains(#""status":"not-modified","features":0"#))
        #expect(second.standardOutput.contains(#""token":null"#))
        #expect(server.received.last?.headers["if-none-match"] == "\"v1\"")
        #expect(server.received.last?.headers["if-modified-since"] == "Thu, 22 Jul 2021 20:40:00 GMT")
        // Only when it was checked is recorded (for `quakes status --fresh-within`); the GeoJSON
        // file records nothing of it, and stays byte for byte as it was.
        #expect(try DatabaseContent.exceptFeedState(database) == before)
        if engine.recordsChecks {
            let state = try #require(
                try DatabaseContent(path: database, tables: ["feed_state"]).tables["feed_state"]?.first)
            // url, etag, last_modified, fetched, checked, outcome, progress
            #expect(state[5] == "not-modified", "\(state)")
            #expect((Int64(state[4]) ?? 0) >= checked, "\(state)")
        } else {
            #expect(try store.state() == file)
        }
        let text = await QuakesRun.fetch([server.url("/feed")], database: database)
        #expect(text.standardError.hasPrefix("\(server.url("/feed")): not modified ("))
        let history = await QuakesRun.run(["history", "--db", database, "--last-token"])
        #expect(history.standardOutput == "1\n")

        let forced = await QuakesRun.fetch([server.url("/feed")], database: database, ["--force"])
        #expect(forced.standardError.contains("78 features, 0 new, 0 updated, 78 unchanged"))
        #expect(server.received.last?.headers["if-none-match"] == nil)
    }

    @Test(arguments: TestEngine.allCases) func lastModifiedAloneMakesTheRequestConditional(engine: TestEngine)
        async throws
    {
        let server = try LocalHTTPServer()
        server.route("/feed", .conditional(body: try body(), etag: nil, lastModified: "Thu, 22 Jul 2021 20:40:00 GMT"))
        let store = try engine.newDatabase()
        let database = store.location
        _ = await QuakesRun.fetch([server.url("/feed")], database: database)
        let second = await QuakesRun.fetch([server.url("/feed")], database: database, ["--format", "json"])
        #expect(second.standardOutput.contains(#""status":"not-modified""#))
        #expect(server.received.last?.headers["if-none-match"] == nil)
    }

    @Test func aServiceUnavailableIsRetriedUntilItAnswers() async throws {
        let server = try LocalHTTPServer()
        let unavailable = LocalHTTPServer.Route.respond(status: 503, body: Array("busy".utf8))
        server.route("/feed", .sequence([unavailable, .respond(status: 200, body: try body())]))
        let folder = try TemporaryDirectory()
        let run = await QuakesRun.fetch([server.url("/feed")], database: folder.file("q.sqlite"), ["--format", "json"])
        #expect(run.status == .success)
        #expect(run.standardOutput.contains(#""attempts":2"#))
        #expect(server.received.count == 2)
        let text = await QuakesRun.fetch([server.url("/feed")], database: folder.file("other.sqlite"))
        #expect(text.status == .success)
    }

    @Test func tooManyRequestsWaitsAsRetryAfterSays() async throws {
        let server = try LocalHTTPServer()
        let busy = LocalHTTPServer.Route.respond(
            status: 429, headers: ["Retry-After: 1"], body: Array("slow down".utf8))
        server.route("/feed", .sequence([busy, .respond(status: 200, body: try body())]))
        let folder = try TemporaryDirectory()
        let run = await QuakesRun.fetch([server.url("/feed")], database: folder.file("q.sqlite"), ["--format", "json"])
        #expect(run.status == .success)
        let times = server.received.map(\.time)
        #expect(times.count == 2)
        #expect(times[1] - times[0] >= .milliseconds(950))
    }

    @Test func otherClientErrorsAreNotRetried() async throws {
        let server = try LocalHTTPServer()
        server.route("/feed", .respond(status: 404, body: Array("gone".utf8)))
        let folder = try TemporaryDirectory()
        let run = await QuakesRun.fetch([server.url("/feed")], database: folder.file("q.sqlite"), ["--format", "json"])
        #expect(run.status == .unavailable)
        #expect(run.standardOutput.contains(#""attempts":1"#))
        #expect(server.received.count == 1)
    }

    @Test(arguments: TestEngine.allCases) func aBodyCutOffMidStreamIsRetriedAndNothingOfItStored(engine: TestEngine)
        async throws
    {
        let server = try LocalHTTPServer()
        let full = try Fixtures.bytes(Fixtures.weekAfter)
        server.route(
            "/flaky", .sequence([.truncated(body: full, sent: full.count / 2), .respond(status: 200, body: full)]))
        server.route("/broken", .truncated(body: full, sent: full.count / 2))
        let store = try engine.newDatabase()
        let database = store.location
        let flaky = await QuakesRun.fetch([server.url("/flaky")], database: database, ["--format", "json"])
        #expect(flaky.status == .success)
        #expect(flaky.standardOutput.contains(#""features":3280,"inserted":3280"#))
        #expect(flaky.standardOutput.contains(#""attempts":2"#))

        let before = try store.state()
        let broken = await QuakesRun.fetch([server.url("/broken")], database: database, ["--retries", "1"])
        #expect(broken.status == .unavailable)
        #expect(broken.standardError.hasPrefix("Error: \(server.url("/broken")): "))
        #expect(broken.standardError.hasSuffix("(gave up after 2 attempts)\n"))
        #expect(try store.state() == before)
    }

    @Test(arguments: TestEngine.allCases) func aResponseSlowerThanTheTimeoutFailsAfterItsRetries(engine: TestEngine)
        async throws
    {
        let server = try LocalHTTPServer()
        // Headers at once, then nothing for longer than the timeout, however slowly this process runs.
        server.route("/slow", .slow(body: try body(), pieces: 2, pause: 2.5))
        let store = try engine.newDatabase()
        let database = store.location
        let run = await QuakesRun.fetch(
            [server.url("/slow")], database: database, ["--timeout", "1", "--retries", "1"])
        #expect(run.status == .unavailable)
        #expect(
            run.standardError
                == "Error: \(server.url("/slow")): no complete answer within 1 s (see --timeout) (gave up after 2 attempts)\n"
        )
        #expect(server.received.count == 2)
        // Nothing stored, nothing left: a database file is made only when a first write commits
        // (an SQLite file's `DatabaseDraft`, a GeoJSON store's first write), and the writer that
        // stored nothing removes its lock file.
        if engine != .postgresql {
            #expect(try FileManager.default.contentsOfDirectory(atPath: store.file("")) == [])
        } else {
            #expect(try await store.read { try $0.count() } == 0)
        }
    }

    @Test func progressIsDrawnOnATerminalOnly() async throws {
        let server = try LocalHTTPServer()
        server.route("/slow", .slow(body: try Fixtures.bytes(Fixtures.weekAfter), pieces: 6, pause: 0.25))
        let folder = try TemporaryDirectory()
        func fetch(terminal: Bool, quiet: Bool) async -> String {
            let errors = CapturedOutput()
            var environment = Environment(
                variables: [:], currentDirectory: "/", standardOutput: CapturedOutput(),
                standardError: errors, standardErrorIsTerminal: terminal)
            Registry.equip(&environment)
            let arguments = ["fetch", "--db", folder.file("\(terminal)\(quiet).sqlite"), server.url("/slow")]
            _ = await Quakes.main(arguments + (quiet ? ["--quiet"] : []), in: environment)
            return errors.text
        }
        let terminal = await fetch(terminal: true, quiet: false)
        #expect(terminal.contains("\r\u{1B}[K\(server.url("/slow")): "))
        #expect(terminal.contains(" of 2.2 MB"))
        #expect(terminal.contains("\r\u{1B}[K\(server.url("/slow")): 3280 features, 3280 new"))
        let pipe = await fetch(terminal: false, quiet: false)
        #expect(!pipe.contains("\r"))
        #expect(pipe.hasPrefix("\(server.url("/slow")): 3280 features"))
        #expect(await fetch(terminal: true, quiet: true).isEmpty)
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() {
        let now = CivilTime.milliseconds(year: 2021, month: 7, day: 22, hour: 20, minute: 39)
        #expect(RetryAfter.seconds("120", now: now) == 120)
        #expect(RetryAfter.seconds("Thu, 22 Jul 2021 20:40:30 GMT", now: now) == 90)
        #expect(RetryAfter.seconds("Thu, 22 Jul 2021 20:00:00 GMT", now: now) == 0)
        #expect(RetryAfter.seconds("soon", now: now) == nil)
    }
}
