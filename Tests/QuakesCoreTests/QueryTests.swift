import Foundation
import Testing

@testable import QuakesCore

/// Runs a read command against the universe database, with "now" fixed and TZ set.
private func query(_ arguments: [String], tz: String = "UTC") async throws -> QuakesRun {
    let (path, _) = try await QueryUniverse.shared.database()
    return await QuakesRun.run(arguments + ["--db", path, "--now", QueryUniverse.now], variables: ["TZ": tz])
}

private let now = QueryUniverse.nowMilliseconds
private let hour: Int64 = 3_600_000

/// Every filter, checked against a predicate applied in Swift to the decoded fixtures.
@Suite struct FilterTests {
    static let cases: [(arguments: [String], keep: @Sendable (Quake) -> Bool)] = [
        ([], { _ in true }),
        (["--last", "5h"], { $0.time >= now - 5 * hour && $0.time <= now }),
        (["--last", "1.5h"], { $0.time >= now - 90 * 60_000 && $0.time <= now }),
        (["--last", "2d"], { $0.time >= now - 48 * hour && $0.time <= now }),
        (["--last", "90m"], { $0.time >= now - 90 * 60_000 && $0.time <= now }),
        (["--since", "2021-07-21"], { $0.time >= 1_626_825_600_000 }),
        (
            ["--since", "2021-07-21", "--until", "2021-07-22T12:00:00+02:00"],
            { $0.time >= 1_626_825_600_000 && $0.time < 1_626_948_000_000 }
        ),
        (["--until", "2014-04-14T10:00:00.5Z"], { $0.time < 1_397_469_600_500 }),
        (["--since", "36h"], { $0.time >= now - 36 * hour }),
        (["--min-magnitude", "4.5"], { ($0.magnitude ?? -.infinity) >= 4.5 }),
        (["--max-magnitude", "0"], { ($0.magnitude ?? .infinity) <= 0 }),
        (
            ["--min-magnitude", "-1", "--max-magnitude", "-0.5"],
            { $0.magnitude.map { $0 >= -1 && $0 <= -0.5 } ?? false }
        ),
        (["--place", "sandwich"], { $0.place?.lowercased().contains("sandwich") ?? false }),
        (["--place", "PĀHALA"], { Expected.folded($0.place).contains("pahala") }),
        (["--place", "pahala"], { Expected.folded($0.place).contains("pahala") }),
        (["--place", ", ca"], { $0.place?.lowercased().contains(", ca") ?? false }),
        (["--type", "Quarry Blast"], { $0.eventType == "quarry blast" }),
        (["--type", "EXPLOSION"], { $0.eventType == "explosion" }),
        (["--status", "reviewed"], { $0.status?.lowercased() == "reviewed" }),
        (["--status", "AUTOMATIC"], { $0.status?.lowercased() == "automatic" }),
        (["--alert", "red"], { $0.alert == "red" }),
        (["--alert", "yellow"], { $0.alert == "yellow" }),
        (["--tsunami"], { $0.tsunami == 1 }),
        (
            ["--near", "19.4,-155.3", "--radius", "50"],
            {
                Expected.haversine($0.latitude, $0.longitude, 19.4, -155.3) <= 50
            }
        ),
        (
            ["--near", "-60,-30", "--radius", "1500"],
            { Expected.haversine($0.latitude, $0.longitude, -60, -30) <= 1500 }
        ),
        (["--bbox", "-125,32,-114,42"], { (-125...(-114)).contains($0.longitude) && (32...42).contains($0.latitude) }),
        (
            ["--bbox", "170,-60,-170,60"],
            { ($0.longitude >= 170 || $0.longitude <= -170) && (-60...60).contains($0.latitude) }
        ),
        (["--min-depth", "300"], { ($0.depth ?? -.infinity) >= 300 }),
        (["--max-depth", "-1"], { ($0.depth ?? .infinity) <= -1 }),
        (
            ["--min-magnitude", "2", "--status", "reviewed", "--last", "2d", "--max-depth", "20"],
            {
                ($0.magnitude ?? -.infinity) >= 2 && $0.status?.lowercased() == "reviewed" && $0.time >= now - 48 * hour
                    && $0.time <= now && ($0.depth ?? .infinity) <= 20
            }
        ),
    ]

    @Test(arguments: cases.indices)
    func countAndListMatchTheFilterAppliedToTheFixtures(index: Int) async throws {
        let (arguments, keep) = Self.cases[index]
        let (_, universe) = try await QueryUniverse.shared.database()
        let expected = universe.filter(keep)
        let count = try await query(["count"] + arguments)
        #expect(count.status == .success, "\(count.standardError)")
        #expect(count.standardOutput == "\(expected.count)\n", "\(arguments)")
        let list = try await query(["list", "--format", "ndjson"] + arguments)
        #expect(Set(try ndjsonIDs(list.standardOutput)) == Set(expected.map(\.id)), "\(arguments)")
    }

    @Test func theFiltersFindWhatTheyShouldOnThisData() async throws {
        // Guards against a filter passing because it keeps nothing or everything.
        let (_, universe) = try await QueryUniverse.shared.database()
        for (arguments, keep) in Self.cases.dropFirst() {
            let kept = universe.filter(keep).count
            #expect(kept > 0 && kept < universe.count, "\(arguments) keeps \(kept) of \(universe.count)")
        }
        // 4685 features in the seven files, five of them twice.
        #expect(universe.count == 4680)
    }

    @Test func quakesNowStandsInForTheClock() async throws {
        let (path, universe) = try await QueryUniverse.shared.database()
        let run = await QuakesRun.run(
            ["count", "--db", path, "--last", "5h"], variables: ["QUAKES_NOW": QueryUniverse.now])
        #expect(run.standardOutput == "\(universe.filter { $0.time >= now - 5 * hour && $0.time <= now }.count)\n")
        let clock = await QuakesRun.run(["count", "--db", path, "--last", "5h"], now: now)
        #expect(clock.standardOutput == run.standardOutput)
    }

    @Test func placesMatchWhateverTheCaseTheAccentsAndTheNormalForm() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let places = [
            "Ōfunato, Japan", "OFUNATO", "near ōfunato", "Zindah Jān", "Borāzjān, Iran",
            "Bora\u{0304}zja\u{0304}n (decomposed)",
        ]
        let features = places.enumerated().map { index, place in
            #"{"type":"Feature","properties":{"time":\#(index),"place":"\#(place)"},"geometry":{"type":"Point","coordinates":[0,0]},"id":"p\#(index)"}"#
        }
        let path = try folder.write(
            "places.geojson", #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#)
        _ = await QuakesRun.fetch([path], database: database)
        let ofunato = await QuakesRun.run(["list", "--db", database, "--place", "ōfunato", "--format", "ndjson"])
        #expect(try ndjsonIDs(ofunato.standardOutput).sorted() == ["p0", "p1", "p2"])
        let upper = await QuakesRun.run(["list", "--db", database, "--place", "ŌFUNATO", "--format", "ndjson"])
        #expect(try ndjsonIDs(upper.standardOutput).sorted() == ["p0", "p1", "p2"])
        let jan = await QuakesRun.run(["count", "--db", database, "--place", "JĀN"])
        #expect(jan.standardOutput == "3\n")
        for needle in ["borazjan", "BORĀZJĀN", "bora\u{0304}zja\u{0304}n"] {
            let borazjan = await QuakesRun.run(["list", "--db", database, "--place", needle, "--format", "ndjson"])
            #expect(try ndjsonIDs(borazjan.standardOutput).sorted() == ["p4", "p5"], "\(needle)")
        }
    }

    @Test(arguments: [
        (
            ["--last", "5x"],
            "The value '5x' is invalid for '--last <duration>': expected a number and a unit s, m, h, d or w"
        ),
        (["--last", "-5h"], "'--last <duration>'"),
        (["--since", "yesterday"], "The value 'yesterday' is invalid for '--since <when>': expected YYYY-MM-DD"),
        (["--since", "2021-07-20T10:00:00+25:00"], "'--since <when>'"),
        (["--until", "2021-02-30"], "'--until <when>'"),
        (["--min-magnitude", "abc"], "The value 'abc' is invalid for '--min-magnitude <m>': expected a number"),
        (
            ["--near", "91,0", "--radius", "10"],
            "The value '91,0' is invalid for '--near <lat,lon>': expected LAT,LON with latitude in [-90, 90]"
        ),
        (["--sort", "distance"], "'--sort distance' needs '--near <lat,lon>'"),
        (["--limit-per-section", "2"], "'--limit-per-section <n>' needs '--section <key>'"),
        (["--radius", "10"], "'--radius <km>' needs '--near <lat,lon>'"),
        (["--near", "10,20", "--radius", "0"], "'--radius <km>'"),
        (["--bbox", "1,2,3"], "'--bbox <minlon,minlat,maxlon,maxlat>'"),
        (["--bbox", "0,10,5,5"], "'--bbox <minlon,minlat,maxlon,maxlat>'"),
        (["--status", "deleted"], "expected automatic or reviewed"),
        (["--alert", "purple"], "expected green, yellow, orange, red or pending"),
        (["--alert", "gren"], "expected green, yellow, orange, red or pending; did you mean 'green'?"),
        (["--sort", "size"], "'--sort <spec>': expected KEY[:asc|:desc]"),
        (["--sort", "mag"], "; did you mean 'magnitude'?"),
        (["--sort", "time,sig:asc"], "; did you mean 'significance'?"),
        (["--section", "dya"], "; did you mean 'day'?"),
        (["--limt", "3"], "Unknown option '--limt'; did you mean '--limit'?"),
        (["--sort", "time:up"], "'--sort <spec>'"),
        (["--sort", "time,time"], "'--sort <spec>'"),
        (
            ["--section", "year"],
            "'--section <key>': expected one of hour, day, week, month, magnitude, type, network, alert"
        ),
        (["--limit", "-1"], "'--limit <n>'"),
        (["--format", "xml"], "'--format <format>': expected table, json, ndjson, csv or geojson"),
        (["--format", "jsn"], "; did you mean 'json'?"),
        (["--color", "sometimes"], "'--color <when>': expected auto, always or never"),
        (["extra"], "Unexpected argument 'extra'"),
    ])
    func malformedValuesAreUsageErrors(arguments: [String], message: String) async throws {
        let run = try await query(["list"] + arguments)
        #expect(run.status == .usage)
        #expect(run.standardError.hasPrefix("Error: "))
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(run.standardError.contains("See 'quakes list --help' for more information."))
        #expect(run.standardOutput.isEmpty)
    }

    @Test func aMissingDatabaseIsReportedNotCreated() async throws {
        let folder = try TemporaryDirectory()
        let run = await QuakesRun.run(["count", "--db", folder.file("none.sqlite")])
        #expect(run.status == .noInput)
        #expect(
            run.standardError
                == "Error: database \(folder.file("none.sqlite")) does not exist; run 'quakes fetch' first\n")
        #expect(!FileManager.default.fileExists(atPath: folder.file("none.sqlite")))
    }
}

/// Bounds that no event can lie between are usage errors, in every command that takes them, told
/// before any database is opened or source fetched.
@Suite struct ContradictoryBoundsTests {
    static let cases: [(arguments: [String], message: String)] = [
        (["--since", "2021-07-22", "--until", "2021-07-20"], "'--since 2021-07-22' is after '--until 2021-07-20'"),
        (
            ["--since=2021-07-20", "--until", "2021-07-20T00:00"],
            "'--since 2021-07-20' is the same moment as '--until 2021-07-20T00:00' (--until is exclusive)"
        ),
        // Durations before now: an hour ago is after two hours ago.
        (["--since", "1h", "--until", "2h"], "'--since 1h' is after '--until 2h'"),
        (["--since", "2021-07-22", "--until", "3d"], "'--since 2021-07-22' is after '--until 3d'"),
        (
            ["--min-magnitude", "5", "--max-magnitude", "4.5"],
            "'--min-magnitude 5' is greater than '--max-magnitude 4.5'"
        ),
        (["--min-depth=100", "--max-depth", "-1"], "'--min-depth 100' is greater than '--max-depth -1'"),
    ]

    /// `backfill` needs `--since`; `sync` takes no `--until`.
    static let commands: [[String]] = [
        ["count"], ["count", "--section", "day"], ["list"], ["watch", Fixtures.path(Fixtures.weekBefore)],
        ["watch", "--no-fetch"], ["chart"], ["map"], ["backfill", "--service", "http://127.0.0.1:9/fdsnws/event/1/"],
        ["sync", "--service", "http://127.0.0.1:9/fdsnws/event/1/"],
    ]

    @Test(arguments: commands, cases.indices)
    func contradictoryBoundsAreUsageErrors(command: [String], index: Int) async throws {
        let (arguments, message) = Self.cases[index]
        if command[0] == "sync", arguments.contains(where: { $0.hasPrefix("--until") }) { return }
        let since = command[0] == "backfill" && !arguments.contains(where: { $0.hasPrefix("--since") })
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let run = await QuakesRun.run(
            command + ["--db", database] + arguments + (since ? ["--since", "2021-07-01"] : []),
            variables: ["TZ": "UTC", "QUAKES_NOW": QueryUniverse.now])
        #expect(run.status == .usage)
        #expect(run.standardError.hasPrefix("Error: \(message)\nUsage: quakes \(command[0]) "), "\(run.standardError)")
        #expect(run.standardError.hasSuffix("\n  See 'quakes \(command[0]) --help' for more information.\n"))
        #expect(run.standardOutput.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: database))
    }

    /// Dates are midnights of the display zone, so whether two bounds contradict each other
    /// depends on it: Tokyo's July 20 starts at 15:00 UTC on July 19.
    @Test func boundsAreComparedAsMomentsOfTheDisplayZone() async throws {
        let bounds = ["count", "--since", "2021-07-20", "--until", "2021-07-19T20:00Z"]
        let utc = try await query(bounds)
        #expect(utc.status == .usage)
        #expect(utc.standardError.hasPrefix("Error: '--since 2021-07-20' is after '--until 2021-07-19T20:00Z'\n"))
        let tokyo = try await query(bounds, tz: "Asia/Tokyo")
        #expect(tokyo.status == .success)
        let (_, universe) = try await QueryUniverse.shared.database()
        let start = CivilTime.milliseconds(year: 2021, month: 7, day: 19) + 15 * hour
        let inTokyo = universe.filter { $0.time >= start && $0.time < start + 5 * hour }.count
        #expect(inTokyo > 0 && tokyo.standardOutput == "\(inTokyo)\n")
        // Bounds that meet are still a range, and equal magnitudes or depths are one value.
        let range = try await query(["count", "--since", "2021-07-20", "--until", "2021-07-20T00:00:00.001"])
        #expect(range.status == .success)
        let magnitude = try await query(["count", "--min-magnitude", "4.5", "--max-magnitude", "4.5"])
        #expect(magnitude.standardOutput == "\(universe.filter { $0.magnitude == 4.5 }.count)\n")
        let depth = try await query(["count", "--min-depth", "10", "--max-depth", "10"])
        #expect(depth.standardOutput == "\(universe.filter { $0.depth == 10 }.count)\n")
    }
}

/// Every sort key in both directions, and compound sorts.
@Suite struct SortTests {
    static let specs: [(spec: String, keys: [(String, Bool)])] = [
        ("time", [("time", false)]),
        ("time:asc", [("time", true)]),
        ("magnitude", [("magnitude", false)]),
        ("magnitude:asc", [("magnitude", true)]),
        ("depth", [("depth", true)]),
        ("depth:desc", [("depth", false)]),
        ("place", [("place", true)]),
        ("place:desc", [("place", false)]),
        ("significance", [("significance", false)]),
        ("significance:asc", [("significance", true)]),
        ("magnitude,depth", [("magnitude", false), ("depth", true)]),
        ("place,time:asc", [("place", true), ("time", true)]),
        ("significance:asc,magnitude:desc,place", [("significance", true), ("magnitude", false), ("place", true)]),
    ]

    @Test(arguments: specs.indices)
    func listingsFollowTheSortSpecification(index: Int) async throws {
        let (spec, keys) = Self.specs[index]
        let (_, universe) = try await QueryUniverse.shared.database()
        let run = try await query(["list", "--sort", spec, "--format", "ndjson"])
        #expect(run.status == .success)
        #expect(try ndjsonIDs(run.standardOutput) == Expected.sorted(universe, by: keys).map(\.id), "\(spec)")
    }

    @Test func missingMagnitudesComeLastInBothDirections() async throws {
        for spec in ["magnitude", "magnitude:asc"] {
            let run = try await query(["list", "--sort", spec, "--format", "ndjson"])
            #expect(try ndjsonIDs(run.standardOutput).last == "ok2020vfoa", "\(spec)")
        }
        let places = try await query(["list", "--sort", "place:desc", "--format", "ndjson"])
        let rows = try ndjsonRows(places.standardOutput)
        #expect(rows.suffix(5).allSatisfy { $0["place"] is NSNull })
    }

    @Test func aLimitKeepsTheFirstEventsInOutputOrder() async throws {
        let (_, universe) = try await QueryUniverse.shared.database()
        let run = try await query(["list", "--sort", "magnitude", "--limit", "7", "--format", "ndjson"])
        #expect(
            try ndjsonIDs(run.standardOutput)
                == Expected.sorted(universe, by: [("magnitude", false)]).prefix(7).map(\.id))
        let none = try await query(["list", "--limit", "0", "--format", "ndjson"])
        #expect(none.standardOutput.isEmpty)
    }
}

/// Sections by day and by magnitude, with every combination of sort.
@Suite struct SectionTests {
    private func sectionsOf(_ run: QuakesRun) throws -> [(section: String, ids: [String])] {
        var sections: [(section: String, ids: [String])] = []
        for row in try ndjsonRows(run.standardOutput) {
            let section = row["section"] as? String ?? "?"
            if sections.last?.section == section {
                sections[sections.count - 1].ids.append(row["id"] as? String ?? "?")
            } else {
                #expect(!sections.contains { $0.section == section }, "section \(section) appears twice")
                sections.append((section, [row["id"] as? String ?? "?"]))
            }
        }
        return sections
    }

    /// The expected sectioned listing: groups in `order`, each sorted by `keys`.
    private func expected(
        _ quakes: [Quake], group: (Quake) -> String, order: (String, String) -> Bool,
        keys: [(String, Bool)]
    ) -> [(section: String, ids: [String])] {
        Dictionary(grouping: quakes, by: group).sorted { order($0.key, $1.key) }.map { section, members in
            (section, Expected.sorted(members, by: keys).map(\.id))
        }
    }

    private let newestDayFirst: (String, String) -> Bool = { $0 > $1 }
    private let highestBandFirst: (String, String) -> Bool = { a, b in
        if a == "unknown" { return false }
        if b == "unknown" { return true }
        return Int(a)! > Int(b)!
    }

    @Test(arguments: ["UTC", "America/Los_Angeles", "Asia/Kolkata", "Pacific/Auckland"])
    func daysFollowTheDisplayZoneNewestFirstStrongestFirstInside(zone: String) async throws {
        let (_, universe) = try await QueryUniverse.shared.database()
        let run = try await query(["list", "--sort", "magnitude", "--section", "day", "--format", "ndjson"], tz: zone)
        let want = expected(
            universe, group: { Expected.localDate($0.time, zone: zone) }, order: newestDayFirst,
            keys: [("magnitude", false)])
        let got = try sectionsOf(run)
        #expect(got.map(\.section) == want.map(\.section), "\(zone)")
        #expect(got.map(\.ids) == want.map(\.ids), "\(zone)")
    }

    @Test func ascendingTimeListsTheOldestDayFirst() async throws {
        let (_, universe) = try await QueryUniverse.shared.database()
        let run = try await query(
            ["list", "--sort", "time:asc", "--section", "day", "--format", "ndjson"], tz: "Europe/Paris")
        let want = expected(
            universe, group: { Expected.localDate($0.time, zone: "Europe/Paris") }, order: { $0 < $1 },
            keys: [("time", true)])
        let got = try sectionsOf(run)
        #expect(got.map(\.section) == want.map(\.section))
        #expect(got.map(\.ids) == want.map(\.ids))
    }

    @Test(
        arguments: [
            ("time", [("time", false)], false),
            ("magnitude", [("magnitude", false)], false),
            ("magnitude:asc", [("magnitude", true)], true),
            ("depth,magnitude", [("depth", true), ("magnitude", false)], false),
        ] as [(String, [(String, Bool)], Bool)])
    func magnitudeBandsHoldTheirEventsWithUnknownLast(sort: String, keys: [(String, Bool)], ascendingBands: Bool)
        async throws
    {
        let (_, universe) = try await QueryUniverse.shared.database()
        let run = try await query(["list", "--sort", sort, "--section", "magnitude", "--format", "ndjson"])
        let order: (String, String) -> Bool =
            ascendingBands
            ? { a, b in a == "unknown" ? false : b == "unknown" ? true : Int(a)! < Int(b)! }
            : highestBandFirst
        let want = expected(universe, group: { Expected.band($0.magnitude) }, order: order, keys: keys)
        let got = try sectionsOf(run)
        #expect(got.map(\.section) == want.map(\.section), "\(sort)")
        #expect(got.map(\.ids) == want.map(\.ids), "\(sort)")
        #expect(got.last?.section == "unknown")
        #expect(got.last?.ids == ["ok2020vfoa"])
    }

    @Test func sectionCountsComeInTheKeysNaturalOrder() async throws {
        let (_, universe) = try await QueryUniverse.shared.database()
        let days = try await query(["count", "--section", "day", "--format", "json"], tz: "America/Los_Angeles")
        let objects = try #require(
            try JSONSerialization.jsonObject(with: Data(days.standardOutput.utf8)) as? [[String: Any]])
        let byDay = Dictionary(grouping: universe) { Expected.localDate($0.time, zone: "America/Los_Angeles") }
        #expect(objects.map { $0["id"] as? String ?? "" } == byDay.keys.sorted(by: >))
        #expect(objects.map { $0["count"] as? Int ?? -1 } == byDay.keys.sorted(by: >).map { byDay[$0]!.count })
        #expect(objects.first?["title"] as? String == "October 10, 2023")

        let bands = try await query(["count", "--section", "magnitude", "--format", "csv"])
        let lines = bands.standardOutput.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let byBand = Dictionary(grouping: universe) { Expected.band($0.magnitude) }
        #expect(lines.first == "section,title,count,zone")
        #expect(
            lines.dropFirst().map { $0.split(separator: ",").first.map(String.init) ?? "" }
                == byBand.keys.sorted(by: highestBandFirst))
        #expect(lines.last == "unknown,Unknown magnitude,1,UTC")
        #expect(lines.contains("-1,Magnitude -1,\(byBand["-1"]!.count),UTC"))
    }

    @Test func aLimitKeepsWhatRemainsOfTheSections() async throws {
        let (_, universe) = try await QueryUniverse.shared.database()
        let run = try await query([
            "list", "--sort", "magnitude", "--section", "day", "--limit", "12", "--format", "json",
        ])
        let sections = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [[String: Any]])
        let want = expected(
            universe, group: { Expected.localDate($0.time, zone: "UTC") }, order: newestDayFirst,
            keys: [("magnitude", false)])
        var remaining = 12
        var wanted: [(String, [String])] = []
        for (section, ids) in want where remaining > 0 {
            wanted.append((section, Array(ids.prefix(remaining))))
            remaining -= min(ids.count, remaining)
        }
        #expect(sections.map { $0["id"] as? String ?? "" } == wanted.map(\.0))
        #expect(
            sections.map { ($0["quakes"] as? [[String: Any]] ?? []).map { $0["id"] as? String ?? "" } }
                == wanted.map(\.1))
        #expect(sections.map { $0["count"] as? Int ?? -1 } == wanted.map(\.1.count))
    }

    @Test func otherKeysGroupByTypeNetworkAlertAndLocalTime() async throws {
        let (_, universe) = try await QueryUniverse.shared.database()
        let alerts = try await query(["count", "--section", "alert", "--format", "json"])
        let alertIDs = try #require(
            try JSONSerialization.jsonObject(with: Data(alerts.standardOutput.utf8)) as? [[String: Any]])
        #expect(alertIDs.map { $0["id"] as? String ?? "" } == ["red", "orange", "yellow", "green", "none"])
        #expect(alertIDs.last?["count"] as? Int == universe.filter { $0.alert == nil }.count)

        let types = try await query(["count", "--section", "type", "--format", "json"])
        let typeIDs = try #require(
            try JSONSerialization.jsonObject(with: Data(types.standardOutput.utf8)) as? [[String: Any]])
        #expect(
            typeIDs.map { $0["id"] as? String ?? "" }
                == Set(universe.compactMap { $0.eventType?.lowercased() }).sorted())

        for key in ["hour", "week", "month", "network"] {
            let counts = try await query(["count", "--section", key, "--format", "json"], tz: "America/New_York")
            let objects = try #require(
                try JSONSerialization.jsonObject(with: Data(counts.standardOutput.utf8)) as? [[String: Any]])
            #expect(objects.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == universe.count, "\(key)")
        }
        let months = try await query(["count", "--section", "month"], tz: "UTC")
        #expect(months.standardOutput.hasPrefix("2023-10  October 2023"))
        let weeks = try await query(["count", "--section", "week", "--format", "csv"], tz: "UTC")
        #expect(weeks.standardOutput.contains("2021-W29,\"Week of July 19, 2021\","))
    }
}

/// `count --last 5h` and the length of the matching listing agree on every fixture.
@Suite struct CountAgreementTests {
    @Test(arguments: Fixtures.geojsonFiles)
    func countEqualsTheNumberOfListedRows(name: String) async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(name)], database: database)
        let quakes = try ReferenceDecoder.decode(try Fixtures.data(name)).quakes
        // "Now" is the newest event of the file, so that the last five hours hold something.
        let newest = quakes.map(\.time).max() ?? 0
        let now = CivilTime.iso8601(newest)
        for window in ["5h", "1d", "30m"] {
            let count = await QuakesRun.run(["count", "--db", database, "--last", window, "--now", now])
            let list = await QuakesRun.run([
                "list", "--db", database, "--last", window, "--now", now, "--format", "ndjson",
            ])
            let lines = list.standardOutput.split(separator: "\n").count
            #expect(count.standardOutput == "\(lines)\n", "\(name) --last \(window)")
        }
    }
}
