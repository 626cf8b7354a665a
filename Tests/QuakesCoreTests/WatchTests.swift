import Foundation
import LocalHTTPServer
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// `quakes watch`, run in-process against a server of the tests' own, stopped as SIGINT would.
@Suite struct WatchTests {
    /// `quakes watch ARGUMENTS…` running in a task, times in UTC.
    private func startWatch(_ arguments: [String]) -> RunningQuakes {
        RunningQuakes(["watch"] + arguments, variables: ["TZ": "UTC"], directory: "/")
    }

    /// The result set of `--min-magnitude 2.5 --sort magnitude --section day` (UTC), computed in
    /// Swift from a database's rows: (id, section, index, quake).
    private func expectedResultSet(_ database: String) throws -> [(String, String, Int, Quake)] {
        let strong = try SQLiteReader(path: database).allQuakes().filter { ($0.magnitude ?? -.infinity) >= 2.5 }
        let days = Dictionary(grouping: strong) { Expected.localDate($0.time, zone: "UTC") }
        return days.keys.sorted(by: >).flatMap { day in
            Expected.sorted(days[day]!, by: [("magnitude", false)]).enumerated().map {
                ($0.element.id, day, $0.offset, $0.element)
            }
        }
    }

    /// The changes from `old` to `new` as docs/commands.md defines them, as (change, id, section, index,
    /// oldIndex).
    private func expectedChanges(_ old: [(String, String, Int, Quake)], _ new: [(String, String, Int, Quake)])
        -> [[String]]
    {
        let oldByID = Dictionary(uniqueKeysWithValues: old.map { ($0.0, $0) })
        let newIDs = Set(new.map(\.0))
        var deletes: [[String]] = []
        var inserts: [[String]] = []
        var moves: [[String]] = []
        var updates: [[String]] = []
        for entry in old where !newIDs.contains(entry.0) {
            deletes.append(["delete", entry.0, entry.1, "-", String(entry.2)])
        }
        for entry in new {
            guard let previous = oldByID[entry.0] else {
                inserts.append(["insert", entry.0, entry.1, String(entry.2), "-"])
                continue
            }
            // A later feed carrying the same version moves only `generated`, which is no change.
            guard previous.3.withoutFeedTime != entry.3.withoutFeedTime else { continue }
            let moved = previous.1 != entry.1 || previous.2 != entry.2
            (moved ? { moves.append($0) } : { updates.append($0) })(
                [moved ? "move" : "update", entry.0, entry.1, String(entry.2), String(previous.2)])
        }
        return deletes + inserts + moves + updates
    }

    private func reported(_ text: String) throws -> [[String]] {
        try ndjsonRows(text).map { row in
            [
                row["change"] as? String ?? "?", (row["quake"] as? [String: Any])?["id"] as? String ?? "?",
                row["section"] as? String ?? "-",
                (row["index"] as? Int).map(String.init) ?? "-", (row["oldIndex"] as? Int).map(String.init) ?? "-",
            ]
        }
    }

    @Test(arguments: TestEngine.allCases)
    func itReportsInsertsUpdatesMovesAndDeletesOfASortedSectionedQuery(engine: TestEngine) async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/feed",
            .sequence([
                .respond(status: 200, body: try Fixtures.bytes(Fixtures.weekBefore)),
                // From the third pass on the feed is unchanged (304), so passes are quick even under
                // ThreadSanitizer on a loaded machine, where re-ingesting 3,280 features can take minutes.
                .conditional(body: try Fixtures.bytes(Fixtures.weekAfter), etag: "\"after\"", lastModified: nil),
            ]))
        let folder = try TemporaryDirectory()
        let store = try engine.newDatabase()
        let watch = startWatch([
            server.url("/feed"), "--db", store.location, "--interval", "0.3s",
            "--format", "ndjson", "--min-magnitude", "2.5", "--sort", "magnitude", "--section", "day",
        ])

        // The same fetches into another database give the expected result sets.
        let expectedDatabase = folder.file("expected.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: expectedDatabase)
        let first = try expectedResultSet(expectedDatabase)
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: expectedDatabase)
        let second = try expectedResultSet(expectedDatabase)
        let expected = expectedChanges([], first) + expectedChanges(first, second)

        try await watch.wait { $0.split(separator: "\n").count >= expected.count }
        // A third pass must report nothing more: wait until a fourth has begun, so the third is over.
        try await StalledFetch.waitUntil("a fourth pass began (the watch said: \(watch.errors.text))") {
            server.received.count >= 4
        }
        #expect(await watch.stop() == .success)
        #expect(watch.errors.text.isEmpty)
        let got = try reported(watch.output.text)
        #expect(got == expected)
        #expect(Set(got.map { $0[0] }) == ["insert", "update", "move", "delete"])
        #expect(server.received.count >= 4)
        #expect(server.received[2].headers["if-none-match"] == "\"after\"")
    }

    /// A first pass that finds nothing says so in the table; later passes with no change say nothing.
    @Test(arguments: TestEngine.allCases)
    func aFirstPassThatFindsNothingSaysSo(engine: TestEngine) async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/feed",
            .sequence([
                .respond(status: 200, body: try Fixtures.bytes(Fixtures.fourFiveEarlier)),
                .conditional(body: try Fixtures.bytes(Fixtures.alerts), etag: "\"alerts\"", lastModified: nil),
            ]))
        let store = try engine.newDatabase()
        // Nothing of the first feed is of 6.8 or more; the second holds one, of 6.9.
        let watch = startWatch([
            server.url("/feed"), "--db", store.location, "--interval", "0.3s", "--min-magnitude", "6.8",
        ])
        try await watch.wait { $0.contains("insert") }
        try await StalledFetch.waitUntil("a fourth pass began (the watch said: \(watch.errors.text))") {
            server.received.count >= 4
        }
        #expect(await watch.stop() == .success)
        let lines = watch.output.text.split(separator: "\n")
        #expect(lines.count == 2, "\(watch.output.text)")
        #expect(lines.first == "No quakes match.")
        #expect(lines.last?.hasPrefix("insert  #0  2023-10-07 08:40:13   6.9 mww") == true, "\(watch.output.text)")
    }

    @Test(arguments: TestEngine.allCases)
    func theFirstPassCanBeSilentAndHooksRunPerInsert(engine: TestEngine) async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/feed",
            .sequence([
                .respond(status: 200, body: try Fixtures.bytes(Fixtures.fourFiveEarlier)),
                .respond(status: 200, body: try Fixtures.bytes(Fixtures.alerts)),
            ]))
        let store = try engine.newDatabase()
        let hookOutput = store.file("hook.ndjson")
        let watch = startWatch([
            server.url("/feed"), "--db", store.location, "--interval", "0.3s",
            "--changes-only", "--exec", "cat >> '\(hookOutput)'; exit 3",
        ])
        try await watch.wait { $0.split(separator: "\n").count >= 18 }
        #expect(await watch.stop() == .success)
        let lines = watch.output.text.split(separator: "\n")
        #expect(lines.count == 18)
        #expect(lines.allSatisfy { $0.hasPrefix("insert  #") })
        let hooked = try ndjsonRows(try String(contentsOfFile: hookOutput, encoding: .utf8))
        #expect(
            Set(hooked.map { $0["id"] as! String })
                == Set(try ReferenceDecoder.decode(try Fixtures.data(Fixtures.alerts)).quakes.map(\.id)))
        #expect(watch.errors.text.contains("Warning: --exec command failed for us6000len8 (status 3)"))
    }

    @Test(arguments: TestEngine.allCases)
    func withoutFetchingItFollowsWhatOtherProcessesWrite(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        let database = store.location
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveEarlier)], database: database)
        let watch = startWatch([
            "--no-fetch", "--db", database, "--interval", "0.2s", "--format", "ndjson", "--sort", "magnitude",
        ])
        try await watch.wait { $0.split(separator: "\n").count >= 78 }
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveLater)], database: database)
        try await watch.wait { $0.split(separator: "\n").count >= 78 + 6 }
        #expect(await watch.stop() == .success)
        let changes = try reported(watch.output.text).dropFirst(78)
        #expect(changes.count == 6)
        #expect(
            Set(changes.map { $0[1] }) == [
                "us6000exs5", "us6000ey1q", "us7000engt", "us7000enfl", "us7000encq", "us7000en55",
            ])
        #expect(changes.allSatisfy { $0[0] == "update" || $0[0] == "move" })
        let history = await QuakesRun.run(["history", "--db", database, "--last-token"])
        #expect(history.standardOutput == "2\n")
    }
}
