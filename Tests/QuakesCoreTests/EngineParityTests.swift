import Foundation
import LocalHTTPServer
import PostgreSQL
import SQLite
import Testing

@testable import QuakesCore

/// The same catalogue in every engine (SQLite, PostgreSQL, the GeoJSON file, whose answers come
/// from the reference semantics in memory) must give byte for byte the same answer to every
/// command: every filter, sort, section, zone, limit and format, a fixed battery and random command
/// lines (a failure names its seed and the command, to replay it).
@Suite struct EngineParityTests {
    /// The query universe, fetched into a PostgreSQL database and a GeoJSON file too, once for the
    /// suite.
    actor Universe {
        static let shared = Universe()
        private var building: [TestEngine: Task<TestStore, any Error>] = [:]

        func store(_ engine: TestEngine) async throws -> TestStore {
            if building[engine] == nil {
                building[engine] = Task {
                    let store = try engine.newDatabase()
                    let run = await QuakesRun.fetch(QueryUniverse.files.map(Fixtures.path), database: store.location)
                    guard run.status == .success else {
                        Issue.record("the universe's fetch into \(engine) failed (\(run.status)): \(run.standardError)")
                        throw CocoaError(.fileReadCorruptFile)
                    }
                    return store
                }
            }
            return try await building[engine]!.value
        }
    }

    /// The engines whose answers are compared with SQLite's: PostgreSQL and the GeoJSON file, but
    /// under ThreadSanitizer PostgreSQL only. There, in-process commands run ten to twenty times
    /// slower on the cooperative pool's two threads, and the GeoJSON file's answers too would keep
    /// the watch tests running beside this suite waiting for their first pass; the GeoJSON engine's
    /// threads are checked there by its own suite.
    private static var comparedWithSQLite: [TestEngine] {
        SuiteMode.sanitizer == "thread" ? [.postgresql] : [.postgresql, .geojson]
    }

    /// Runs `arguments` on every engine, in zone `tz`, and requires the same status and output.
    private func expectSameAnswer(_ arguments: [String], tz: String = "UTC", seed: UInt64? = nil) async throws {
        let (path, _) = try await QueryUniverse.shared.database()
        let common = ["--now", QueryUniverse.now]
        let sqlite = await QuakesRun.run(arguments + ["--db", path] + common, variables: ["TZ": tz])
        let replay = "quakes \(arguments.joined(separator: " ")) (TZ=\(tz)\(seed.map { ", seed \($0)" } ?? ""))"
        // Random filters may contradict each other (a minimum above its maximum, since after until):
        // that is a usage error, the same on every engine.
        let contradictory =
            sqlite.status == .usage && seed != nil
            && ["' is greater than '", "' is after '", "' is the same moment as '"].contains {
                sqlite.standardError.contains($0)
            }
        #expect(
            sqlite.status == .success || arguments.first == "show" || contradictory,
            "\(replay): \(sqlite.standardError)")
        for engine in Self.comparedWithSQLite {
            let other = try await Universe.shared.store(engine)
            let run = await QuakesRun.run(arguments + ["--db", other.location] + common, variables: ["TZ": tz])
            #expect(sqlite.status == run.status, "\(replay): status on \(engine)")
            #expect(sqlite.standardOutput == run.standardOutput, "\(replay): output on \(engine)")
            #expect(sqlite.standardError == run.standardError, "\(replay): errors on \(engine)")
        }
    }

    @Test(arguments: FilterTests.cases.indices)
    func everyFilterCountsAndListsAlike(index: Int) async throws {
        let filter = FilterTests.cases[index].arguments
        try await expectSameAnswer(["count"] + filter)
        try await expectSameAnswer(["list", "--format", "ndjson"] + filter)
    }

    @Test(arguments: ["table", "json", "ndjson", "csv", "geojson"])
    func everyFormatListsAlike(format: String) async throws {
        try await expectSameAnswer(["list", "--format", format, "--near", "35,-118"])
        try await expectSameAnswer(["list", "--format", format, "--section", "day", "--limit", "40"])
    }

    @Test(arguments: SectionKey.allCases.map(\.rawValue))
    func everySectionCountsAndListsAlikeInEveryZone(section: String) async throws {
        for zone in ["UTC", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Chatham"] {
            try await expectSameAnswer(["count", "--section", section, "--format", "json"], tz: zone)
            try await expectSameAnswer(
                ["list", "--section", section, "--limit-per-section", "3", "--format", "json"], tz: zone)
        }
    }

    @Test func showHistoryAndStatusAnswerAlike() async throws {
        let (_, universe) = try await QueryUniverse.shared.database()
        for quake in universe.prefix(40) {
            try await expectSameAnswer(["show", quake.id, "--format", "json"])
        }
        // Ids another event took over lead to it, and unknown ids are not found, on every engine.
        for id in ["nn00815144", "us7000enmc", "nothing-here"] { try await expectSameAnswer(["show", id]) }
        try await expectSameAnswer(["list", "--format", "geojson", "--sort", "place"])
    }

    /// The same writes, at the same moments, on SQLite and PostgreSQL, and on the GeoJSON file every
    /// step but the history's and status's, which it does not keep: every command then answers alike,
    /// the writers themselves (fetch's summaries, prune's), the history and status included. Only
    /// what names the database itself differs (its location, its engine's schema version), and the
    /// seconds a fetch took.
    @Test func theSameWritesLeaveTheSameHistoryStatusAndAnswers() async throws {
        let stores = try [TestEngine.sqlite.newDatabase(), TestEngine.postgresql.newDatabase()]
        let day: Int64 = 86_400_000
        let first: Int64 = 1_626_791_000_000  // 2021-07-20T14:23:20Z, as the first weekly feed.
        let week = [Fixtures.weekBefore, Fixtures.weekAfter].map(Fixtures.path)
        let steps: [(arguments: [String], now: Int64)] = [
            (["fetch", week[0], "--author", "cron"], first),
            (["fetch", "--format", "json", week[0], Fixtures.path(Fixtures.alerts)], first + day),
            // One source a fetch: sources of one fetch commit as each finishes, in either order.
            (["fetch", week[1]], first + 2 * day),
            (["fetch", Fixtures.path(Fixtures.detail)], first + 2 * day),
            (["history"], first + 2 * day),
            (["history", "--changes", "--format", "json", "--since", "1"], first + 2 * day),
            (["history", "--author", "cron", "--format", "ndjson", "--changes"], first + 2 * day),
            (["history", "--last-token"], first + 2 * day),
            (["status"], first + 2 * day),
            (["status", "--format", "json", "--utc", "--fresh-within", "2d"], first + 3 * day),
            (["count", "--section", "day", "--format", "csv"], first + 2 * day),
            (["list", "--utc", "--limit", "30", "--min-magnitude", "4"], first + 2 * day),
            (["show", "us7000enmc", "--utc"], first + 2 * day),
            (["prune", "--older-than", "5d", "--history-older-than", "1d", "--dry-run"], first + 3 * day),
            (["prune", "--older-than", "5d", "--history-older-than", "1d"], first + 3 * day),
            (["prune", "--older-than", "3d", "--utc"], first + 3 * day),
            (["history", "--changes"], first + 3 * day),
            (["status", "--format", "json"], first + 3 * day),
            (["list", "--format", "ndjson"], first + 3 * day),
        ]
        var answers: [[String]] = [[], []]
        for (engine, store) in stores.enumerated() {
            for step in steps {
                let run = await QuakesRun.run(
                    step.arguments + ["--db", store.location], variables: ["TZ": "America/Anchorage"], now: step.now)
                #expect(run.status == .success, "quakes \(step.arguments.joined(separator: " ")): \(run.standardError)")
                answers[engine].append(
                    Self.withoutTheDatabasesOwnDetails(
                        "\(run.status)\n\(run.standardOutput)\n\(run.standardError)", location: store.location))
            }
        }
        for (index, step) in steps.enumerated() {
            #expect(answers[0][index] == answers[1][index], "quakes \(step.arguments.joined(separator: " "))")
        }
        // The steps wrote, and the writes are in what they answered.
        #expect(answers[0][7].hasSuffix("\n4\n\n"), "history --last-token: \(answers[0][7])")
        #expect(answers[0][13].contains("would delete"), "\(answers[0][13])")

        // The GeoJSON file keeps no history transactions and no times of checks: the same writes
        // on it answer every other step alike (its prunes are left without --history-older-than,
        // which says how many transactions it dropped, and only compared through what follows).
        guard Self.comparedWithSQLite.contains(.geojson) else { return }
        let file = try TestEngine.geojson.newDatabase()
        for (index, step) in steps.enumerated() {
            let keepsNothing = step.arguments[0] == "status" || step.arguments[0] == "history" && index != 7
            guard !keepsNothing else { continue }
            var arguments = step.arguments
            if let option = arguments.firstIndex(of: "--history-older-than") {
                arguments.removeSubrange(option...option + 1)
            }
            let history = arguments != step.arguments
            let run = await QuakesRun.run(
                arguments + ["--db", file.location], variables: ["TZ": "America/Anchorage"], now: step.now)
            #expect(run.status == .success, "quakes \(arguments.joined(separator: " ")): \(run.standardError)")
            guard !history else { continue }
            let answer = Self.withoutTheDatabasesOwnDetails(
                "\(run.status)\n\(run.standardOutput)\n\(run.standardError)", location: file.location)
            #expect(answer == answers[0][index], "quakes \(step.arguments.joined(separator: " ")) on the GeoJSON file")
        }
    }

    /// One fetch of a document long enough for several batches, whose later features rewrite the
    /// events of earlier ones (newer versions, re-identifications that absorb them, deletions, older
    /// copies that change nothing), some of them one batch apart, where PostgreSQL decides a batch
    /// while the one before is still being written: every engine must store the same events, and
    /// PostgreSQL the same history as SQLite.
    @Test func aFetchWhoseBatchesRewriteEarlierBatchesLeavesTheSameEventsOnEveryEngine() async throws {
        let templates = try ReferenceDecoder.decode(try Fixtures.data(Fixtures.weekAfter)).quakes
        let count = 900
        let updated: Int64 = 1_626_900_000_000
        func version(_ index: Int, id: String, ids: [String], updated: Int64, status: String? = nil) -> String {
            var quake = templates[index % templates.count]
            quake.id = id
            quake.ids = "," + ids.joined(separator: ",") + ","
            quake.time = 1_626_000_000_000 + Int64(index) * 1000
            quake.updated = updated
            quake.feedGenerated = nil
            if let status { quake.status = status }
            return QuakeFormats.geoJSONFeature(quake)
        }
        func rewrite(_ index: Int) -> [String] {
            let id = "ev\(index)"
            switch index % 4 {
            case 0: return [version(index + 1, id: id, ids: [id], updated: updated + 1000)]
            case 1:
                let absorbing = version(index, id: "nw\(index)", ids: [id, "nw\(index)"], updated: updated + 2000)
                // Its deletion, right after it.
                guard index % 8 == 1 else { return [absorbing] }
                return [
                    absorbing,
                    version(
                        index, id: "nw\(index)", ids: [id, "nw\(index)"], updated: updated + 3000, status: "deleted"),
                ]
            case 2: return [version(index, id: id, ids: [id], updated: updated + 3000, status: "deleted")]
            default: return [version(index + 2, id: id, ids: [id], updated: updated - 1000)]
            }
        }
        // Each event's rewrite comes about 300 features after it, less than a batch: in the same
        // batch or the next.
        let lag = 150
        var features: [String] = []
        for step in 0..<(count + lag) {
            if step < count { features.append(version(step, id: "ev\(step)", ids: ["ev\(step)"], updated: updated)) }
            if step >= lag { features += rewrite(step - lag) }
        }
        let folder = try TemporaryDirectory()
        func document(generated: Int64) -> String {
            #"{"type":"FeatureCollection","metadata":{"generated":\#(generated)},"features":["#
                + features.joined(separator: ",\n") + "]}"
        }
        // Several batches of the ingest's 256 KB chunks.
        #expect(document(generated: 0).utf8.count > 4 * 256 * 1024)
        let path = try folder.write("rewrites.geojson", document(generated: 1_626_950_000_000))
        // The same document a minute later: every stored event takes the newer feed time.
        let later = try folder.write("later.geojson", document(generated: 1_626_950_060_000))

        var answers: [TestEngine: (list: String, history: String)] = [:]
        let engines = [TestEngine.sqlite, .postgresql] + Self.comparedWithSQLite.filter({ $0 != .postgresql })
        for engine in engines {
            let store = try engine.newDatabase()
            // At one time, which the history records.
            for (document, time) in [(path, updated + 60_000), (later, updated + 120_000)] {
                let fetch = await QuakesRun.run(["fetch", "--quiet", "--db", store.location, document], now: time)
                #expect(fetch.status == .success, "\(engine): \(fetch.standardError)")
            }
            let list = await QuakesRun.run(["list", "--db", store.location, "--format", "ndjson", "--sort", "time"])
            let history = await QuakesRun.run(["history", "--db", store.location, "--changes", "--format", "ndjson"])
            answers[engine] = (list.standardOutput, engine.keepsHistory ? history.standardOutput : "")
            // Every stored event took the later feed's time.
            let feedTimes = "SELECT generated, count(*) FROM quake GROUP BY generated"
            switch engine {
            case .sqlite:
                let rows = try Connection(path: store.location, mode: .readOnly).statement(feedTimes)
                #expect(try rows.step() && rows.int64(at: 0) == 1_626_950_060_000 && rows.int64(at: 1) == 562)
                #expect(try !rows.step())
            case .postgresql:
                let rows = try PostgresConnection(uri: store.location).execute(feedTimes)
                #expect(rows.rowCount == 1 && rows.int64(row: 0, column: 0) == 1_626_950_060_000)
            case .geojson: break
            }
        }
        let sqlite = try #require(answers[.sqlite])
        // What the rewrites leave: the newer versions and the absorbing events, not the deleted.
        let listed = sqlite.list.split(separator: "\n")
        #expect(listed.count == count / 4 + count / 8 + count / 4)
        #expect(sqlite.list.contains(#""id":"nw5""#) && !sqlite.list.contains(#""id":"nw1""#))
        #expect(!sqlite.list.contains(#""id":"ev2""#) && sqlite.list.contains(#""id":"ev3""#))
        for (engine, answer) in answers where engine != .sqlite {
            #expect(answer.list == sqlite.list, "events on \(engine)")
            if engine.keepsHistory {
                #expect(answer.history == sqlite.history, "history on \(engine)")
            }
        }
    }

    /// `text` with the database's location, its schema's version and the seconds a fetch took
    /// replaced by placeholders.
    private static func withoutTheDatabasesOwnDetails(_ text: String, location: String) -> String {
        var text = text.replacingOccurrences(of: location, with: "DATABASE")
        for (pattern, replacement) in [
            (#""schemaVersion":\d+"#, #""schemaVersion":N"#), (#"version \d+"#, "version N"),
            (#""seconds":[0-9.]+"#, #""seconds":S"#), (#"\([0-9.]+ s\)"#, "(S s)"),
        ] {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return text
    }

    /// Random command lines: any mix of filters, sort keys and directions, sections, limits,
    /// formats and zones.
    @Test func randomQueriesAnswerAlike() async throws {
        let rounds = SuiteMode.rounds(40, long: 1500, sanitized: 10)
        for seed in 1...UInt64(rounds) {
            var random = SplitMix64(seed: seed)
            let (arguments, zone) = Self.randomQuery(&random)
            try await expectSameAnswer(arguments, tz: zone, seed: seed)
        }
    }

    static func randomQuery(_ random: inout SplitMix64) -> ([String], String) {
        var arguments = [Bool.random(using: &random) ? "list" : "count"]
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            arguments += FilterTests.cases.randomElement(using: &random)!.arguments
        }
        if arguments[0] == "list" {
            let keys = SortSpec.Key.allCases.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random))
            arguments += [
                "--sort",
                keys.map { $0.rawValue + ["", ":asc", ":desc"].randomElement(using: &random)! }.joined(separator: ","),
            ]
            if keys.contains(.distance), !arguments.contains("--near") { arguments += ["--near", "-20,170"] }
            arguments += ["--format", ["table", "json", "ndjson", "csv", "geojson"].randomElement(using: &random)!]
            if Bool.random(using: &random) {
                arguments += ["--limit", String(Int.random(in: 0...300, using: &random))]
            }
        }
        if Bool.random(using: &random) {
            arguments += ["--section", SectionKey.allCases.randomElement(using: &random)!.rawValue]
            if arguments[0] == "list", Bool.random(using: &random) {
                arguments += ["--limit-per-section", String(Int.random(in: 1...20, using: &random))]
            }
        }
        // A filter given twice keeps its last value, as on every engine.
        return (
            arguments, ["UTC", "Europe/London", "America/St_Johns", "Asia/Kathmandu"].randomElement(using: &random)!
        )
    }
}
