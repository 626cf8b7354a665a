import Foundation
import LocalHTTPServer
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// Hostile, broken and odd feeds, each fetched into a database that already holds a feed: a
/// document that cannot be read is refused whole and leaves the file byte for byte as it was; a
/// feature that cannot be read is skipped and named; anything else is stored as faithfully as the
/// schema allows. Each case adds a row to the table of docs/reliability.md.
@Suite struct BadInputTests {
    /// The first feature of the 2023 significant feed, as JSON text.
    private static let feature: String = {
        let document = try! JSONSerialization.jsonObject(with: Fixtures.data(Fixtures.alerts)) as! [String: Any]
        let first = (document["features"] as! [Any])[0]
        return String(
            decoding: try! JSONSerialization.data(withJSONObject: first, options: [.sortedKeys]), as: UTF8.self)
    }()

    private static func document(_ features: [String]) -> String {
        #"{"type":"FeatureCollection","metadata":{"generated":1697055360000},"features":["#
            + features.joined(separator: ",") + "]}"
    }

    /// The feature with `old` replaced by `new` once, in a document of its own.
    private static func feature(replacing old: String, with new: String) -> String {
        precondition(feature.contains(old), "the feature has no \(old)")
        return document([feature.replacingOccurrences(of: old, with: new, options: [], range: feature.range(of: old))])
    }

    /// A database holding the 4.5 feed (78 events), every row of it, and a folder for the body.
    private func seeded() async throws -> (TemporaryDirectory, String, DatabaseContent) {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let setup = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveLater)], database: database)
        #expect(setup.status == .success)
        return (folder, database, try DatabaseContent(path: database))
    }

    /// Fetches `body` from a file into a seeded database (a new one unless given) and checks it was
    /// refused with 65, saying `reason`, and that the database did not change.
    private func expectRefused(
        _ body: [UInt8], _ reason: String, _ name: String,
        into seed: (TemporaryDirectory, String, DatabaseContent)? = nil
    ) async throws -> String {
        let (folder, database, before) = if let seed { seed } else { try await seeded() }
        defer { withExtendedLifetime(folder) {} }
        let path = try folder.write("body.geojson", body)
        let run = await QuakesRun.fetch([path], database: database)
        #expect(run.status.code == 65, "\(name): \(run.standardError)")
        #expect(run.standardError.hasPrefix("Error: \(path): not a valid GeoJSON feed: "), "\(name)")
        #expect(run.standardError.contains(reason), "\(name): \(run.standardError)")
        let unchanged = try DatabaseContent(path: database) == before && DatabaseContent.integrity(of: database) == "ok"
        #expect(unchanged, "\(name)")
        return ReliabilityReport.describe(run, paths: [path])
            + (unchanged ? ", database unchanged" : ", DATABASE CHANGED")
    }

    /// Where `fetchAlone` keeps its files, for as long as the test runs.
    private let scratch = try! TemporaryDirectory()

    /// Fetches `body` into a fresh database and returns the run and the database.
    private func fetchAlone(_ body: String) async throws -> (QuakesRun, String) {
        let name = UUID().uuidString
        let path = try scratch.write(name + ".geojson", body)
        let database = scratch.file(name + ".sqlite")
        return (await QuakesRun.fetch([path], database: database), database)
    }

    @Test func aSmallFeedCutAtEveryStructuralPointIsRefused() async throws {
        let text = Array(
            Self.document([Self.feature, Self.feature.replacingOccurrences(of: "us6000len8", with: "us6000zzzz")]).utf8)
        let structural = Set("{}[],:\"".utf8)
        let step = SuiteMode.isSanitized ? 5 : 1
        let points = text.indices.filter { structural.contains(text[$0]) && $0 < text.count - 1 && $0 % step == 0 }
        // One database for every cut: each must leave it exactly as seeded.
        let seed = try await seeded()
        var outcome = ""
        for point in points {
            outcome = try await expectRefused(
                Array(text[...point]), "cut short", "cut after byte \(point)", into: seed)
        }
        ReliabilityReport.record(
            "Feed", "a feed cut short after each of its structural characters", runs: points.count, outcome)
    }

    @Test(arguments: [
        ("an HTML error page", Array("<html><body><h1>502 Bad Gateway</h1></body></html>\n".utf8), "HTML"),
        ("an empty body", [], "empty"),
        (
            "invalid UTF-8 inside a string",
            Array(feature(replacing: "Afghanistan", with: "Afgh").utf8).replacing(
                Array("Afgh".utf8), with: [0x41, 0x66, 0xFF, 0x67], maxReplacements: 1), "invalid UTF-8"
        ),
        (
            "a lone surrogate escape inside a string",
            Array(feature(replacing: "Afghanistan", with: #"Afgh\ud800anistan"#).utf8), "lone high surrogate"
        ),
        ("the number NaN", Array(feature(replacing: #""tsunami":0"#, with: #""tsunami":NaN"#).utf8), "unexpected 'N'"),
        (
            "the number 0x10", Array(feature(replacing: #""tsunami":0"#, with: #""tsunami":0x10"#).utf8),
            "unexpected 'x'"
        ),
        (
            "arrays nested 100,000 deep",
            Array(
                (#"{"type":"FeatureCollection","features":"# + String(repeating: "[", count: 100_000)
                    + String(repeating: "]", count: 100_000) + "}").utf8), "nesting deeper than 512 levels"
        ),
        (
            "objects nested 100,000 deep in a property",
            Array(
                feature(
                    replacing: #""mag":"#,
                    with: #""deep":"# + String(repeating: #"{"a":"#, count: 100_000) + "1"
                        + String(repeating: "}", count: 100_000) + #","mag":"#
                ).utf8), "nesting deeper than 512 levels"
        ),
    ])
    func unreadableDocumentsAreRefusedWhole(name: String, body: [UInt8], reason: String) async throws {
        let outcome = try await expectRefused(body, reason, name)
        ReliabilityReport.record("Feed", name, outcome)
    }

    @Test func aByteOrderMarkIsReadPast() async throws {
        let (run, database) = try await fetchAlone("\u{FEFF}" + Self.document([Self.feature]))
        #expect(run.status == .success)
        #expect(try SQLiteReader(path: database).count() == 1)
        ReliabilityReport.record("Feed", "a UTF-8 byte order mark", "exit 0, the feed is stored")
    }

    @Test func numbersOutOfRangeOrSignedZeroAreStoredFaithfully() async throws {
        let (huge, hugeDatabase) = try await fetchAlone(Self.feature(replacing: #""mag":6.3"#, with: #""mag":1e400"#))
        #expect(huge.status == .success)
        let stored = try #require(try SQLiteReader(path: hugeDatabase).quake(id: "us6000len8"))
        #expect(stored.magnitude == nil)
        #expect(stored.extra == #"{"mag":1e400}"#)
        ReliabilityReport.record(
            "Feed", "a magnitude of 1e400", "exit 0, `mag` NULL and the text `1e400` kept in `extra`")

        let (zero, zeroDatabase) = try await fetchAlone(
            Self.feature(replacing: #""tsunami":0"#, with: #""tsunami":-0"#))
        #expect(zero.status == .success)
        #expect(try SQLiteReader(path: zeroDatabase).quake(id: "us6000len8")?.tsunami == 0)
        ReliabilityReport.record("Feed", "the number -0", "exit 0, stored as 0")
    }

    @Test func aDuplicateKeySkipsItsFeatureAndNamesIt() async throws {
        let twice = Self.feature.replacingOccurrences(of: #""tsunami":0"#, with: #""tsunami":0,"tsunami":1"#)
        let other = Self.feature.replacingOccurrences(of: "us6000len8", with: "us6000zzzz")
        let (run, database) = try await fetchAlone(Self.document([twice, other]))
        #expect(run.status == .success)
        #expect(run.standardError.contains("skipped feature 0 (us6000len8): duplicate key 'properties.tsunami'"))
        #expect(try SQLiteReader(path: database).count() == 1)
        ReliabilityReport.record(
            "Feed", "a duplicate key",
            "exit 0, that feature skipped with a warning naming it and the key, the others stored")
    }

    @Test func aHundredMegabyteStringIsStoredInBoundedMemory() async throws {
        let size = SuiteMode.isLong ? 100_000_000 : 10_000_000
        let (run, database) = try await fetchAlone(
            Self.feature(replacing: "western Afghanistan", with: String(repeating: "x", count: size)))
        #expect(run.status == .success)
        #expect(try SQLiteReader(path: database).quake(id: "us6000len8")?.place?.utf8.count == size)
        ReliabilityReport.record("Feed", "a single \(size / 1_000_000) MB string", "exit 0, stored whole")
    }

    /// Every field of a feature, in turn, given an array where USGS writes a scalar.
    @Test func aWrongTypeInEachFieldInTurn() async throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(Self.feature.utf8)) as? [String: Any])
        let properties = try #require(object["properties"] as? [String: Any])
        let required: Set<String> = ["id", "properties.time", "geometry.coordinates"]
        let fields = ["id", "geometry.coordinates"] + properties.keys.sorted().map { "properties." + $0 }
        for field in fields {
            var mutated = object
            let path = field.split(separator: ".").map(String.init)
            if path.count == 1 {
                mutated[path[0]] = ["wrong"]
            } else {
                var inner = try #require(mutated[path[0]] as? [String: Any])
                inner[path[1]] = ["wrong"]
                mutated[path[0]] = inner
            }
            let text = String(decoding: try JSONSerialization.data(withJSONObject: mutated), as: UTF8.self)
            let other = Self.feature.replacingOccurrences(of: "us6000len8", with: "us6000zzzz")
            let (run, database) = try await fetchAlone(Self.document([text, other]))
            #expect(run.status == .success, "\(field)")
            let reader = try SQLiteReader(path: database)
            if required.contains(field) {
                #expect(run.standardError.contains("skipped feature 0"), "\(field): \(run.standardError)")
                #expect(try reader.count() == 1, "\(field)")
            } else {
                #expect(try reader.count() == 2, "\(field)")
                let stored = try #require(try reader.quake(id: "us6000len8"), "\(field)")
                let name = path[1]
                #expect(stored.extra?.contains(#""\#(name)":["wrong"]"#) == true, "\(field): \(stored.extra ?? "nil")")
            }
        }
        ReliabilityReport.record(
            "Feed", "a wrong type (an array) in each field of a feature in turn", runs: fields.count,
            "exit 0; for `id`, `time` and `coordinates` the feature is skipped with a warning, for every other field it is stored with the field NULL and the value kept in `extra`"
        )
    }

    /// A feature that breaks a rule is skipped with a warning, and the rest stored; a document of
    /// which nothing could be stored fails, so that a cron job hears of it.
    @Test func coordinatesOutOfRangeAndATimeWrittenAsTextSkipTheirFeature() async throws {
        let cases = [
            (
                "longitude 200", #""coordinates":[200,0,0],"was":["#, #""coordinates":["#,
                "geometry.coordinates[0] longitude 200.0 is outside [-180, 180]"
            ),
            (
                "latitude 95", #""coordinates":[0,95,0],"was":["#, #""coordinates":["#,
                "geometry.coordinates[1] latitude 95.0 is outside [-90, 90]"
            ),
            (
                "time as a string", #""time":"1696984916160""#, #""time":1696984916160"#,
                "properties.time is not a number"
            ),
        ]
        let other = Self.feature.replacingOccurrences(of: "us6000len8", with: "us6000zzzz")
        for (name, new, old, warning) in cases {
            let bad = Self.feature.replacingOccurrences(
                of: old, with: new, options: [], range: Self.feature.range(of: old))
            let (run, database) = try await fetchAlone(Self.document([bad, other]))
            #expect(run.status == .success, "\(name)")
            #expect(
                run.standardError.contains("Warning: ")
                    && run.standardError.contains("skipped feature 0 (us6000len8): \(warning)"),
                "\(name): \(run.standardError)")
            #expect(try SQLiteReader(path: database).count() == 1, "\(name)")

            let (alone, aloneDatabase) = try await fetchAlone(Self.document([bad]))
            #expect(alone.status == .dataError, "\(name)")
            #expect(
                alone.standardError.hasSuffix(
                    ": none of its 1 features could be stored (feature 0 (us6000len8): \(warning))\n"),
                "\(name): \(alone.standardError)")
            let stored =
                FileManager.default.fileExists(atPath: aloneDatabase)
                ? try SQLiteReader(path: aloneDatabase).count() : 0
            #expect(stored == 0, "\(name)")
        }
        ReliabilityReport.record(
            "Feed", "coordinates out of range (longitude 200, latitude 95)", runs: 4,
            "beside a good feature: exit 0, the feature skipped with a warning naming the value and the range; alone: exit 65, nothing stored"
        )
        ReliabilityReport.record(
            "Feed", "`time` written as a string", runs: 2,
            "beside a good feature: exit 0, the feature skipped with a warning; alone: exit 65, nothing stored")
    }
}

/// Downloads that go wrong: each ends with a clear error, and nothing of it is stored.
@Suite struct BadDownloadTests {
    private func seeded() async throws -> (TemporaryDirectory, String, DatabaseContent) {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveLater)], database: database)
        return (folder, database, try DatabaseContent(path: database))
    }

    @Test(arguments: [
        (
            "a body larger than --max-bytes", "/big.geojson", ["--max-bytes", "100K"], Int32(65),
            "the response is larger than 102400 bytes"
        ),
        (
            "a gzip bomb: 314 KB that expands past --max-bytes", "/bomb.geojson", ["--max-bytes", "1M"], Int32(65),
            "larger than 1048576 bytes"
        ),
        ("an endless body", "/endless.geojson", ["--max-bytes", "4M"], Int32(65), "larger than 4194304 bytes"),
        (
            "a server that accepts and never answers", "/silent.geojson", ["--timeout", "1", "--retries", "0"],
            Int32(69), "no complete answer within 1 s"
        ),
        (
            "a redirect from http to file://", "/sneaky.geojson", [], Int32(69),
            "redirects are followed only to http and https"
        ),
        ("a server that cuts the body short", "/cut.geojson", ["--retries", "0"], Int32(69), "transfer closed"),
    ])
    func eachEndsWithAnErrorAndStoresNothing(
        name: String, route: String, options: [String], status: Int32, message: String
    )
        async throws
    {
        let server = try LocalHTTPServer()
        let pretty = try Fixtures.bytes(Fixtures.prettyPrinted)
        server.route("/big.geojson", .respond(status: 200, body: pretty))
        server.route("/bomb.geojson", .gzip(try Fixtures.bytes(Fixtures.escapedGzip)))
        server.route("/endless.geojson", .endless)
        server.route("/silent.geojson", .silence)
        server.route("/sneaky.geojson", .redirect("file://\(Fixtures.path(Fixtures.alerts))"))
        server.route("/cut.geojson", .truncated(body: pretty, sent: pretty.count / 2))
        let (folder, database, before) = try await seeded()
        defer { withExtendedLifetime(folder) {} }
        let run = await QuakesRun.fetch([server.url(route)], database: database, options)
        #expect(run.status.code == status, "\(name): \(run.standardError)")
        #expect(run.standardError.hasPrefix("Error: \(server.url(route)): "), "\(name): \(run.standardError)")
        #expect(run.standardError.contains(message), "\(name): \(run.standardError)")
        let unchanged = try DatabaseContent(path: database) == before && DatabaseContent.integrity(of: database) == "ok"
        #expect(unchanged, "\(name)")
        ReliabilityReport.record(
            "Download", name,
            ReliabilityReport.describe(run, paths: [server.url(route)])
                + (unchanged ? ", database unchanged" : ", DATABASE CHANGED"))
    }
}

/// Text from the command line never becomes SQL: values are bound parameters, sort and section keys
/// come from a fixed list.
@Suite struct SecurityTests {
    @Test func hostileKeysAreRefusedAndHostileValuesAreOnlyValues() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        let before = try DatabaseContent(path: database)
        let injection = "x'); DROP TABLE quake; --"
        for arguments in [
            ["list", "--sort", "mag; DROP TABLE quake"], ["list", "--section", "day; DELETE FROM quake"],
            ["count", "--section", "(SELECT 1)"], ["list", "--sort", "time,mag DESC--"],
        ] {
            let run = await QuakesRun.run(arguments + ["--db", database])
            #expect(run.status == .usage, "\(arguments)")
            #expect(run.standardError.hasPrefix("Error: "), "\(arguments)")
        }
        for arguments in [
            ["list", "--place", injection], ["show", injection], ["count", "--type", injection],
            ["history", "--author", injection],
        ] {
            let run = await QuakesRun.run(arguments + ["--db", database])
            #expect([0, 1].contains(run.status.code), "\(arguments): \(run.standardError)")
        }
        #expect(try DatabaseContent(path: database) == before)
        ReliabilityReport.record(
            "Security", "SQL in sort keys, section keys, places, ids, types and authors", runs: 8,
            "keys refused with exit 64 (only a fixed list is accepted); values matched as plain text; the database unchanged"
        )
    }
}
