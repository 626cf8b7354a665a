import Foundation
import Testing

@testable import QuakesCore

/// One calendar: date-only and zone-less `--since`, `--until` and `--now`, day, hour, week and month
/// sections, table times and the history table all follow the display zone (`TZ`, or UTC with
/// `--utc`); instants in machine formats stay UTC.
@Suite struct CalendarTests {
    private func query(_ arguments: [String], tz: String) async throws -> QuakesRun {
        let (path, _) = try await QueryUniverse.shared.database()
        return await QuakesRun.run(arguments + ["--db", path], variables: ["TZ": tz])
    }

    /// Foundation's own reading of a local date-time in `zone`, the reference for ours.
    private func instant(_ text: String, zone: String) -> Int64 {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: zone)
        formatter.dateFormat = text.count == 10 ? "yyyy-MM-dd" : "yyyy-MM-dd'T'HH:mm:ss"
        return Int64((formatter.date(from: text)!.timeIntervalSince1970 * 1000).rounded())
    }

    @Test(arguments: ["America/Los_Angeles", "Asia/Tokyo", "UTC", "Europe/Paris"])
    func aDateOnlyRangeIsOneDayOfTheDisplayZone(zone: String) async throws {
        let (_, universe) = try await QueryUniverse.shared.database()
        let run = try await query(
            ["count", "--since", "2021-07-20", "--until", "2021-07-21", "--section", "day", "--format", "json"],
            tz: zone)
        let parsed = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [[String: Any]]
        let sections = try #require(parsed, "\(run.standardError)")
        #expect(sections.map { $0["id"] as? String } == ["2021-07-20"])
        #expect(sections.map { $0["zone"] as? String } == [zone])
        let start = instant("2021-07-20", zone: zone)
        let end = instant("2021-07-21", zone: zone)
        #expect(sections.first?["count"] as? Int == universe.filter { $0.time >= start && $0.time < end }.count)
        // With --utc, the same words mean a day of UTC, whatever TZ says.
        let utc = try await query(["count", "--since", "2021-07-20", "--until", "2021-07-21", "--utc"], tz: zone)
        #expect(
            utc.standardOutput
                == "\(universe.filter { $0.time >= 1_626_739_200_000 && $0.time < 1_626_825_600_000 }.count)\n")
    }

    @Test func aDateTimeWithoutAZoneIsOfTheDisplayZone() async throws {
        let (_, universe) = try await QueryUniverse.shared.database()
        for zone in ["America/Los_Angeles", "Asia/Kolkata"] {
            let run = try await query(["count", "--since", "2021-07-21T18:30:00"], tz: zone)
            let start = instant("2021-07-21T18:30:00", zone: zone)
            #expect(run.standardOutput == "\(universe.filter { $0.time >= start }.count)\n", "\(zone)")
        }
        // A zone or a Z still says which instant it is.
        let explicit = try await query(["count", "--since", "2021-07-21T18:30:00Z"], tz: "Asia/Tokyo")
        #expect(explicit.standardOutput == "\(universe.filter { $0.time >= 1_626_892_200_000 }.count)\n")
    }

    @Test func localTimesAroundDaylightSavingChangesAreReadAsTheClocksShowThem() {
        let zone = DisplayZone(tz: "America/Los_Angeles")
        func local(_ text: String) -> Int64 {
            guard case let .localTime(milliseconds) = TimeExpression.dateTime(text) else { return 0 }
            return zone.instant(ofLocal: milliseconds)
        }
        // An ordinary time.
        #expect(local("2021-07-20T12:00") == 1_626_807_600_000)
        // 01:30 on 2021-11-07 happens twice: the first, in daylight time (UTC−7).
        #expect(local("2021-11-07T01:30") == 1_636_273_800_000)
        // 02:30 on 2021-03-14 never happens: read with the offset before the change, 03:30 PDT.
        #expect(local("2021-03-14T02:30") == 1_615_717_800_000)
        // A day that starts at midnight, and the start of the month of a change.
        #expect(
            TimeExpression.Moment.localDate(year: 2021, month: 3, day: 14).resolve(now: 0, zone: zone)
                == 1_615_708_800_000)
    }

    @Test func tablesAndTheHistoryShowTheDisplayZoneAndSayWhichItIs() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.run(["fetch", "--db", database, Fixtures.path(Fixtures.alerts)], now: 1_697_055_360_000)
        for (zone, heading, time) in [
            ("Asia/Tokyo", "TIME (Asia/Tokyo)", "2023-10-12 05:16:00"), ("UTC", "TIME (UTC)", "2023-10-11 20:16:00"),
        ] {
            let history = await QuakesRun.run(["history", "--db", database], variables: ["TZ": zone])
            #expect(history.standardOutput.hasPrefix("TOKEN  \(heading)"), "\(history.standardOutput)")
            #expect(history.standardOutput.contains("    1  \(time)"), "\(history.standardOutput)")
        }
        let utc = await QuakesRun.run(["history", "--db", database, "--utc"], variables: ["TZ": "Asia/Tokyo"])
        #expect(utc.standardOutput.hasPrefix("TOKEN  TIME (UTC)"))
        let json = await QuakesRun.run(
            ["history", "--db", database, "--format", "json"], variables: ["TZ": "Asia/Tokyo"])
        #expect(json.standardOutput.contains(#""timestamp":"2023-10-11T20:16:00.000Z""#))
        let list = await QuakesRun.run(
            ["list", "--db", database, "--limit", "1", "--sort", "magnitude"], variables: ["TZ": "Asia/Tokyo"])
        #expect(list.standardOutput.hasPrefix("TIME (Asia/Tokyo)"))
    }

    /// UTC by any name is named `UTC`: a zone of the database, a rule, a path or a copy of the file,
    /// in every heading and title and in the `zone` of machine formats; a zone whose offset is
    /// zero today but was not always (Abidjan's local mean time) keeps its own name.
    @Test func utcByAnyNameIsNamedUTC() async throws {
        let folder = try TemporaryDirectory()
        let copy = try folder.write(
            "utc-copy", try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Etc/UTC")))
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.run(["fetch", "--db", database, Fixtures.path(Fixtures.alerts)], now: 1_697_055_360_000)
        let names = [
            "Etc/UTC", "UTC", "Etc/UCT", "Zulu", ":UTC", "UTC0", "/usr/share/zoneinfo/Etc/UTC", copy, "Etc/GMT",
        ]
        for (tz, name) in names.map({ ($0, "UTC") }) + [
            ("Africa/Abidjan", "Africa/Abidjan"), ("Europe/London", "Europe/London"),
        ] {
            func run(_ arguments: [String]) async -> String {
                await QuakesRun.run(arguments + ["--db", database], variables: ["TZ": tz]).standardOutput
            }
            #expect(await run(["list", "--limit", "1"]).hasPrefix("TIME (\(name))  "), "\(tz)")
            #expect(await run(["history"]).hasPrefix("TOKEN  TIME (\(name)) "), "\(tz)")
            #expect(await run(["status"]).contains("time range     2023-"), "\(tz)")
            #expect(await run(["status"]).contains(" \(name) to "), "\(tz)")
            let sections = await run(["count", "--section", "day", "--format", "json"])
            let parsed = try JSONSerialization.jsonObject(with: Data(sections.utf8)) as? [[String: Any]]
            #expect(parsed?.isEmpty == false && parsed?.allSatisfy { $0["zone"] as? String == name } == true, "\(tz)")
            let csv = await run(["list", "--section", "day", "--format", "csv", "--limit", "1"])
            #expect(csv.hasSuffix(",\(name)\r\n"), "\(tz)")
            #expect(await run(["chart", "--format", "json"]).contains(#""zone":"\#(name)""#), "\(tz)")
        }
    }

    @Test func sectionedMachineFormatsNameTheirZone() async throws {
        let ndjson = try await query(
            ["list", "--section", "day", "--format", "ndjson", "--limit", "2", "--now", QueryUniverse.now],
            tz: "Asia/Tokyo")
        for row in try ndjsonRows(ndjson.standardOutput) {
            #expect(row["zone"] as? String == "Asia/Tokyo")
            #expect((row["time"] as? String)?.hasSuffix("Z") == true)
        }
        let csv = try await query(["list", "--section", "day", "--format", "csv", "--limit", "1"], tz: "Asia/Tokyo")
        let lines = csv.standardOutput.components(separatedBy: "\r\n")
        #expect(lines[0].hasPrefix("section,id,") && lines[0].hasSuffix(",depth,zone"))
        #expect(lines[1].hasSuffix(",Asia/Tokyo"))
        let unsectioned = try await query(["list", "--format", "ndjson", "--limit", "1"], tz: "Asia/Tokyo")
        #expect(try ndjsonRows(unsectioned.standardOutput).first?["zone"] == nil)
    }

    @Test func pruneReadsItsNowInTheDisplayZoneToo() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        let tokyo = await QuakesRun.run(
            ["prune", "--db", database, "--older-than", "1d", "--now", "2023-10-11", "--dry-run"],
            variables: ["TZ": "Asia/Tokyo"])
        #expect(tokyo.standardOutput.hasSuffix("older than 2023-10-09T15:00:00.000Z\n"), "\(tokyo.standardOutput)")
        let utc = await QuakesRun.run(
            ["prune", "--db", database, "--older-than", "1d", "--now", "2023-10-11", "--dry-run", "--utc"],
            variables: ["TZ": "Asia/Tokyo"])
        #expect(utc.standardOutput.hasSuffix("older than 2023-10-10T00:00:00.000Z\n"), "\(utc.standardOutput)")
    }
}
