import Foundation
import LocalHTTPServer
import Testing

@testable import QuakesCore

/// `quakes watch`, run in-process against a server of the tests' own, stopped as SIGINT would.
@Suite struct WatchTests {
    /// A watch running in a task, with what it has written so far.
    private struct RunningWatch {
        let output: CapturedOutput
        let errors: CapturedOutput
        let interruption: Interruption
        let task: Task<QuakesCore.ExitStatus, Never>

        init(_ arguments: [String]) {
            let output = CapturedOutput()
            let errors = CapturedOutput()
            let interruption = Interruption()
            var environment = Environment(
                variables: ["TZ": "UTC"], currentDirectory: "/", standardOutput: output,
                standardError: errors)
            environment.interruption = interruption
            self.output = output
            self.errors = errors
            self.interruption = interruption
            task = Task { [environment] in await Quakes.main(["watch"] + arguments, in: environment) }
        }

        /// Waits until `condition` holds of the output (a loaded machine under a sanitizer is slow;
        /// an idle one takes well under a second); one that never comes fails the test, with what
        /// the watch printed.
        func wait(until condition: @escaping (String) -> Bool) async throws {
            let output = output
            let errors = errors
            try await StalledFetch.waitUntil(
                "the watch printed what was expected (so far: \(output.text) \(errors.text))"
            ) {
                condition(output.text)
            }
        }

        func stop() async -> QuakesCore.ExitStatus {
            interruption.interrupt(SIGINT)
            return await task.value
        }
    }

    /// The result set of `--min-magnitude 2.5 --sort magnitude --section day` (UTC), computed in
    /// Swift from a database's rows: (id, section, index, quake).
    private func expectedResultSet(_ database: String) throws -> [(String, String, Int, Quake)] {
        let strong = try QuakeReader(path: database).allQuakes().filter { ($0.magnitude ?? -.infinity) >= 2.5 }
        let days = Dictionary(grouping: strong) { Expected.localDate($0.time, zone: "UTC") }
        return days.keys.sorted(by: >).flatMap { day in
            Expected.sorted(days[day]!, by: [("magnitude", false)]).enumerated().map {
                ($0.element.id, day, $0.offset, $0.element)
            }
        }
    }

    /// The changes from `old` to `new` as the README defines them, as (change, id, section, index, oldIndex).
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

    @Test func itReportsInsertsUpdatesMovesAndDeletesOfASortedSectionedQuery() async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/feed",
            .sequence([
                .respond(status: 200, body: try Fixtures.bytes(Fixtures.weekBefore)),
                .respond(status: 200, body: try Fixtures.bytes(Fixtures.weekAfter)),
            ]))
        let folder = try TemporaryDirectory()
        let watch = RunningWatch([
            server.url("/feed"), "--db", folder.file("watch.sqlite"), "--interval", "0.3s",
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
        try await StalledFetch.waitUntil("a fourth pass began") { server.received.count >= 4 }
        #expect(await watch.stop() == .success)
        #expect(watch.errors.text.isEmpty)
        let got = try reported(watch.output.text)
        #expect(got == expected)
        #expect(Set(got.map { $0[0] }) == ["insert", "update", "move", "delete"])
        #expect(server.received.count >= 4)
    }

    @Test func theFirstPassCanBeSilentAndHooksRunPerInsert() async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/feed",
            .sequence([
                .respond(status: 200, body: try Fixtures.bytes(Fixtures.fourFiveEarlier)),
                .respond(status: 200, body: try Fixtures.bytes(Fixtures.alerts)),
            ]))
        let folder = try TemporaryDirectory()
        let hookOutput = folder.file("hook.ndjson")
        let watch = RunningWatch([
            server.url("/feed"), "--db", folder.file("q.sqlite"), "--interval", "0.3s",
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

    @Test func withoutFetchingItFollowsWhatOtherProcessesWrite() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveEarlier)], database: database)
        let watch = RunningWatch([
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
