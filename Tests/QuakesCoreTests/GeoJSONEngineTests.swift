import Foundation
import LocalHTTPServer
import Registry
import Testing

@testable import GeoJSONEngine
@testable import QuakesCore

/// What only the GeoJSON-file store promises, through the command line: the file is what web maps
/// and GIS tools open, its bytes depend only on what it holds, it is replaced whole, and it keeps
/// no history but its last token. The behavioural suites run it beside the SQL engines for
/// everything else (`TestEngine.geojson`).
@Suite struct GeoJSONEngineTests {
    @Test func theSameContentGivesTheSameBytesWhateverTheOrderOfTheFetches() async throws {
        let one = try TestEngine.geojson.newDatabase()
        let other = try TestEngine.geojson.newDatabase()
        for name in [Fixtures.weekBefore, Fixtures.weekAfter] {
            #expect(await QuakesRun.fetch([Fixtures.path(name)], database: one.location).status == .success)
        }
        for name in [Fixtures.weekAfter, Fixtures.weekBefore] {
            #expect(await QuakesRun.fetch([Fixtures.path(name)], database: other.location).status == .success)
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: one.location))
        #expect(try Data(contentsOf: URL(fileURLWithPath: other.location)) == bytes)

        // A fetch that changes nothing, from the file again, leaves it byte for byte, its inode too.
        let inode = try FileManager.default.attributesOfItem(atPath: one.location)[.systemFileNumber] as? Int
        let again = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: one.location)
        #expect(again.status == .success)
        #expect(try Data(contentsOf: URL(fileURLWithPath: one.location)) == bytes)
        #expect(try FileManager.default.attributesOfItem(atPath: one.location)[.systemFileNumber] as? Int == inode)
    }

    @Test func aNotModifiedAnswerLeavesTheFileAsItWas() async throws {
        let store = try TestEngine.geojson.newDatabase()
        let server = try LocalHTTPServer()
        defer { server.stop() }
        server.route(
            "/feed", .conditional(body: try Fixtures.bytes(Fixtures.alerts), etag: "\"v1\"", lastModified: nil))
        #expect(await QuakesRun.run(["fetch", "--db", store.location, server.url("/feed")]).status == .success)
        let before = try store.state()
        let second = await QuakesRun.run(
            ["fetch", "--db", store.location, server.url("/feed")], now: 1_900_000_000_000)
        #expect(second.status == .success, "\(second.standardError)")
        #expect(server.received.last?.headers["if-none-match"] == "\"v1\"")
        #expect(try store.state() == before)
    }

    @Test func theFileIsAFeatureCollectionThatGISToolsOpenAsItIs() async throws {
        let store = try TestEngine.geojson.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveLater)], database: store.location)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: store.location)))
                as? [String: Any])
        #expect(object["type"] as? String == "FeatureCollection")
        let features = try #require(object["features"] as? [[String: Any]])
        let listed = await QuakesRun.run(["list", "--db", store.location, "--format", "geojson"])
        let listing = try #require(
            try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [String: Any])
        let listedFeatures = try #require(listing["features"] as? [[String: Any]])
        #expect(features.count == listedFeatures.count)
        #expect(features.count > 0)
        // Feature for feature what `list --format geojson` writes, but the feed time, which the
        // metadata keeps (it changes every minute on USGS's feeds, and would change every line).
        for (stored, listed) in zip(features, listedFeatures) {
            var listed = listed
            listed["generated"] = nil
            #expect(NSDictionary(dictionary: stored).isEqual(to: listed))
        }
    }

    @Test(arguments: [
        ("a USGS feed", #"{"type":"FeatureCollection","metadata":{"title":"USGS"},"features":[]}"#),
        ("another program's JSON", #"{"name":"not a store"}"#),
        ("an empty file", ""),
    ])
    func anotherFileIsRefusedAndLeftUntouched(name: String, text: String) async throws {
        let store = try TestEngine.geojson.newDatabase()
        try text.write(toFile: store.location, atomically: true, encoding: .utf8)
        for arguments in [
            ["fetch", "--db", store.location, Fixtures.path(Fixtures.alerts)], ["count", "--db", store.location],
            ["prune", "--db", store.location, "--older-than", "1d"],
        ] {
            let run = await QuakesRun.run(arguments)
            #expect(run.status == .ioError, "\(name): \(arguments[0]): \(run.standardError)")
            #expect(run.standardError.contains("is not a quakes database"), "\(name): \(run.standardError)")
        }
        // Read with our own reader: Foundation's leaks a page reading an empty file (LeakSanitizer).
        #expect(try GeoJSONStoreFile.contents(of: store.location)?.bytes == Array(text.utf8))
    }

    @Test func historyIsRefusedWithUsageButTheLastTokenIsKept() async throws {
        let store = try TestEngine.geojson.newDatabase()
        let database = store.location
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: database)
        let history = await QuakesRun.run(["history", "--db", database])
        #expect(history.status == .usage)
        #expect(history.standardOutput.isEmpty)
        #expect(history.standardError.hasPrefix("Error: \(database) is a GeoJSON-file store, which keeps no history"))
        // The engines that keep a history are named by what they say of themselves.
        #expect(
            history.standardError.contains(
                "keep the catalogue in a PostgreSQL database (--db postgresql://…) or an SQLite file (--db quakes.sqlite) "
                    + "to list its history"), "\(history.standardError)")
        func lastToken() async -> String {
            await QuakesRun.run(["history", "--db", database, "--last-token"]).standardOutput
        }
        #expect(await lastToken() == "1\n")
        // A fetch that changes nothing issues no token; one that changes something does.
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: database)
        #expect(await lastToken() == "1\n")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: database)
        #expect(await lastToken() == "2\n")
        // A prune of events is a change; its dry run is not, and leaves the file as it was.
        let before = try store.state()
        let dry = await QuakesRun.run([
            "prune", "--db", database, "--older-than", "1d", "--now", "2021-07-22T20:39:44Z", "--dry-run",
        ])
        #expect(dry.status == .success, "\(dry.standardError)")
        #expect(try store.state() == before)
        let prune = await QuakesRun.run([
            "prune", "--db", database, "--older-than", "1d", "--now", "2021-07-22T20:39:44Z",
        ])
        #expect(prune.status == .success, "\(prune.standardError)")
        #expect(await lastToken() == "3\n")
        let remaining = try await store.read { try $0.allQuakes() }
        #expect(!remaining.isEmpty)
        #expect(remaining.allSatisfy { $0.time >= 1_626_986_384_000 - 86_400_000 })
    }

    @Test func aReplacedFileKeepsItsPermissionsAndLeavesNoTemporaryFile() async throws {
        let store = try TestEngine.geojson.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: store.location)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.location)
        let run = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: store.location)
        #expect(run.status == .success)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.location)
        #expect(attributes[.posixPermissions] as? Int == 0o644)
        let folder = (store.location as NSString).deletingLastPathComponent
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                "quakes.geojson", "quakes.geojson.lock",
            ])
    }

    @Test func onlyPathsEndingInGeoJSONOrJSONAreThisEngines() {
        let environment = Environment.current(
            interruption: Interruption(), commands: Registry.commands, engines: [GeoJSONEngine()])
        for value in ["m45.geojson", "/var/www/quakes/M45.GeoJSON", "quakes.json", "./a.JSON"] {
            #expect(GeoJSONEngine().database(named: value, in: environment) != nil, "\(value)")
        }
        for value in ["quakes.sqlite", "quakes.geojson.sqlite", "postgresql://host/db.json", "json"] {
            #expect(GeoJSONEngine().database(named: value, in: environment) == nil, "\(value)")
        }
    }
}
