import Foundation
import PostgreSQL
import SQLite
import Testing

@testable import QuakesCore

/// Field-level history: each update records the fields it changed, old and new, and each deletion
/// the event's last values, on every engine that keeps history; checked against an independent
/// reading of the two weekly files (`ReferenceDecoder`), not against the code that records them.
@Suite struct FieldHistoryTests {
    /// The first weekly file's events and the second's, by id, as the reference decoder reads them.
    private static func weeks() throws -> (before: [String: Quake], after: [String: Quake]) {
        func byID(_ file: String) throws -> [String: Quake] {
            Dictionary(try ReferenceDecoder.decode(try Fixtures.data(file)).quakes.map { ($0.id, $0) }) { a, _ in a }
        }
        return (try byID(Fixtures.weekBefore), try byID(Fixtures.weekAfter))
    }

    /// The two weekly files fetched in turn, then a prune of what is older than five days.
    private static func fetchedWeeks(_ engine: TestEngine) async throws -> TestStore {
        let store = try engine.newDatabase()
        for file in [Fixtures.weekBefore, Fixtures.weekAfter] {
            let run = await QuakesRun.fetch([Fixtures.path(file)], database: store.location)
            #expect(run.status == .success, "\(run.standardError)")
        }
        return store
    }

    private static func json(_ arguments: [String], _ store: TestStore) async throws -> Any {
        let run = await QuakesRun.run(arguments + ["--db", store.location])
        #expect(run.status == .success, "\(arguments): \(run.standardError)")
        return try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
    }

    private static func changes(_ transaction: Any) -> [[String: Any]] {
        (transaction as? [String: Any])?["changes"] as? [[String: Any]] ?? []
    }

    /// True when `recorded`, a value of the history's JSON, is `value` of `field` as the reference
    /// read it: times as ISO 8601 text, numbers as numbers, an absent value as null.
    private static func same(_ recorded: Any?, _ value: QuakeField.Value?, _ field: QuakeField) -> Bool {
        switch value {
        case nil: return recorded is NSNull
        case let .text(text)?:
            return field == .extra ? recorded is [String: Any] || recorded is [Any] : recorded as? String == text
        case let .integer(number)?:
            return field.isTime
                ? recorded as? String == CivilTime.iso8601(number) : (recorded as? NSNumber)?.int64Value == number
        case let .real(number)?:
            // Foundation's JSON parser can be a unit in the last place off for 17 digits.
            return (recorded as? NSNumber).map { abs($0.doubleValue - number) <= number.ulp } ?? false
        }
    }

    @Test(arguments: TestEngine.keepingHistory) func updatesAndDeletionsRecordWhatTheTwoFilesSay(engine: TestEngine)
        async throws
    {
        let store = try await Self.fetchedWeeks(engine)
        let (before, after) = try Self.weeks()
        let log = try #require(try await Self.json(["history", "--changes", "--format", "json"], store) as? [Any])
        #expect(log.count == 2)
        // A first fetch inserts, and an insert records no fields.
        #expect(Self.changes(log[0]).allSatisfy { $0["change"] as? String == "insert" && $0["fields"] == nil })

        var updates = 0
        var revisedMagnitudes = 0
        for change in Self.changes(log[1]) {
            let id = try #require(change["id"] as? String)
            switch change["change"] as? String {
            case "update":
                let (old, new) = (try #require(before[id]), try #require(after[id]))
                let fields = try #require(change["fields"] as? [String: Any], "\(id)")
                // Exactly the fields whose values differ between the two files, each old then new;
                // `updated` and the feed time, which every revision moves, are not among them.
                let differing = QuakeField.allCases.filter {
                    $0 != .updated && $0 != .feedGenerated && $0.value(of: old) != $0.value(of: new)
                }
                #expect(Set(fields.keys) == Set(differing.map(\.name)), "\(id)")
                for field in differing {
                    let pair = try #require(fields[field.name] as? [Any], "\(id) \(field.name)")
                    #expect(Self.same(pair[0], field.value(of: old), field), "\(id) \(field.name) old")
                    #expect(Self.same(pair[1], field.value(of: new), field), "\(id) \(field.name) new")
                }
                updates += 1
                revisedMagnitudes += fields["mag"] == nil ? 0 : 1
            case "delete":
                // The tombstone: the deleted version's last values, each then null.
                let old = try #require(before[id])
                let fields = try #require(change["fields"] as? [String: Any], "\(id)")
                #expect(Set(fields.keys) == ["time", "mag", "place", "longitude", "latitude", "depth"])
                for field in FieldChange.tombstoneFields {
                    let pair = try #require(fields[field.name] as? [Any])
                    #expect(Self.same(pair[0], field.value(of: old), field) && pair[1] is NSNull, "\(id) \(field.name)")
                }
            default:
                #expect(change["fields"] == nil, "\(id)")
            }
        }
        #expect(updates == 202)
        #expect(revisedMagnitudes > 50, "\(revisedMagnitudes) magnitudes revised")

        // A prune's deletions keep their tombstones too: the values stored when it ran.
        let stored = Dictionary(uniqueKeysWithValues: try await store.read { try $0.allQuakes() }.map { ($0.id, $0) })
        let prune = await QuakesRun.run([
            "prune", "--db", store.location, "--older-than", "5d", "--now", "2021-07-22T20:39:44Z",
        ])
        #expect(prune.status == .success, "\(prune.standardError)")
        let pruned = Self.changes(
            try #require(
                try await Self.json(["history", "--changes", "--format", "json", "--since", "2"], store) as? [Any]
            ).first
                ?? [:])
        #expect(pruned.count > 1000)
        for change in pruned {
            let id = try #require(change["id"] as? String)
            let old = try #require(stored[id])
            let fields = try #require(change["fields"] as? [String: Any], "\(id)")
            for field in FieldChange.tombstoneFields {
                let pair = try #require(fields[field.name] as? [Any])
                #expect(Self.same(pair[0], field.value(of: old), field) && pair[1] is NSNull, "\(id) \(field.name)")
            }
        }
    }

    @Test(arguments: TestEngine.keepingHistory) func fieldMinChangeAndIDAnswerTheirQuestions(engine: TestEngine)
        async throws
    {
        let store = try await Self.fetchedWeeks(engine)
        let (before, after) = try Self.weeks()
        func ids(_ arguments: [String]) async throws -> Set<String> {
            let log = try #require(try await Self.json(["history", "--format", "json"] + arguments, store) as? [Any])
            return Set(log.flatMap { Self.changes($0).compactMap { $0["id"] as? String } })
        }
        // Which magnitudes were revised, and which by at least 0.3 either way, as the files say.
        let revised = after.values.filter { new in
            guard let old = before[new.id], old.updated != new.updated else { return false }
            return old.magnitude != new.magnitude
        }
        #expect(try await ids(["--field", "mag"]) == Set(revised.map(\.id)))
        let byMuch = revised.filter { new in
            guard let a = before[new.id]?.magnitude, let b = new.magnitude else { return false }
            return (abs(b - a) * 1000).rounded() >= 300
        }
        #expect(!byMuch.isEmpty && byMuch.count < revised.count)
        #expect(try await ids(["--field", "mag", "--min-change", "0.3"]) == Set(byMuch.map(\.id)))
        let table = await QuakesRun.run(["history", "--db", store.location, "--field", "mag", "--min-change", "0.3"])
        #expect(table.standardOutput.contains("update  ci39744159  mag 1.06→0.75, "), "\(table.standardOutput)")

        // An event's whole story under any of its ids: ak02198hmo8v was merged into us7000enm4.
        for id in ["ak02198hmo8v", "us7000enm4"] {
            #expect(try await ids(["--id", id]) == ["ak02198hmo8v", "us7000enm4"], "\(id)")
        }
        let show = try #require(
            try await Self.json(["show", "ak02198hmo8v", "--history", "--format", "json"], store) as? [String: Any])
        #expect(show["id"] as? String == "us7000enm4")
        let versions = try #require(show["history"] as? [[String: Any]])
        #expect(versions.map { $0["token"] as? Int } == [2, 2, 1])
        #expect(versions.map { $0["change"] as? String } == ["insert", "delete", "insert"])
        #expect(versions[1]["mergedInto"] as? String == "us7000enm4")
        #expect((versions[1]["fields"] as? [String: Any])?["mag"] as? [Any] != nil)
        #expect(
            versions.map { $0["source"] as? String } == ["file://" + Fixtures.path(Fixtures.weekAfter)] * 2 + [
                "file://" + Fixtures.path(Fixtures.weekBefore)
            ])
        let revisedShow = await QuakesRun.run(["show", "ci39744159", "--history", "--db", store.location])
        #expect(revisedShow.standardOutput.contains("\n    mag 1.06→0.75, "), "\(revisedShow.standardOutput)")

        // What a filter cannot mean is a usage error.
        for arguments in [
            ["--min-change", "0.3"], ["--field", "place", "--min-change", "1"], ["--field", "magnitude"],
        ] {
            let run = await QuakesRun.run(["history", "--db", store.location] + arguments)
            #expect(run.status == .usage, "\(arguments)")
        }
    }

    /// A database written before the history kept fields keeps its history: its old changes say
    /// they have no fields, and the next write, which migrates it, records them.
    @Test(arguments: TestEngine.keepingHistory) func historyWrittenBeforeFieldsSaysSo(engine: TestEngine) async throws {
        let store = try await Self.fetchedWeeks(engine)
        switch engine {
        case .sqlite:
            try Connection(path: store.location).execute(
                "ALTER TABLE history_change DROP COLUMN fields; PRAGMA user_version = 6")
        case .postgresql:
            let connection = try PostgresConnection(uri: store.location)
            try connection.execute("ALTER TABLE history_change DROP COLUMN fields")
            try connection.execute("UPDATE quakes_schema SET version = 4")
        case .geojson:
            Issue.record("the GeoJSON file keeps no history")
        }
        let refused = await QuakesRun.run(["history", "--db", store.location])
        #expect(refused.status == .ioError && refused.standardError.contains("older than"), "\(refused.standardError)")
        let fetch = await QuakesRun.fetch([Fixtures.path(Fixtures.weekAfter)], database: store.location)
        #expect(fetch.status == .success, "\(fetch.standardError)")

        let log = try #require(try await Self.json(["history", "--changes", "--format", "json"], store) as? [Any])
        let updates = Self.changes(log[1]).filter { $0["change"] as? String == "update" }
        #expect(updates.count == 202 && updates.allSatisfy { $0["fields"] is NSNull })
        let table = await QuakesRun.run(["history", "--db", store.location, "--changes", "--since", "1"])
        #expect(table.standardOutput.contains("update  ci39744159  (fields not recorded)\n"), "\(table.standardOutput)")

        // The next change records its fields: a version of ci39744159 with another magnitude.
        var revised = try #require(try await store.read { try $0.quake(withID: "ci39744159") })
        revised.magnitude = 0.8
        revised.updated = (revised.updated ?? 0) + 60_000
        let file = try store.write(
            "revised.geojson",
            #"{"type":"FeatureCollection","features":["# + QuakeFormats.geoJSONFeature(revised) + "]}")
        let again = await QuakesRun.fetch([file], database: store.location)
        #expect(again.status == .success, "\(again.standardError)")
        let last = try #require(
            try await Self.json(["history", "--id", "ci39744159", "--format", "json", "--since", "2"], store) as? [Any])
        #expect(
            (Self.changes(last.first ?? [:]).first?["fields"] as? [String: Any])?["mag"] as? [Double] == [0.75, 0.8])
    }

    /// An event revised twice in one fetch, in batches far apart, is one update: from the values
    /// stored before the fetch to the last, as the engines keep the earlier batches' entries.
    @Test(arguments: TestEngine.keepingHistory) func twoRevisionsInOneFetchAreOneUpdate(engine: TestEngine)
        async throws
    {
        let store = try engine.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: store.location)
        let (before, after) = try Self.weeks()
        var third: [Quake] = []
        for new in after.values.sorted(by: { $0.id < $1.id })
        where before[new.id].map({ $0.updated != new.updated }) ?? false {
            var later = new
            // Revised by 0.1, written with two decimals as USGS writes magnitudes.
            later.magnitude = (((new.magnitude ?? 0) + 0.1) * 100).rounded() / 100
            later.updated = (new.updated ?? 0) + 60_000
            third.append(later)
        }
        // Every feature of the second week, then the third versions, some megabytes further on.
        let features = (after.values.sorted { $0.id < $1.id } + third).map(QuakeFormats.geoJSONFeature)
        let file = try store.write(
            "twice.geojson", #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}")
        let run = await QuakesRun.fetch([file], database: store.location)
        #expect(run.status == .success, "\(run.standardError)")
        let log = try #require(
            try await Self.json(["history", "--changes", "--format", "json", "--since", "1"], store) as? [Any])
        let recorded = Dictionary(
            uniqueKeysWithValues: Self.changes(try #require(log.first)).compactMap { change in
                (change["id"] as? String).map { ($0, change) }
            })
        for new in third {
            let old = try #require(before[new.id])
            let change = try #require(recorded[new.id], "\(new.id)")
            #expect(change["change"] as? String == "update")
            let fields = try #require(change["fields"] as? [String: Any], "\(new.id)")
            let differing = FieldChange.fields.filter { $0.value(of: old) != $0.value(of: new) }
            #expect(Set(fields.keys) == Set(differing.map(\.name)), "\(new.id)")
            for field in differing {
                let pair = try #require(fields[field.name] as? [Any])
                #expect(Self.same(pair[0], field.value(of: old), field), "\(new.id) \(field.name) old")
                #expect(Self.same(pair[1], field.value(of: new), field), "\(new.id) \(field.name) new")
            }
        }
        #expect(third.count > 150)
    }

    /// A store that keeps no history says so to `show --history`, as to `history`.
    @Test func showHistoryOnAStoreWithoutHistoryIsAUsageError() async throws {
        let store = try TestEngine.geojson.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: store.location)
        let run = await QuakesRun.run(["show", "ak02198hmo8v", "--history", "--db", store.location])
        #expect(run.status == .usage)
        #expect(run.standardError.contains("keeps no history of transactions"), "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
        let plain = await QuakesRun.run(["show", "ak02198hmo8v", "--db", store.location])
        #expect(plain.status == .success)
    }

    /// Two changes of one event in one write are one change, from the first old values to the last
    /// new ones: checked on every revised event of the weekly files, with a version between the two.
    @Test func changesWithinOneWriteCompose() throws {
        let (before, after) = try Self.weeks()
        var checked = 0
        for new in after.values {
            guard let old = before[new.id], old.updated != new.updated else { continue }
            var middle = old
            middle.magnitude = new.magnitude
            middle.place = "somewhere between"
            let direct = FieldChange.between(old, new)
            #expect(FieldChange.composed(FieldChange.between(old, middle), FieldChange.between(middle, new)) == direct)
            // There and back again changes nothing.
            #expect(FieldChange.composed(direct, FieldChange.between(new, old)).isEmpty)
            // Through the ledger, an update followed by an update; a deletion followed by the
            // event's return is an update whose fields are not known.
            var ledger = HistoryLedger()
            ledger.record(new.id, existed: true, remains: true, fields: FieldChange.between(old, middle))
            ledger.record(new.id, existed: true, remains: true, fields: FieldChange.between(middle, new))
            #expect(ledger.entriesSoFar.first?.fields == direct)
            var returned = HistoryLedger()
            returned.record(new.id, existed: true, remains: false, fields: FieldChange.tombstone(of: old))
            returned.record(new.id, existed: false, remains: true, fields: direct)
            #expect(returned.entriesSoFar.first?.change == .update)
            #expect(returned.entriesSoFar.first?.fields == nil)
            // What the engines store reads back as it was.
            #expect(FieldChange.stored(FieldChange.storageText(direct)) == direct)
            checked += 1
        }
        #expect(checked > 150, "\(checked) revised events")
    }
}

extension Array {
    fileprivate static func * (array: [Element], count: Int) -> [Element] {
        (0..<count).flatMap { _ in array }
    }
}
