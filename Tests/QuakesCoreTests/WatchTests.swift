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

    /// A first pass that finds nothing says so in the table; later passes with no change say nothing;
    /// each pass that says anything starts with its moment.
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
        let watch = RunningQuakes(
            ["watch", server.url("/feed"), "--db", store.location, "--interval", "0.3s", "--min-magnitude", "6.8"],
            variables: ["TZ": "UTC"], directory: "/", now: ReadmeTests.clock)
        try await watch.wait { $0.contains("insert") }
        try await StalledFetch.waitUntil("a fourth pass began (the watch said: \(watch.errors.text))") {
            server.received.count >= 4
        }
        #expect(await watch.stop() == .success)
        let lines = watch.output.text.split(separator: "\n")
        #expect(lines.count == 4, "\(watch.output.text)")
        #expect(lines.first == "2021-07-22 21:40:00 (UTC)")
        #expect(lines.dropFirst().first == "No quakes match.")
        #expect(lines.dropFirst(2).first == "2021-07-22 21:40:00 (UTC)")
        #expect(
            lines.last
                == "insert  #0  2023-10-07 08:40:13   6.9 mww     76.01 km  55 km SE of Madang, Papua New Guinea  us6000ldqf  new",
            "\(watch.output.text)")
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
        try await watch.wait { $0.split(separator: "\n").count >= 1 + 18 }
        #expect(await watch.stop() == .success)
        let lines = watch.output.text.split(separator: "\n")
        #expect(lines.count == 1 + 18)
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix("insert  #") && $0.hasSuffix("  new") })
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
        // Each says what changed, as the two files say it.
        let earlier = try rawFeatures(Fixtures.fourFiveEarlier)
        let later = try rawFeatures(Fixtures.fourFiveLater)
        for row in try ndjsonRows(watch.output.text).dropFirst(78) {
            let id = try #require((row["quake"] as? [String: Any])?["id"] as? String)
            let fields = try #require(row["fields"] as? [String: Any], "\(id)")
            #expect(Set(fields.keys) == differingFields(earlier[id]!, later[id]!), "\(id)")
            #expect(row["reason"] == nil)
        }
        let history = await QuakesRun.run(["history", "--db", database, "--last-token"])
        #expect(history.standardOutput == "2\n")
    }

    // MARK: - Why events come and go

    /// The events the weekly pair revises, merges and adds, seen through `--min-magnitude 2.5`: each
    /// insert and delete says why, each update what changed, as an independent reading of the two
    /// files says (an event revised below the threshold left with its magnitude's change;
    /// us7000enmc, which ci39746767 names among its ids, was merged into it).
    @Test(arguments: TestEngine.allCases)
    func eachInsertAndDeleteSaysWhyAndEachUpdateWhatChanged(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        let database = store.location
        let expected = try WeeklyPair(threshold: 2.5)
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: database)
        let watch = startWatch([
            "--no-fetch", "--db", database, "--interval", "0.2s", "--format", "ndjson", "--min-magnitude", "2.5",
        ])
        try await watch.wait { $0.split(separator: "\n").count >= expected.firstPass }
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: database)
        try await watch.wait { $0.split(separator: "\n").count >= expected.firstPass + expected.secondPass }
        #expect(await watch.stop() == .success)
        #expect(watch.errors.text.isEmpty)

        let rows = try ndjsonRows(watch.output.text)
        #expect(rows.count == expected.firstPass + expected.secondPass)
        #expect(
            rows.prefix(expected.firstPass).allSatisfy {
                $0["change"] as? String == "insert" && $0["reason"] as? String == "initial"
            })
        var reasons: [[String]] = []
        var updated: Set<String> = []
        for row in rows.dropFirst(expected.firstPass) {
            let change = row["change"] as? String ?? "?"
            let id = (row["quake"] as? [String: Any])?["id"] as? String ?? "?"
            if change == "insert" || change == "delete" {
                reasons.append([change, id, row["reason"] as? String ?? "-", row["mergedInto"] as? String ?? ""])
            } else {
                updated.insert(id)
                #expect(row["reason"] == nil, "\(id)")
            }
            // An update, a move and an event that left say what changed of it, field by field.
            guard let fields = row["fields"] as? [String: Any] else {
                #expect(!(change == "update" || change == "move" || row["reason"] as? String == "left"), "\(id)")
                continue
            }
            let old = try #require(expected.before[id])
            let new = try #require(expected.current[id])
            #expect(Set(fields.keys) == differingFields(old, new), "\(id)")
            if let magnitudes = fields["mag"] as? [Double] {
                #expect(magnitudes == [old.magnitude, new.magnitude].compactMap { $0 }, "\(id)")
            }
        }
        #expect(reasons.count == Set(reasons).count)
        #expect(Set(reasons) == expected.reasons)
        #expect(updated == expected.updated)
        // What the issue tells: revised below the threshold, merged, revised above it, new.
        #expect(reasons.contains(["delete", "uu60446067", "left", ""]))
        #expect(reasons.contains(["delete", "us7000enmc", "merged", "ci39746767"]))
        #expect(reasons.contains(["insert", "hv72593442", "entered", ""]))
        #expect(reasons.contains(["insert", "ci39746767", "new", ""]))
        let left = try #require(
            rows.first {
                ($0["quake"] as? [String: Any])?["id"] as? String == "uu60446067" && $0["change"] as? String == "delete"
            })
        #expect((left["fields"] as? [String: Any])?["mag"] as? [Double] == [2.5, 1.07])
        // An event that entered says what its updates changed, where the history records it.
        let entered = try #require(
            rows.first {
                ($0["quake"] as? [String: Any])?["id"] as? String == "hv72593442" && $0["change"] as? String == "insert"
            })
        #expect(((entered["fields"] as? [String: Any])?["mag"] != nil) == engine.keepsHistory)
    }

    /// An event pruned from the catalogue is deleted, not one that left the query.
    @Test(arguments: TestEngine.allCases)
    func anEventPrunedFromTheCatalogueIsDeleted(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        let database = store.location
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: database)
        let before = try rawFeatures(Fixtures.weekBefore).values.filter { ($0.magnitude ?? 0) >= 4.5 }
        let watch = startWatch([
            "--no-fetch", "--db", database, "--interval", "0.2s", "--format", "ndjson", "--min-magnitude", "4.5",
        ])
        try await watch.wait { $0.split(separator: "\n").count >= before.count }
        // 2021-07-17T14:23Z: two days before the prune's --now.
        let cutoff: Int64 = 1_626_531_780_000
        let pruned = before.filter { $0.time < cutoff }
        #expect(pruned.count > 10 && pruned.count < before.count)
        let prune = await QuakesRun.run([
            "prune", "--db", database, "--older-than", "2d", "--now", "2021-07-19T14:23Z",
        ])
        #expect(prune.status == .success, "\(prune.standardError)")
        try await watch.wait { $0.split(separator: "\n").count >= before.count + pruned.count }
        #expect(await watch.stop() == .success)
        let rows = try ndjsonRows(watch.output.text).dropFirst(before.count)
        #expect(rows.count == pruned.count)
        #expect(
            rows.allSatisfy {
                $0["change"] as? String == "delete" && $0["reason"] as? String == "deleted" && $0["fields"] == nil
            })
        #expect(Set(rows.map { ($0["quake"] as? [String: Any])?["id"] as? String ?? "?" }) == Set(pruned.map(\.id)))
    }

    /// The table: each pass starts with its moment; the first pass's lines are `list`'s rows after
    /// the change and its position; a later pass's columns line up, and its last column says why.
    @Test(arguments: TestEngine.allCases)
    func theTableSaysWhyInColumnsThatLineUpAsListsDo(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        let database = store.location
        let expected = try WeeklyPair(threshold: 5.5)
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: database)
        let list = await QuakesRun.run(
            ["list", "--db", database, "--min-magnitude", "5.5"], variables: ["TZ": "UTC"])
        let listed = list.standardOutput.split(separator: "\n").dropFirst().map(String.init)
        #expect(listed.count == expected.firstPass)
        let watch = RunningQuakes(
            ["watch", "--no-fetch", "--db", database, "--interval", "0.2s", "--min-magnitude", "5.5"],
            variables: ["TZ": "UTC"], directory: "/", now: ReadmeTests.clock)
        try await watch.wait { $0.split(separator: "\n").count >= 1 + expected.firstPass }
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: database)
        let total = 1 + expected.firstPass + 1 + expected.secondPass
        try await watch.wait { $0.split(separator: "\n").count >= total }
        #expect(await watch.stop() == .success)
        let lines = watch.output.text.split(separator: "\n").map(String.init)
        #expect(lines.count == total)
        #expect(lines[0] == "2021-07-22 21:40:00 (UTC)")
        // `insert  #12  `: the change, then the position, as wide as the widest.
        let prefix = 8 + "#\(expected.firstPass - 1)".count + 2
        let first = lines[1...expected.firstPass]
        #expect(first.enumerated().allSatisfy { $1.hasPrefix("insert  #\($0)") })
        #expect(first.map { String($0.dropFirst(prefix)) } == listed)

        let second = Array(lines.dropFirst(1 + expected.firstPass))
        #expect(second[0] == "2021-07-22 21:40:00 (UTC)")
        let changes = Array(second.dropFirst())
        let ids = Set(expected.reasons.map { $0[1] }).union(expected.updated)
        // Every line's id where every other's is.
        let idColumns = changes.map { line in
            ids.compactMap { id in
                line.range(of: "  \(id)").map { line.distance(from: line.startIndex, to: $0.lowerBound) }
            }
        }
        #expect(idColumns.allSatisfy { $0.count == 1 }, "\(changes)")
        #expect(Set(idColumns.joined()).count == 1, "\(changes)")
        #expect(
            changes.contains {
                $0.hasPrefix("delete  #")
                    && $0.hasSuffix(
                        "  us7000enjy  left the query: mag 5.7→5.4, depth 30.7→28.15 (also time, sig, dmin, rms, title, longitude, latitude)"
                    )
            }, "\(changes)")
        #expect(changes.contains { $0.hasPrefix("insert  #") && $0.hasSuffix("  us6000exs5  new") }, "\(changes)")
    }

    /// A source that fails while watching is a warning that says when the watch tries again.
    @Test(arguments: TestEngine.allCases)
    func aSourceThatFailsIsAWarningThatSaysWhenItIsTriedAgain(engine: TestEngine) async throws {
        let server = try LocalHTTPServer()
        server.route(
            "/feed",
            .sequence([
                .respond(status: 200, body: try Fixtures.bytes(Fixtures.alerts)),
                .respond(status: 503, body: Array("down for maintenance".utf8)),
            ]))
        let store = try engine.newDatabase()
        let watch = startWatch([
            server.url("/feed"), "--db", store.location, "--interval", "0.3s", "--retries", "0",
        ])
        try await watch.waitForErrors { $0.contains("trying again") }
        #expect(await watch.stop() == .success)
        let errors = watch.errors.text.split(separator: "\n")
        #expect(!errors.isEmpty)
        #expect(
            errors.allSatisfy {
                $0.hasPrefix("Warning: HTTP 503 Service Unavailable from \(server.url("/feed"))")
                    && $0.hasSuffix(", trying again in 0.3 s")
            }, "\(watch.errors.text)")
    }

    @Test func intervalsReadAsSeconds() {
        #expect(
            [60_000, 300, 1_500, 250, 5, 90_000].map { WatchCommand.seconds($0) } == [
                "60", "0.3", "1.5", "0.25", "0.005", "90",
            ])
    }

    // MARK: - The two files, read apart from quakes

    /// A feature of a fixture as the file says it, read with JSONSerialization.
    private struct RawFeature {
        var id: String
        var ids: [String]
        var magnitude: Double?
        var time: Int64
        var updated: Int64
        var properties: [String: Any]
        var coordinates: [Any]
    }

    private func rawFeatures(_ name: String) throws -> [String: RawFeature] {
        let document = try #require(try JSONSerialization.jsonObject(with: Fixtures.data(name)) as? [String: Any])
        var features: [String: RawFeature] = [:]
        for feature in try #require(document["features"] as? [[String: Any]]) {
            let properties = try #require(feature["properties"] as? [String: Any])
            let id = try #require(feature["id"] as? String)
            features[id] = RawFeature(
                id: id, ids: (properties["ids"] as? String ?? "").split(separator: ",").map(String.init),
                magnitude: (properties["mag"] as? NSNumber)?.doubleValue,
                time: try #require(properties["time"] as? NSNumber).int64Value,
                updated: try #require(properties["updated"] as? NSNumber).int64Value, properties: properties,
                coordinates: try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [Any]))
        }
        return features
    }

    /// The names of the fields whose values differ between two versions of an event: every property
    /// but `updated` (which every revision moves), and the coordinates.
    private func differingFields(_ old: RawFeature, _ new: RawFeature) -> Set<String> {
        func value(_ value: Any?) -> NSObject { value as? NSObject ?? NSNull() }
        var names: Set<String> = []
        for key in Set(old.properties.keys).union(new.properties.keys) where key != "updated" {
            if !value(old.properties[key]).isEqual(value(new.properties[key])) { names.insert(key) }
        }
        for (index, name) in ["longitude", "latitude", "depth"].enumerated()
        where !value(old.coordinates[index]).isEqual(value(new.coordinates[index])) {
            names.insert(name)
        }
        return names
    }

    /// What a watch of `--min-magnitude THRESHOLD` should report when the weekly pair is fetched
    /// one file after the other, by the identity rules as docs/design.md states them: the later
    /// file's version of an event replaces the earlier one's unless it is older, and an event of the
    /// earlier file that a later feature names among its ids, under an id of its own, is absorbed.
    private struct WeeklyPair {
        var before: [String: RawFeature]
        /// The catalogue after both files.
        var current: [String: RawFeature]
        /// How many events the first pass lists, and how many changes the second reports.
        var firstPass: Int
        var secondPass: Int
        /// [change, id, reason, mergedInto or ""] of each insert and delete of the second pass.
        var reasons: Set<[String]>
        /// The events that stay in the result and changed.
        var updated: Set<String>

        init(threshold: Double) throws {
            let tests = WatchTests()
            before = try tests.rawFeatures(Fixtures.weekBefore)
            let after = try tests.rawFeatures(Fixtures.weekAfter)
            var absorbed: [String: String] = [:]
            for feature in after.values {
                for id in feature.ids where id != feature.id && before[id] != nil && after[id] == nil {
                    absorbed[id] = feature.id
                }
            }
            var current = before.filter { absorbed[$0.key] == nil }
            for (id, feature) in after where current[id].map({ $0.updated <= feature.updated }) ?? true {
                current[id] = feature
            }
            self.current = current
            func matches(_ feature: RawFeature?) -> Bool { (feature?.magnitude ?? -.infinity) >= threshold }
            reasons = []
            updated = []
            firstPass = before.values.filter(matches).count
            for (id, old) in before where matches(old) {
                if let into = absorbed[id] {
                    reasons.insert(["delete", id, "merged", into])
                } else if let new = current[id], !matches(new) {
                    reasons.insert(["delete", id, "left", ""])
                } else if let new = current[id],
                    new.updated != old.updated || !tests.differingFields(old, new).isEmpty
                {
                    updated.insert(id)
                }
            }
            for (id, new) in current where matches(new) && !matches(before[id]) {
                reasons.insert(["insert", id, before[id] == nil ? "new" : "entered", ""])
            }
            secondPass = reasons.count + updated.count
        }
    }
}
