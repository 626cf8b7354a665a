import Foundation
import Testing

@testable import QuakesCore

/// The persistent history: what each transaction recorded, event by event.
@Suite struct HistoryTests {
    private func transactions(_ database: String, _ arguments: [String] = []) async throws -> [[String: Any]] {
        let run = await QuakesRun.run(["history", "--db", database, "--format", "json"] + arguments)
        #expect(run.status == .success, "\(run.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [[String: Any]])
    }

    private func changes(_ transaction: [String: Any]) -> [String: String] {
        let list = transaction["changes"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: list.map { ($0["id"] as! String, $0["change"] as! String) })
    }

    @Test(arguments: TestEngine.keepingHistory) func fetchesAndAPruneRecordWhatHappenedEventByEvent(engine: TestEngine)
        async throws
    {
        let store = try engine.newDatabase()
        let database = store.location
        let before = try ReferenceDecoder.decode(try Fixtures.data(Fixtures.weekBefore)).quakes
        let after = try ReferenceDecoder.decode(try Fixtures.data(Fixtures.weekAfter)).quakes
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: database)
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: database, ["--author", "cron"])
        let stored = try await store.read { try $0.allQuakes() }
        let prune = await QuakesRun.run([
            "prune", "--db", database, "--older-than", "5d", "--now", "2021-07-22T20:39:44Z",
        ])
        #expect(prune.status == .success)

        let log = try await transactions(database, ["--changes"])
        #expect(log.map { $0["token"] as? Int } == [1, 2, 3])
        #expect(log.map { $0["author"] as? String } == ["fetch", "cron", "prune"])
        #expect(log[0]["source"] as? String == "file://" + Fixtures.path(Fixtures.weekBefore))
        #expect(log[2]["source"] is NSNull)

        // The first fetch inserted every event of the first file.
        #expect(changes(log[0]) == Dictionary(uniqueKeysWithValues: before.map { ($0.id, "insert") }))

        // The second: new ids inserted, changed versions updated, re-identified events deleted
        // under their old ids (and inserted under the new ones).
        let old = Dictionary(uniqueKeysWithValues: before.map { ($0.id, $0) })
        var expected: [String: String] = [:]
        for quake in after {
            if let previous = old[quake.id] {
                var a = previous
                var b = quake
                a.feedGenerated = nil
                b.feedGenerated = nil
                if a != b { expected[quake.id] = "update" }
            } else {
                expected[quake.id] = "insert"
            }
        }
        for id in ["us7000enmc", "ak02198hmo8v", "mb80515939"] { expected[id] = "delete" }
        let second = changes(log[1])
        #expect(second == expected)
        #expect(log[1]["inserted"] as? Int == 1343)
        #expect(log[1]["updated"] as? Int == 202)
        #expect(log[1]["deleted"] as? Int == 3)

        // The prune deleted exactly the events older than five days before "now".
        let cutoff: Int64 = 1_626_986_384_000 - 5 * 86_400_000
        #expect(
            changes(log[2])
                == Dictionary(uniqueKeysWithValues: stored.filter { $0.time < cutoff }.map { ($0.id, "delete") }))
        #expect(try await store.read { try $0.allQuakes() } == stored.filter { $0.time >= cutoff })
    }

    @Test(arguments: TestEngine.keepingHistory) func sinceAndAuthorFilterAndTheLastTokenKeepsAScriptsPlace(
        engine: TestEngine
    )
        async throws
    {
        let store = try engine.newDatabase()
        let database = store.location
        for (file, author) in [(Fixtures.nullMagnitude, "a"), (Fixtures.alerts, "b"), (Fixtures.nullPlaces, "a")] {
            _ = await QuakesRun.fetch([Fixtures.path(file)], database: database, ["--author", author])
        }
        #expect(try await transactions(database, ["--since", "1"]).map { $0["token"] as? Int } == [2, 3])
        #expect(try await transactions(database, ["--author", "a"]).map { $0["token"] as? Int } == [1, 3])
        #expect(try await transactions(database, ["--since", "3"]).isEmpty)
        #expect(try await transactions(database).allSatisfy { $0["changes"] == nil })
        let last = await QuakesRun.run(["history", "--db", database, "--last-token"])
        #expect(last.standardOutput == "3\n")

        let ndjson = await QuakesRun.run([
            "history", "--db", database, "--since", "2", "--changes", "--format", "ndjson",
        ])
        let lines = ndjson.standardOutput.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix(#"{"token":3,"timestamp":""#) == true)
        #expect(lines.first?.contains(#""author":"a","source":"file://"#) == true)
    }

    @Test(arguments: TestEngine.keepingHistory) func tokensNeverRepeatEvenAfterHistoryIsPruned(engine: TestEngine)
        async throws
    {
        let store = try engine.newDatabase()
        let database = store.location
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.nullMagnitude)], database: database)
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        let dry = await QuakesRun.run(
            ["prune", "--db", database, "--history-older-than", "1s", "--dry-run"],
            now: Environment.systemClock() + 60_000)
        #expect(dry.standardOutput.hasPrefix("would drop 2 history transactions older than "))
        #expect(try await transactions(database).count == 2)
        let drop = await QuakesRun.run(
            ["prune", "--db", database, "--history-older-than", "1s"],
            now: Environment.systemClock() + 60_000)
        #expect(drop.standardError.hasPrefix("prune: dropped 2 history transactions"))
        #expect(try await transactions(database).isEmpty)
        let last = await QuakesRun.run(["history", "--db", database, "--last-token"])
        #expect(last.standardOutput == "2\n")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.nullPlaces)], database: database)
        #expect(try await transactions(database).map { $0["token"] as? Int } == [3])
    }

    @Test(arguments: TestEngine.keepingHistory) func aDryRunChangesNothingAndAFetchThatChangesNothingRecordsNothing(
        engine: TestEngine
    ) async throws {
        let store = try engine.newDatabase()
        let database = store.location
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        let before = try DatabaseContent.exceptFeedState(database)
        let dry = await QuakesRun.run([
            "prune", "--db", database, "--older-than", "30d", "--dry-run", "--now", "2023-10-31",
        ])
        #expect(dry.standardOutput == "would delete 4 events older than 2023-10-01T00:00:00.000Z\n")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        #expect(try DatabaseContent.exceptFeedState(database) == before)
        #expect(try await transactions(database).count == 1)
        let usage = await QuakesRun.run(["prune", "--db", database])
        #expect(usage.status == .usage)
        #expect(
            usage.standardError.hasPrefix(
                "Error: Missing '--older-than <duration>' or '--history-older-than <duration>'"))
    }

    private func feature(_ id: String, updated: Int64, ids: [String] = [], deleted: Bool = false) -> String {
        let all = ([id] + ids).sorted().joined(separator: ",")
        return """
            {"type":"Feature","properties":{"mag":2.5,"place":"v\(updated)","time":1626700000000,\
            "updated":\(updated),"status":"\(deleted ? "deleted" : "reviewed")","ids":",\(all),"},\
            "geometry":{"type":"Point","coordinates":[-117.5,35.6,8.1]},"id":"\(id)"}
            """
    }

    /// About 400 KB of other events, to go between versions: more than a batch (a 256 KB chunk).
    private func filler(_ prefix: String) -> [String] {
        (0..<600).map { feature("\(prefix)\($0)", updated: 1) + String(repeating: " ", count: 400) }
    }

    private func document(_ features: [String]) -> String {
        #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}"
    }

    /// A fetch big enough for several batches records each event's net change, however far apart
    /// in the document its versions are: batches keep their changes in the database, not in memory.
    @Test(arguments: TestEngine.keepingHistory)
    func changesFarApartInOneFetchAreOneNetChangePerEvent(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        let first = try store.write(
            "first.geojson",
            document([feature("aa", updated: 10), feature("xx", updated: 10), feature("yy", updated: 10)]))
        _ = await QuakesRun.fetch([first], database: store.location)
        let second = try store.write(
            "second.geojson",
            document(
                [
                    feature("xx", updated: 20), feature("yy", updated: 20), feature("nn", updated: 20),
                    feature("gone", updated: 20),
                ] + filler("f")
                    + [
                        feature("xx", updated: 30), feature("yy", updated: 30, deleted: true),
                        feature("bb", updated: 30, ids: ["aa"]), feature("gone", updated: 30, deleted: true),
                    ]
                    + filler("g") + [feature("nn", updated: 40)]))
        let run = await QuakesRun.fetch([second], database: store.location, ["--format", "json"])
        #expect(run.status == .success, "\(run.standardError)")
        let log = try await transactions(store.location, ["--since", "1", "--changes"])
        #expect(log.count == 1)
        var expected: [String: String] = [:]
        for index in 0..<600 {
            expected["f\(index)"] = "insert"
            expected["g\(index)"] = "insert"
        }
        expected["xx"] = "update"  // updated twice
        expected["yy"] = "delete"  // updated, then deleted
        expected["nn"] = "insert"  // inserted, then updated
        expected["aa"] = "delete"  // absorbed by bb
        expected["bb"] = "insert"
        // "gone", inserted then deleted in the one fetch, leaves no trace.
        #expect(changes(log[0]) == expected)
        let merged = (log[0]["changes"] as? [[String: Any]])?.first { $0["id"] as? String == "aa" }
        #expect(merged?["mergedInto"] as? String == "bb")
        #expect(log[0]["inserted"] as? Int == 1202)
        #expect(log[0]["updated"] as? Int == 1)
        #expect(log[0]["deleted"] as? Int == 2)
        #expect(run.standardOutput.contains(#""inserted":1202,"updated":1,"unchanged":"#))
        let place = try #require(try store.reader().quake(id: "nn")).place
        #expect(place == "v40")
    }

    /// A first load (into a database with no event, where no id has an owner to look up) still
    /// finds the owners its own earlier batches gave: a later version updates, a deletion deletes
    /// and a version that names an earlier event's id absorbs it, as in a store that had rows. The
    /// first versions are more than a batch before the later ones: PostgreSQL lays the batch just
    /// before over what it reads.
    @Test(arguments: TestEngine.keepingHistory)
    func aFirstLoadFindsWhatItsEarlierBatchesStored(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        let source = try store.write(
            "first.geojson",
            document(
                [feature("xx", updated: 10), feature("yy", updated: 10), feature("aa", updated: 10)] + filler("f")
                    + filler("h") + filler("i")
                    + [
                        feature("xx", updated: 20), feature("yy", updated: 20, deleted: true),
                        feature("bb", updated: 20, ids: ["aa"]),
                    ] + filler("g") + [feature("xx", updated: 30)]))
        let run = await QuakesRun.fetch([source], database: store.location, ["--format", "json"])
        #expect(run.status == .success, "\(run.standardError)")
        #expect(run.standardOutput.contains(#""inserted":2402,"updated":0,"unchanged":"#), "\(run.standardOutput)")
        let log = try await transactions(store.location, ["--changes"])
        #expect(log.count == 1)
        #expect(log.first.map { changes($0).count } == 2402)
        #expect(log.first?["deleted"] as? Int == 0)
        let reader = try store.reader()
        #expect(try reader.count() == 2402)
        #expect(try reader.quake(id: "xx")?.place == "v30")
        #expect(try reader.quake(id: "yy") == nil)
        #expect(try reader.quake(id: "aa") == nil)
        #expect(try reader.quake(id: "bb") != nil)
    }

    /// A writer that rolled an ingest back (a watch pass whose download failed) records only what
    /// its next ingest changed: nothing of the first is left to be counted.
    @Test(arguments: TestEngine.keepingHistory)
    func anIngestRolledBackLeavesNothingForTheNextOnTheSameWriter(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        let quakes = try ReferenceDecoder.decode(try Fixtures.data(Fixtures.alerts)).quakes
        let writer = store.database.store()
        try await writer.open()
        let abandoned = try await writer.beginIngest(author: "test", source: nil)
        let first = try await writer.ingest(Array(quakes.prefix(10)), for: abandoned)
        #expect(first.changed == 10)
        await writer.rollback(abandoned)
        let kept = try await writer.beginIngest(author: "test", source: nil)
        _ = try await writer.ingest(Array(quakes.suffix(3)), for: kept)
        let commit = try await writer.commit(kept, timestamp: 1, feedState: nil)
        #expect(commit.inserted == 3)
        #expect(commit.updated + commit.deleted == 0)
        let log = try await transactions(store.location, ["--changes"])
        #expect(Set(changes(log[0]).keys) == Set(quakes.suffix(3).map(\.id)))
        #expect(try store.reader().count() == 3)
    }
}
