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

    @Test func fetchesAndAPruneRecordWhatHappenedEventByEvent() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let before = try ReferenceDecoder.decode(try Fixtures.data(Fixtures.weekBefore)).quakes
        let after = try ReferenceDecoder.decode(try Fixtures.data(Fixtures.weekAfter)).quakes
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: database)
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: database, ["--author", "cron"])
        let stored = try QuakeReader(path: database).allQuakes()
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
        #expect(try QuakeReader(path: database).allQuakes() == stored.filter { $0.time >= cutoff })
    }

    @Test func sinceAndAuthorFilterAndTheLastTokenKeepsAScriptsPlace() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
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

    @Test func tokensNeverRepeatEvenAfterHistoryIsPruned() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
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

    @Test func aDryRunChangesNothingAndAFetchThatChangesNothingRecordsNothing() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
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
}
