import Foundation
import LocalHTTPServer
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// `quakes fetch` over HTTP, against a server of the tests' own on 127.0.0.1.
@Suite struct HTTPFetchTests {
    @Test func aGzippedFeedIsDecompressedAndStored() async throws {
        let server = try LocalHTTPServer()
        server.route("/all_week.geojson", .gzip(try Fixtures.bytes(Fixtures.escapedGzip)))
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")

        let run = await QuakesRun.fetch([server.url("/all_week.geojson")], database: database, ["--format", "json"])
        #expect(run.status == .success, "\(run.standardError)")
        #expect(run.standardOutput.contains(#""features":4119,"inserted":4119"#))
        #expect(run.standardOutput.contains(#""bytes":2890069"#))  // Counted after decompression.
        let request = try #require(server.received.first)
        #expect(request.headers["user-agent"] == "quakes/\(Quakes.version)")
        #expect(request.headers["accept-encoding"]?.contains("gzip") == true)
        let reader = try SQLiteReader(path: database)
        #expect(try reader.quake(id: "us6000a92u")?.place == "57 km SSW of Lithakiá, Greece")
        #expect(try reader.count() == 4119)
    }

    @Test(arguments: [
        (404, "HTTP 404 Not Found"), (500, "HTTP 500 Internal Server Error"), (503, "HTTP 503 Service Unavailable"),
        (418, "HTTP 418"),
    ])
    func anHTTPErrorStatusIsAnUnavailableServiceAndStoresNothing(status: Int, message: String) async throws {
        let server = try LocalHTTPServer()
        let page = Array("<html><body>error</body></html>".utf8)
        server.route("/feed.geojson", .respond(status: status, body: page))
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        let before = try DatabaseState(path: database)

        let run = await QuakesRun.fetch([server.url("/feed.geojson")], database: database, ["--retries", "0"])
        #expect(run.status == .unavailable)
        #expect(run.status.code == 69)
        #expect(run.standardError == "Error: \(message) from \(server.url("/feed.geojson"))\n")
        #expect(try DatabaseState(path: database) == before)
    }

    @Test func redirectsAreFollowedAmongHTTPURLs() async throws {
        let server = try LocalHTTPServer()
        server.route("/old", .redirect(server.url("/new")))
        server.route("/new", .respond(status: 200, body: try Fixtures.bytes(Fixtures.alerts)))
        let folder = try TemporaryDirectory()
        let run = await QuakesRun.fetch([server.url("/old")], database: folder.file("q.sqlite"), ["--format", "json"])
        #expect(run.status == .success)
        #expect(run.standardOutput.contains(#""url":"\#(server.url("/new"))""#))
        #expect(run.standardOutput.contains(#""features":18"#))
    }

    @Test func aRedirectToAFileURLIsRefused() async throws {
        let server = try LocalHTTPServer()
        server.route("/sneaky", .redirect("file://\(Fixtures.path(Fixtures.alerts))"))
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let run = await QuakesRun.fetch([server.url("/sneaky")], database: database)
        #expect(run.status == .unavailable)
        #expect(run.standardError.contains("redirects are followed only to http and https"))
        // Nothing stored, so no database: one is made only when a first write commits.
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let server = try LocalHTTPServer()
        server.route("/slow", .silence)
        let folder = try TemporaryDirectory()
        let run = await QuakesRun.fetch(
            [server.url("/slow")], database: folder.file("q.sqlite"),
            ["--timeout", "1", "--retries", "0"])
        #expect(run.status == .unavailable)
        #expect(run.standardError == "Error: \(server.url("/slow")): no complete answer within 1 s (see --timeout)\n")
    }

    @Test func aResponseLargerThanTheLimitIsRefused() async throws {
        let server = try LocalHTTPServer()
        server.route("/feed.geojson", .respond(status: 200, body: try Fixtures.bytes(Fixtures.prettyPrinted)))
        server.route("/bomb.geojson", .gzip(try Fixtures.bytes(Fixtures.escapedGzip)))
        server.route("/endless.geojson", .endless)
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")

        let plain = await QuakesRun.fetch([server.url("/feed.geojson")], database: database, ["--max-bytes", "100K"])
        #expect(plain.status == .dataError)
        #expect(
            plain.standardError
                == "Error: \(server.url("/feed.geojson")): the response is larger than 102400 bytes (see --max-bytes)\n"
        )
        // 314 KB on the wire, 2.9 MB once decompressed: the limit counts decompressed bytes.
        let bomb = await QuakesRun.fetch([server.url("/bomb.geojson")], database: database, ["--max-bytes", "1M"])
        #expect(bomb.status == .dataError)
        #expect(bomb.standardError.contains("larger than 1048576 bytes"))
        let endless = await QuakesRun.fetch(
            [server.url("/endless.geojson")], database: database, ["--max-bytes", "4M"])
        #expect(endless.status == .dataError)
        #expect(endless.standardError.contains("larger than 4194304 bytes"))
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    @Test func aConnectionRefusedIsAnUnavailableService() async throws {
        let server = try LocalHTTPServer()
        let url = server.url("/feed.geojson")
        server.stop()
        let folder = try TemporaryDirectory()
        let run = await QuakesRun.fetch([url], database: folder.file("q.sqlite"))
        #expect(run.status == .unavailable)
        #expect(run.standardError.hasPrefix("Error: \(url): "))
    }

    @Test(arguments: TestEngine.allCases) func severalSourcesDownloadAtOnceAndEachStandsAlone(engine: TestEngine)
        async throws
    {
        let server = try LocalHTTPServer()
        server.route("/a.geojson", .respond(status: 200, body: try Fixtures.bytes(Fixtures.weekBefore)))
        server.route("/b.geojson", .respond(status: 200, body: try Fixtures.bytes(Fixtures.nullPlaces)))
        server.route("/c.geojson", .respond(status: 200, body: Array("<html>".utf8)))
        let store = try engine.newDatabase()
        let database = store.location
        let run = await QuakesRun.fetch(
            [server.url("/a.geojson"), server.url("/c.geojson"), server.url("/b.geojson")],
            database: database, ["--format", "json"])
        #expect(run.status == .dataError)
        #expect(
            run.standardError
                == "Error: \(server.url("/c.geojson")): not a valid GeoJSON feed: the document is not JSON (it looks like HTML or XML) (at byte 0)\n"
        )
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any])
        let sources = try #require(json["sources"] as? [[String: Any]])
        #expect(sources.map { $0["status"] as? String } == ["ok", "error", "ok"])
        #expect(sources.map { $0["features"] as? Int } == [3098, nil, 667])
        #expect(sources[1]["exitCode"] as? Int == 65)
        #expect(try await store.read { try $0.count() } == 3098 + 667)
    }
}
