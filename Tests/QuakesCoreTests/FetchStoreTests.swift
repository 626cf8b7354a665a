import Foundation
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// `quakes fetch` into real database files, checked against the files' own contents.
@Suite struct FetchStoreTests {
    /// Several sources of one fetch download at once but store in the order given: each source's
    /// counts are the same in every run, the first source's events new and the second's as they
    /// compare with it.
    @Test(arguments: TestEngine.allCases) func severalSourcesCountTheSameInEveryRun(engine: TestEngine) async throws {
        let earlier = Fixtures.path(Fixtures.fourFiveEarlier)
        let later = Fixtures.path(Fixtures.fourFiveLater)
        for (sources, expected) in [
            // The later feed revised six events; the earlier one, given after it, changes none.
            ([earlier, later], ["78 new, 0 updated, 0 unchanged", "0 new, 6 updated, 72 unchanged"]),
            ([later, earlier], ["78 new, 0 updated, 0 unchanged", "0 new, 0 updated, 78 unchanged"]),
        ] {
            for _ in 0..<3 {
                let store = try engine.newDatabase()
                let run = await QuakesRun.fetch(sources, database: store.location)
                #expect(run.status == .success, "\(run.standardError)")
                let lines = run.standardError.split(separator: "\n")
                #expect(lines.count == 2, "\(run.standardError)")
                for (line, counts) in zip(lines, expected) {
                    #expect(line.contains(": 78 features, " + counts + ","), "\(line)")
                }
            }
        }
    }

    /// A first fetch that fails before it stores anything (its source is missing) leaves nothing
    /// beside where the database would be: no database, no draft, no lock file.
    @Test(arguments: ["quakes.sqlite", "quakes.geojson"]) func aFailedFirstFetchLeavesNothing(name: String) async throws
    {
        let folder = try TemporaryDirectory()
        let run = await QuakesRun.fetch([folder.file("missing.geojson")], database: folder.file("db/" + name))
        #expect(run.status == .noInput, "\(run.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("db")) == [])
    }

    @Test(arguments: TestEngine.allCases, Fixtures.geojsonFiles)
    func everyFixtureIngestsAndTheRowsEqualTheFile(engine: TestEngine, name: String) async throws {
        let store = try engine.newDatabase()
        let database = store.location
        let run = await QuakesRun.fetch([Fixtures.path(name)], database: database)
        #expect(run.status == .success, "\(run.standardError)")
        let expected = try ReferenceDecoder.decode(try Fixtures.data(name)).quakes
        let byID = Dictionary(expected.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        let stored = try store.reader().allQuakes()
        #expect(stored.count == byID.count)
        #expect(stored.map(\.normalized) == byID.keys.sorted().map { byID[$0]!.normalized })
    }

    @Test(arguments: TestEngine.allCases) func namedEventsAreStoredFieldByField(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        let database = store.location
        let sources = [Fixtures.nullMagnitude, Fixtures.nullPlaces, Fixtures.weekAfter, Fixtures.upperCaseStatus]
        let run = await QuakesRun.fetch(sources.map(Fixtures.path), database: database)
        #expect(run.status == .success, "\(run.standardError)")
        let reader = try store.reader()

        let nullMagnitude = try #require(try reader.quake(id: "ok2020vfoa"))
        #expect(nullMagnitude.magnitude == nil)
        #expect(nullMagnitude.magnitudeType == nil)
        #expect(nullMagnitude.title == "M ? - 10 km ESE of Orlando, Oklahoma")
        #expect(nullMagnitude.time == 1_603_918_905_885)
        #expect(nullMagnitude.updated == 1_603_919_032_849)
        #expect(nullMagnitude.depth == 1.112411022)
        #expect(nullMagnitude.minimumDistance == 0.1513153613)
        #expect(nullMagnitude.stationCount == 16)

        let nullPlace = try #require(try reader.quake(id: "us1000hvn9"))
        #expect(nullPlace.place == nil)
        #expect(nullPlace.title == "M 5.6 - ")
        #expect(nullPlace.ids == ",us1000hvn9,iscgem615091765,")
        #expect(nullPlace.alert == "green")
        #expect(nullPlace.estimatedIntensity == 3.61)
        #expect(
            nullPlace.detail == "https://earthquake.usgs.gov/fdsnws/event/1/query?eventid=us1000hvn9&format=geojson")

        let negativeMagnitude = try #require(try reader.quake(id: "ak020dvqqmlj"))
        #expect(negativeMagnitude.magnitude == -0.3)
        #expect(negativeMagnitude.status == "reviewed")

        let aboveSeaLevel = try #require(try reader.quake(id: "ak0219a4ens8"))
        #expect(aboveSeaLevel.depth == -10)
        #expect(aboveSeaLevel.longitude == -141.406)
        #expect(aboveSeaLevel.latitude == 60.0312)

        let nonASCII = try #require(try reader.quake(id: "hv72598582"))
        #expect(nonASCII.place == "3 km S of Pāhala, Hawaii")

        let upperCase = try #require(try reader.quake(id: "nc72199020"))
        #expect(upperCase.status == "AUTOMATIC")
    }

    @Test(arguments: TestEngine.allCases) func overlappingFeedsLeaveTheNewestVersionsWhateverTheOrder(
        engine: TestEngine
    ) async throws {
        let stores = [try engine.newDatabase(), try engine.newDatabase()]
        let (forward, backward) = (stores[0].location, stores[1].location)
        let first = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: forward)
        let second = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: forward)
        #expect(
            first.standardError.hasSuffix(
                "3098 features, 3098 new, 0 updated, 0 unchanged, 0 skipped (\(seconds(first.standardError)) s)\n"))
        // 1937 shared ids: 167 with a newer `updated`, 35 with the same `updated` but a newer place name
        // (from the later feed), 1735 the same; and 3 events re-identified under a new id.
        // New, updated and deleted count event ids as the history does: a re-identified event is a new
        // id and a deleted (merged) one.
        #expect(
            second.standardError.contains("3280 features, 1343 new, 202 updated, 1735 unchanged, 3 deleted, 0 skipped"))

        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: backward)
        let older = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: backward)
        #expect(older.standardError.contains("3098 features, 1158 new, 0 updated, 1940 unchanged, 0 skipped"))

        let forwardRows = try stores[0].reader().allQuakes()
        #expect(forwardRows.count == 4438)
        // Every row the same, `generated` too: the newest feed that carried each stored version.
        #expect(forwardRows == (try stores[1].reader().allQuakes()))
        #expect(
            try DatabaseContent(path: forward, tables: DatabaseContent.orderIndependentTables)
                == DatabaseContent(path: backward, tables: DatabaseContent.orderIndependentTables))
        let unchanged = try #require(forwardRows.first { $0.id == "hv72593897" })
        #expect(unchanged.feedGenerated == 1_626_986_384_000)

        // ci39747095: 1.08 automatic, then 1.09 reviewed.
        let updated = try #require(forwardRows.first { $0.id == "ci39747095" })
        #expect(updated.magnitude == 1.09)
        #expect(updated.status == "reviewed")
        let renamed = try #require(forwardRows.first { $0.id == "ak02196ybqca" })
        #expect(renamed.place == "252 km ESE of Chiniak, Alaska")
        #expect(renamed.feedGenerated == 1_626_986_384_000)
    }

    @Test(arguments: TestEngine.allCases) func theReidentifiedEventEndsAsOneRowUnderItsNewId(engine: TestEngine)
        async throws
    {
        let store = try engine.newDatabase()
        let database = store.location
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: database)
        let reader = try store.reader()
        #expect(try reader.quake(id: "us7000enmc")?.magnitude == 2.9)
        #expect(try reader.quake(id: "ci39746767") == nil)

        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: database)
        // A reader sees the snapshot it opened with: a new one sees the second fetch.
        let after = try store.reader()
        #expect(try after.quake(id: "us7000enmc") == nil)
        let event = try #require(try after.quake(id: "ci39746767"))
        #expect(event.magnitude == 2.84)
        #expect(event.updated == 1_626_796_217_729)
        #expect(event.ids == ",ci39746767,nn00815144,us7000enmc,")
        for (old, new) in [("ak02198hmo8v", "us7000enm4"), ("mb80515939", "uw61755601")] {
            #expect(try after.quake(id: old) == nil)
            #expect(try after.quake(id: new) != nil)
        }
    }

    @Test(arguments: TestEngine.allCases) func reingestingAFileChangesNothing(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        let database = store.location
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: database)
        let before = try DatabaseContent.exceptFeedState(database)
        let again = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: database)
        #expect(again.standardError.contains("3280 features, 0 new, 0 updated, 3280 unchanged, 0 skipped"))
        #expect(try DatabaseContent.exceptFeedState(database) == before)
    }

    @Test(arguments: TestEngine.allCases) func onlyEventsThatChangedAreUpdated(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        let database = store.location
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveEarlier)], database: database)
        let later = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.fourFiveLater)], database: database, ["--format", "json"])
        // 17 minutes apart: us6000exs5 has a newer `updated` (felt 219 → 220); five more kept their
        // `updated` but got new place names, like us7000enfl "138 km SSW of Lorengau…" → "Bismarck Sea".
        #expect(
            later.standardOutput.contains(
                #""features":78,"inserted":0,"updated":6,"unchanged":72,"deleted":0,"skipped":0"#))
        let reader = try store.reader()
        #expect(try reader.quake(id: "us6000exs5")?.feltReports == 220)
        #expect(try reader.quake(id: "us7000enfl")?.place == "Bismarck Sea")
        let again = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveEarlier)], database: database)
        #expect(again.standardError.contains("78 features, 0 new, 0 updated, 78 unchanged"))
        #expect(try reader.quake(id: "us7000enfl")?.place == "Bismarck Sea")
    }

    @Test(arguments: TestEngine.allCases) func aFeatureWithStatusDeletedRemovesItsEvent(engine: TestEngine) async throws
    {
        let store = try engine.newDatabase()
        let folder = store
        let database = store.location
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: database)
        let deletion = """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"time":1626837055351,\
            "updated":1726849728309,"status":"deleted","ids":",ak0219a4ens8,"},\
            "geometry":{"type":"Point","coordinates":[-141.406,60.0312,-10]},"id":"ak0219a4ens8"}]}
            """
        let run = await QuakesRun.fetch(
            [try folder.write("deleted.geojson", deletion)], database: database,
            ["--format", "json"])
        #expect(run.standardOutput.contains(#""features":1,"inserted":0,"updated":0,"unchanged":0,"deleted":1"#))
        let reader = try store.reader()
        #expect(try reader.quake(id: "ak0219a4ens8") == nil)
        #expect(try reader.count() == 3279)
    }

    @Test(arguments: TestEngine.allCases) func aDetailFileAndAnEmptyFeedAreAccepted(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        let database = store.location
        let run = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.detail), Fixtures.path(Fixtures.emptyFeed)],
            database: database)
        #expect(run.status == .success)
        #expect(run.standardError.contains("detail-us1000chhc-updated-2018-02-20.geojson: 1 features, 1 new"))
        #expect(run.standardError.contains("significant_hour-2018-06-21T1817Z.geojson: 0 features, 0 new"))
        #expect(try store.reader().count() == 1)
    }

    @Test(arguments: TestEngine.allCases) func invalidFeaturesAreSkippedReportedAndTheRestStored(engine: TestEngine)
        async throws
    {
        let store = try engine.newDatabase()
        let folder = store
        let database = store.location
        var features: [String] = []
        for index in 0..<9 {
            let time = index.isMultiple(of: 3) ? "\"no\"" : "\(index)"
            features.append(
                #"{"type":"Feature","properties":{"time":\#(time)},"geometry":{"type":"Point","coordinates":[0,0]},"id":"e\#(index)"}"#
            )
        }
        let path = try folder.write(
            "mixed.geojson", #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#)
        let run = await QuakesRun.fetch([path], database: database)
        #expect(run.status == .success)
        #expect(
            run.standardError.contains("Warning: \(path): skipped feature 0 (e0): properties.time is not a number\n"))
        #expect(run.standardError.contains("feature 6 (e6)"))
        #expect(run.standardError.contains("9 features, 6 new, 0 updated, 0 unchanged, 3 skipped"))
        #expect(try store.reader().count() == 6)

        let quiet = await QuakesRun.fetch([path], database: database, ["--quiet"])
        #expect(quiet.standardError.isEmpty)
        #expect(quiet.standardOutput.isEmpty)
    }

    /// A feed may carry any number: times as far as the decoder takes them (±9e15 ms), before
    /// PostgreSQL's timestamps begin (4713 BC, which its generated `time_utc` cannot hold), and
    /// magnitudes beyond any whole number a band can name. Every engine stores them, and answers
    /// alike.
    @Test func extremeNumbersAreStoredAndAnsweredAlikeOnEveryEngine() async throws {
        let events = [
            ("far", "9000000000000000", "-9000000000000000", "1e300"),
            ("early", "-9000000000000000", "null", "-1e300"),
            ("plain", "1600000000000", "1600000001000", "4.5"),
        ]
        let features = events.map { id, time, updated, magnitude in
            #"{"type":"Feature","properties":{"time":\#(time),"updated":\#(updated),"mag":\#(magnitude)},"#
                + #""geometry":{"type":"Point","coordinates":[0,0,1]},"id":"\#(id)"}"#
        }
        var answers: [[String]] = []
        let folder = try TemporaryDirectory()
        for engine in TestEngine.allCases {
            let store = try engine.newDatabase()
            let path = try folder.write(
                "extreme.geojson", #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#)
            let fetch = await QuakesRun.fetch([path], database: store.location)
            #expect(fetch.status == .success, "\(engine): \(fetch.standardError)")
            var outputs: [String] = []
            for command in [
                ["list", "--format", "ndjson"], ["list", "--section", "magnitude", "--format", "ndjson"],
                ["count", "--section", "magnitude"], ["list", "--min-magnitude", "1000", "--format", "csv"],
                ["show", "far", "--format", "json"],
            ] {
                let run = await QuakesRun.run(command + ["--db", store.location], variables: ["TZ": "UTC"])
                #expect(run.status == .success, "\(engine) \(command): \(run.standardError)")
                outputs.append(run.standardOutput)
            }
            #expect(outputs[0].split(separator: "\n").count == 3, "\(engine): \(outputs[0])")
            answers.append(outputs)
        }
        #expect(Set(answers).count == 1, "\(answers)")
    }

    @Test func skippedFeaturesBeyondTheFirstFewAreCounted() async throws {
        let folder = try TemporaryDirectory()
        let bad = (0..<12).map { #"{"type":"Feature","properties":{},"id":"x\#($0)"}"# }
        let good =
            #"{"type":"Feature","properties":{"time":1},"geometry":{"type":"Point","coordinates":[0,0]},"id":"g"}"#
        let path = try folder.write(
            "bad.geojson", #"{"type":"FeatureCollection","features":[\#((bad + [good]).joined(separator: ","))]}"#)
        let run = await QuakesRun.fetch([path], database: folder.file("q.sqlite"))
        #expect(run.status == .success)
        #expect(run.standardError.components(separatedBy: "skipped feature").count - 1 == 5)
        #expect(run.standardError.contains("Warning: \(path): skipped 7 more features\n"))
        #expect(run.standardError.contains("13 features, 1 new, 0 updated, 0 unchanged, 12 skipped"))
    }

    @Test(arguments: TestEngine.allCases) func aDocumentOfWhichNothingCouldBeStoredFailsEvenQuietly(engine: TestEngine)
        async throws
    {
        let store = try engine.newDatabase()
        let folder = store
        let database = store.location
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        let before = try DatabaseContent(path: database)
        let bad = (0..<8).map { #"{"type":"Feature","properties":{"time":"soon"},"id":"x\#($0)"}"# }
        let path = try folder.write(
            "bad.geojson", #"{"type":"FeatureCollection","features":[\#(bad.joined(separator: ","))]}"#)
        for options in [[], ["--quiet"], ["--format", "json"]] {
            let run = await QuakesRun.fetch([path], database: database, options)
            #expect(run.status == .dataError, "\(options)")
            #expect(
                run.standardError.hasPrefix(
                    "Error: \(path): none of its 8 features could be stored (feature 0 (x0): properties.time is not a number; …)"
                ),
                "\(run.standardError)")
            // Nothing stored, not even when the source was read.
            #expect(try DatabaseContent(path: database) == before)
        }
        let json = await QuakesRun.fetch([path], database: database, ["--format", "json"])
        #expect(json.standardOutput.contains(#""status":"error""#))
        #expect(json.standardOutput.contains(#""exitCode":65"#))
        // An empty feed is still a success.
        let empty = await QuakesRun.fetch([Fixtures.path(Fixtures.emptyFeed)], database: database, ["--quiet"])
        #expect(empty.status == .success)
        #expect(empty.standardError.isEmpty)
    }

    private func seconds(_ summary: String) -> String {
        String(summary.split(separator: "(").last?.split(separator: " ").first ?? "")
    }
}

/// Documents that are not feeds: nothing of them is stored, and the database is left as it was.
@Suite struct FetchRejectionTests {
    private static let truncationPoints = [1, 30, 200, 1_000, 100_000, 2_000_000]

    @Test(arguments: TestEngine.allCases, truncationPoints)
    func aTruncatedDownloadStoresNothing(engine: TestEngine, length: Int) async throws {
        let body = Array(try Fixtures.bytes(Fixtures.weekAfter).prefix(length))
        try await expectRejected(body, reason: "cut short", on: engine)
    }

    @Test(arguments: TestEngine.allCases) func anHTMLPageStoresNothing(engine: TestEngine) async throws {
        try await expectRejected(
            Array("<html><body><h1>502 Bad Gateway</h1></body></html>\n".utf8), reason: "HTML", on: engine)
    }

    @Test(arguments: TestEngine.allCases) func anEmptyBodyStoresNothing(engine: TestEngine) async throws {
        try await expectRejected([], reason: "empty", on: engine)
    }

    @Test(arguments: TestEngine.allCases) func jsonThatIsNotAFeatureCollectionStoresNothing(engine: TestEngine)
        async throws
    {
        try await expectRejected(
            Array(#"{"type":"FeatureCollection","features":{"a":1}}"#.utf8), reason: "not an array", on: engine)
        try await expectRejected(Array(#"[1,2,3]"#.utf8), reason: "JSON array", on: engine)
    }

    @Test(arguments: TestEngine.allCases) func anErrorAfterManyGoodFeaturesStillStoresNothing(engine: TestEngine)
        async throws
    {
        var body = try Fixtures.bytes(Fixtures.weekAfter)
        body.removeLast(3)  // "]}\n" → the array never closes.
        try await expectRejected(body, reason: "cut short", on: engine)
        var garbled = try Fixtures.bytes(Fixtures.weekAfter)
        garbled.replaceSubrange((garbled.count - 500)..<(garbled.count - 499), with: Array("\u{1}".utf8))
        try await expectRejected(garbled, reason: "control character", on: engine)
    }

    /// Fetches `body` into a database of `engine` holding another feed, and checks the fetch
    /// failed with 65, naming the source, and left the database exactly as it was.
    private func expectRejected(_ body: [UInt8], reason: String, on engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        let database = store.location
        let setup = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveLater)], database: database)
        #expect(setup.status == .success)
        let before = try store.state()
        let path = try store.write("body.geojson", body)

        let run = await QuakesRun.fetch([path], database: database)
        #expect(run.status == .dataError)
        #expect(run.status.code == 65)
        #expect(run.standardError.hasPrefix("Error: \(path): not a valid GeoJSON feed: "), "\(run.standardError)")
        #expect(run.standardError.contains(reason))
        #expect(run.standardError.contains("(at byte "))
        #expect(try store.state() == before)
        #expect(try await store.read { try $0.count() } == 78)
    }
}
