import Foundation
import Registry
import Testing

@testable import QuakesCore

/// What a new user found inconsistent: format names, limits of sectioned listings, alert levels,
/// place order, distances, suggestions, colour, `show` of detail events, and the machine output
/// and exit status of commands that fail as a whole.
@Suite struct ConsistencyTests {
    private func universe(_ arguments: [String], variables: [String: String] = ["TZ": "UTC"]) async throws
        -> QuakesRun
    {
        let (path, _) = try await QueryUniverse.shared.database()
        return await QuakesRun.run(arguments + ["--db", path], variables: variables)
    }

    @Test func tableIsAcceptedEverywhereAndTextWhereItWasBefore() async throws {
        let section = ["--section", "magnitude"]
        let table = try await universe(["count"] + section + ["--format", "table"])
        let text = try await universe(["count"] + section + ["--format", "text"])
        let plain = try await universe(["count"] + section)
        #expect(table.status == .success)
        #expect(table.standardOutput == text.standardOutput)
        #expect(table.standardOutput == plain.standardOutput)
        for command in [["list", "--limit", "1"], ["show", "ci39747095"], ["history"], ["status"]] {
            let run = try await universe(command + ["--format", "table"])
            #expect(run.status == .success, "\(command): \(run.standardError)")
        }
        let folder = try TemporaryDirectory()
        let fetch = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.alerts)], database: folder.file("q.sqlite"), ["--format", "table"])
        #expect(fetch.standardError.contains("18 features, 18 new"))
        let fetchText = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.alerts)], database: folder.file("q.sqlite"), ["--format", "text"])
        #expect(fetchText.standardError.contains("18 features, 0 new"))
    }

    @Test func aLimitPerSectionCutsEachSectionAndTheSectionsSayWhatTheyShow() async throws {
        let (_, quakes) = try await QueryUniverse.shared.database()
        let run = try await universe([
            "list", "--sort", "magnitude", "--section", "day", "--limit-per-section", "2", "--format", "json",
        ])
        let sections = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [[String: Any]])
        let byDay = Dictionary(grouping: quakes) { Expected.localDate($0.time, zone: "UTC") }
        #expect(sections.count == byDay.count)
        for section in sections {
            let day = try #require(section["id"] as? String)
            let listed = try #require(section["quakes"] as? [[String: Any]])
            let expected = Expected.sorted(byDay[day]!, by: [("magnitude", false)]).prefix(2).map(\.id)
            #expect(listed.map { $0["id"] as? String } == expected, "\(day)")
            #expect(section["count"] as? Int == expected.count)
        }
        // With --limit too, the whole listing stops at the limit.
        let both = try await universe([
            "list", "--sort", "magnitude", "--section", "day", "--limit-per-section", "2", "--limit", "5",
            "--format", "ndjson",
        ])
        #expect(try ndjsonRows(both.standardOutput).count == 5)
        let table = try await universe(["list", "--section", "day", "--limit-per-section", "1"])
        #expect(table.standardOutput.contains("(1 of "))
    }

    @Test func pendingIsAnAlertLevelInHelpErrorsAndFilters() async throws {
        let help = await QuakesRun.run(["list", "--help"])
        let words = help.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("green, yellow, orange, red or pending"))
        let folder = try TemporaryDirectory()
        let pending =
            #"{"type":"Feature","properties":{"time":1,"alert":"pending"},"geometry":{"type":"Point","coordinates":[0,0]},"id":"p"}"#
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([try folder.write("p.geojson", pending)], database: database)
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        let run = await QuakesRun.run(["count", "--db", database, "--alert", "PENDING"])
        #expect(run.standardOutput == "1\n")
        let sections = await QuakesRun.run(["count", "--db", database, "--section", "alert", "--format", "csv"])
        let ids = sections.standardOutput.components(separatedBy: "\r\n").dropFirst().compactMap {
            $0.split(separator: ",").first
        }
        #expect(ids == ["red", "orange", "yellow", "green", "pending", "none"])
    }

    @Test func placesEqualButForCaseAndAccentsSortTogetherByTime() async throws {
        let folder = try TemporaryDirectory()
        let features = [
            ("a", "Central Mid-Atlantic Ridge", 1_560_000_000_000),
            ("b", "central Mid-Atlantic Ridge", 1_590_000_000_000),
            ("c", "Pāhala", 1_500_000_000_000), ("d", "Pahala", 1_600_000_000_000),
            ("e", "Paradise", 1_550_000_000_000),
            ("f", "Pa\u{0304}hala", 1_400_000_000_000),
        ].map { id, place, time in
            #"{"type":"Feature","properties":{"time":\#(time),"place":"\#(place)"},"geometry":{"type":"Point","coordinates":[0,0]},"id":"\#(id)"}"#
        }
        let path = try folder.write(
            "places.geojson", #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#)
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([path], database: database)
        let run = await QuakesRun.run(["list", "--db", database, "--sort", "place", "--format", "ndjson"])
        // Equal places: newest first, then the lowest id.
        #expect(try ndjsonIDs(run.standardOutput) == ["b", "a", "d", "c", "f", "e"])
        let reversed = await QuakesRun.run(["list", "--db", database, "--sort", "place:desc", "--format", "ndjson"])
        #expect(try ndjsonIDs(reversed.standardOutput) == ["e", "d", "c", "f", "b", "a"])
    }

    @Test func nearGivesEachEventItsDistanceAndCanSortByIt() async throws {
        let (_, quakes) = try await QueryUniverse.shared.database()
        let point = (35.7, -117.6)
        let run = try await universe([
            "list", "--near", "35.7,-117.6", "--sort", "distance", "--limit", "20", "--format", "ndjson",
        ])
        let rows = try ndjsonRows(run.standardOutput)
        let measured: [(quake: Quake, distance: Double)] = quakes.map { quake in
            (quake, Expected.haversine(quake.latitude, quake.longitude, point.0, point.1))
        }
        let expected = Array(
            measured.sorted { left, right in
                if left.distance != right.distance { return left.distance < right.distance }
                if left.quake.time != right.quake.time { return left.quake.time > right.quake.time }
                return left.quake.id < right.quake.id
            }.prefix(20))
        #expect(rows.map { $0["id"] as? String } == expected.map { $0.quake.id })
        for (row, (_, distance)) in zip(rows, expected) {
            let listed = try #require(row["distanceKm"] as? Double)
            #expect(abs(listed - distance) < 0.001)
            #expect(Array(row.keys).contains("depth"))
        }
        // Without --radius nothing is filtered out; with it, the circle keeps its events.
        let all = try await universe(["count", "--near", "35.7,-117.6"])
        #expect(all.standardOutput == "\(quakes.count)\n")
        let csv = try await universe(["list", "--near", "35.7,-117.6", "--limit", "1", "--format", "csv"])
        #expect(csv.standardOutput.hasPrefix("id,mag,") && csv.standardOutput.contains(",depth,distanceKm\r\n"))
        let table = try await universe(["list", "--near", "35.7,-117.6", "--limit", "1"])
        #expect(table.standardOutput.contains("DISTANCE"))
        #expect(table.standardOutput.contains(" km  "))
    }

    @Test(arguments: [
        (["lst"], "Error: Unknown subcommand 'lst'; did you mean 'list'?"),
        (["list", "--sortt", "time"], "Error: Unknown option '--sortt'; did you mean '--sort'?"),
        (["list", "--sort", "mag"], "; did you mean 'magnitude'?"),
        (["count", "--section", "wek"], "; did you mean 'week'?"),
        (["help", "hist"], "Error: Unknown subcommand 'hist'; did you mean 'history'?"),
    ])
    func mistakesSuggestTheClosestWord(arguments: [String], message: String) async throws {
        let run = await QuakesRun.run(arguments)
        #expect(run.status == .usage)
        #expect(run.standardError.contains(message), "\(run.standardError)")
        #expect(Suggestion.closest(to: "xyzzy", among: ["list", "count"]) == nil)
    }

    @Test func colourFollowsTheTerminalNoColorTermDumbAndColor() async throws {
        let (path, _) = try await QueryUniverse.shared.database()
        func run(_ options: [String], _ variables: [String: String]) async -> String {
            let output = CapturedOutput()
            var environment = Environment(
                variables: variables, currentDirectory: "/", standardOutput: output, standardError: CapturedOutput(),
                terminalColumns: 120)
            environment.clock = { QueryUniverse.nowMilliseconds }
            Registry.equip(&environment)
            _ = await Quakes.main(
                ["list", "--db", path, "--limit", "3", "--sort", "magnitude"] + options, in: environment)
            return output.text
        }
        #expect(await run([], ["TERM": "xterm"]).contains("\u{1B}["))
        #expect(!(await run([], ["TERM": "dumb"])).contains("\u{1B}["))
        #expect(!(await run([], ["TERM": "xterm", "NO_COLOR": "1"])).contains("\u{1B}["))
        #expect(!(await run(["--color", "never"], ["TERM": "xterm"])).contains("\u{1B}["))
        #expect(await run(["--color", "always"], ["TERM": "dumb"]).contains("\u{1B}["))
        // Not a terminal: no colour unless asked for.
        let piped = try await universe(["list", "--limit", "3"])
        #expect(!piped.standardOutput.contains("\u{1B}["))
        let forced = try await universe(["list", "--limit", "3", "--color", "always"])
        #expect(forced.standardOutput.contains("\u{1B}["))
    }

    @Test func showSummarisesTheProductsOfADetailEventAndJSONKeepsThemWhole() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.detail)], database: database)
        let table = await QuakesRun.run(["show", "--db", database, "us1000chhc"])
        let line = try #require(table.standardOutput.split(separator: "\n").first { $0.hasPrefix("extra.products") })
        #expect(line.count < 400, "\(line)")
        #expect(line.contains("origin "))
        let json = await QuakesRun.run(["show", "--db", database, "us1000chhc", "--format", "json"])
        #expect(json.standardOutput.count > 20_000)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let products = try #require((object["extra"] as? [String: Any])?["products"] as? [String: [Any]])
        // The summary counts what the JSON holds, type by type.
        for (type, list) in products {
            #expect(line.contains("\(type) \(list.count)"), "\(type)")
        }
    }

    @Test func aFetchInJSONAlwaysWritesOneObjectEvenWhenItFailsBeforeDownloading() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let descriptor = open(database + ".lock", O_RDWR | O_CREAT, 0o644)
        defer { close(descriptor) }
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        for (options, status) in [
            (["--format", "json"], ExitStatus.temporaryFailure), (["--format=json", "--timeout", "x"], .usage),
            (["--format", "json", "ftp://example.org/x"], .usage),
            // The format is read as the parser reads it, past an unknown option, in any case.
            (["--frob", "-q", "--format", "JSON"], .usage),
        ] {
            let run = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database, options)
            #expect(run.status == status, "\(options)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any],
                "\(options): \(run.standardOutput)")
            #expect(object["status"] as? String == "error")
            #expect(object["exitCode"] as? Int == Int(status.code))
            #expect(run.standardOutput.split(separator: "\n").count == 1)
            #expect(run.standardError.hasPrefix("Error: "))
        }
        // '--format' as the value of another option asks for no JSON.
        let run = await QuakesRun.fetch(["json"], database: database, ["--author", "--format"])
        #expect(run.status != .success)
        #expect(run.standardOutput.isEmpty)
    }

    @Test func aWatchOfASourceThatCanNeverWorkEndsAtOnce() async throws {
        let folder = try TemporaryDirectory()
        for (source, status) in [("all_dya", ExitStatus.noInput), ("gopher://example.org/x", .usage), ("-", .usage)] {
            let run = await QuakesRun.run(
                ["watch", source, "--db", folder.file("q.sqlite"), "--interval", "1s"], directory: folder.path)
            #expect(run.status == status, "\(source): \(run.standardError)")
            #expect(run.standardError.hasPrefix("Error: "), "\(source)")
        }
    }
}
