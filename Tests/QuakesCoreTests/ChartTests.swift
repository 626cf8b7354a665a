import Foundation
import Testing

@testable import QuakesCore
@testable import QuakesPictures

/// `quakes chart` in a terminal: whole screens at fixed widths, counts that agree with `count`,
/// gaps drawn empty, and the magnitude–frequency distribution with its b-value.
@Suite struct ChartTests {
    static func chart(_ database: String, _ arguments: [String], columns: Int = 50, lines: Int? = nil) async
        -> QuakesRun
    {
        var variables = ["COLUMNS": String(columns)]
        variables["LINES"] = lines.map(String.init)
        return await QuakesRun.run(["chart", "--db", database, "--utc"] + arguments, variables: variables)
    }

    @Test(arguments: TestEngine.allCases) func aChartIsItsBucketsAsBarsFittedToTheWidth(engine: TestEngine) async throws
    {
        let store = try engine.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveLater)], database: store.location)
        let run = await Self.chart(store.location, ["--min-magnitude", "5", "--ascii"])
        #expect(run.status == .success, "\(run.standardError)")
        #expect(
            run.standardOutput == """
                31 events by day (UTC)  --min-magnitude 5
                2021-07-16 │##############################       5
                2021-07-17 │##############################       5
                2021-07-18 │#################################### 6
                2021-07-19 │##############################       5
                2021-07-20 │############                         2
                2021-07-21 │##############################       5
                2021-07-22 │##################                   3
                           └------------------------------------
                            0 to 6

                """)
        // Block characters: whole cells, then the eighth nearest the rest; every line fits.
        let blocks = await Self.chart(store.location, ["--by", "magnitude"], columns: 40)
        #expect(blocks.standardOutput.hasPrefix("78 events by magnitude (UTC)\n4 │"), "\(blocks.standardOutput)")
        for line in blocks.standardOutput.split(separator: "\n") {
            #expect(TerminalText.width(String(line)) <= 40, "\(line)")
        }
        // The counts are `count`'s.
        let counts = await QuakesRun.run([
            "count", "--db", store.location, "--utc", "--section", "magnitude", "--format", "json",
        ])
        let sections = try #require(
            try JSONSerialization.jsonObject(with: Data(counts.standardOutput.utf8)) as? [[String: Any]])
        let json = await Self.chart(store.location, ["--by", "magnitude", "--format", "json"])
        let chart = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let buckets = try #require(chart["buckets"] as? [[String: Any]])
        #expect(
            Dictionary(uniqueKeysWithValues: buckets.map { ($0["label"] as! String, $0["count"] as! Int) })
                == Dictionary(uniqueKeysWithValues: sections.map { ($0["id"] as! String, $0["count"] as! Int) }))
    }

    @Test func aGapInTimeIsDrawnAsEmptyBucketsAndTooManyBucketsAskToNarrow() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.fourFiveLater), Fixtures.path(Fixtures.alerts)], database: database)
        let run = await Self.chart(database, ["--by", "month", "--min-magnitude", "6"], lines: 40)
        #expect(run.status == .success)
        let lines = run.standardOutput.split(separator: "\n").filter { $0.contains("│") }
        // July 2021 to October 2023: 28 months, most of them empty.
        #expect(lines.count == 28)
        #expect(lines.first?.hasPrefix("2021-07 │") == true && lines.last?.hasPrefix("2023-10 │") == true)
        #expect(lines.filter { $0.hasSuffix(" 0") }.count >= 20, "\(run.standardOutput)")

        let tooMany = await Self.chart(database, ["--by", "hour"])
        #expect(tooMany.status == .usage)
        #expect(tooMany.standardError.contains("buckets (at most 1000): narrow the query"), "\(tooMany.standardError)")

        let empty = await Self.chart(database, ["--min-magnitude", "9"])
        #expect(empty.status == .success)
        #expect(empty.standardOutput == "0 events by day (UTC)  --min-magnitude 9\nNo quakes match.\n")
        let emptyPicture = await Self.chart(database, ["--min-magnitude", "9", "--output", folder.file("empty.svg")])
        #expect(emptyPicture.status == .success, "\(emptyPicture.standardError)")
        #expect(try String(contentsOfFile: folder.file("empty.svg"), encoding: .utf8).contains(">No quakes match.<"))
    }

    /// Buckets that do not fit in the height (24 lines when not a terminal, else `LINES`) are drawn
    /// as columns, each an empty one where nothing happened.
    @Test func moreBucketsThanLinesAreDrawnAsColumns() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let fetch = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.fourFiveLater), Fixtures.path(Fixtures.alerts)], database: database)
        #expect(fetch.status == .success, "\(fetch.standardError)")
        let run = await Self.chart(database, ["--by", "month", "--min-magnitude", "6", "--ascii"], lines: 12)
        #expect(run.status == .success)
        #expect(
            run.standardOutput == """
                11 events by month (UTC)  --min-magnitude 6
                6 │                           #
                  │                           #
                  │                           #
                  │#                          #
                  │#                          #
                  │#                         ##
                0 │#                         ##
                  └----------------------------
                   2021-07              2023-10
                   one column per bucket, 0 to 6

                """)
        let screen = await Self.chart(database, ["--by", "month", "--min-magnitude", "6"])
        // The whole of a 24-line screen but the line the prompt comes back on.
        #expect(screen.standardOutput.split(separator: "\n").count == 23, "\(screen.standardOutput)")
    }

    /// In a terminal a chart never takes more lines than `LINES` nor more columns than `COLUMNS`:
    /// buckets that fit neither as bars nor as columns are counted again in wider ones, which the
    /// title names. The two weekly feeds' 223 hours at sizes from 20×8 to 200×60.
    @Test func aChartFitsItsTerminalAtEverySize() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.weekBefore), Fixtures.path(Fixtures.weekAfter)], database: database)
        let queries = [
            ["--by", "hour"], ["--by", "hour", "--since", "2021-07-21"], ["--by", "day"], ["--by", "week"],
            ["--by", "magnitude"], ["--by", "depth"], ["--by", "magnitude", "--cumulative"],
        ]
        for (columns, lines) in [(200, 60), (100, 40), (80, 24), (60, 16), (40, 12), (30, 10), (24, 9), (20, 8)] {
            for query in queries {
                for colour in ["never", "always"] {
                    let run = await QuakesRun.run(
                        ["chart", "--db", database, "--utc", "--color", colour] + query,
                        variables: ["COLUMNS": String(columns), "LINES": String(lines)])
                    #expect(run.status == .success, "\(run.standardError)")
                    let printed = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
                    #expect(printed.count <= lines, "\(columns)x\(lines) \(query): \(printed.count) lines")
                    for line in printed {
                        let visible = String(line).replacing(/\u{1B}\[[0-9;]*m/, with: "")
                        #expect(TerminalText.width(visible) <= columns, "\(columns)x\(lines) \(query): \(line)")
                    }
                }
            }
        }
        func title(_ columns: Int, _ lines: Int, _ query: [String]) async -> String {
            let run = await QuakesRun.run(
                ["chart", "--db", database, "--utc"] + query,
                variables: ["COLUMNS": String(columns), "LINES": String(lines)])
            return String(run.standardOutput.prefix { $0 != "\n" })
        }
        // The issue's terminal: 223 hours are 75 columns of 3 hours; then 6 and 12 hours, and days.
        #expect(await title(100, 40, ["--by", "hour"]) == "4,438 events by 3 hours (UTC)")
        #expect(await title(60, 16, ["--by", "hour"]) == "4,438 events by 6 hours (UTC)")
        #expect(await title(40, 12, ["--by", "hour"]) == "4,438 events by 12 hours (UTC)")
        #expect(await title(20, 8, ["--by", "hour"]) == "4,438 events by day…")
        #expect(
            await title(40, 12, ["--by", "magnitude", "--cumulative"])
                == "4,438 events N(≥M) by 0.5 magnitude uni…")
        // What fits is drawn as asked.
        #expect(
            await title(80, 24, ["--by", "hour", "--since", "2021-07-21"])
                == "776 events by hour (UTC)  --since 2021-07-21")
        #expect(await title(30, 10, ["--by", "depth"]) == "4,438 events by depth (UTC)")
    }

    /// Wider buckets count the same events, in the display zone's calendar: 6 hours from its
    /// midnight in Kolkata (UTC+5:30), checked against the events' own times; JSON keeps the hours.
    @Test func widerBucketsCountTheSameEventsInTheZonesCalendar() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.weekBefore), Fixtures.path(Fixtures.weekAfter)], database: database)
        let zone = ["TZ": "Asia/Kolkata", "COLUMNS": "40", "LINES": "50"]
        let run = await QuakesRun.run(["chart", "--db", database, "--by", "hour"], variables: zone)
        #expect(run.standardOutput.hasPrefix("4,438 events by 6 hours (Asia/Kolkata)\n"), "\(run.standardOutput)")
        var drawn: [String: Int] = [:]
        for line in run.standardOutput.split(separator: "\n") where line.contains(" │") {
            let words = line.split(separator: " ")
            drawn[String(words[0])] = Int(words[words.count - 1])
        }
        // Each event's time, moved to Kolkata's clocks and down to a multiple of 6 hours.
        let listed = await QuakesRun.run(["list", "--db", database, "--format", "ndjson"])
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let printer = DateFormatter()
        printer.timeZone = TimeZone(identifier: "UTC")
        printer.dateFormat = "yyyy-MM-dd'T'HH"
        var expected: [String: Int] = [:]
        for line in listed.standardOutput.split(separator: "\n") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let text = try #require(event["time"] as? String)
            let time = try #require(parser.date(from: text))
            let local = time.timeIntervalSince1970 + 5.5 * 3600
            expected[
                printer.string(from: Date(timeIntervalSince1970: (local / 21600).rounded(.down) * 21600)), default: 0] +=
                1
        }
        #expect(drawn.filter { $0.value > 0 } == expected)
        #expect(drawn.values.reduce(0, +) == 4438)
        // The buckets run from the first to the last, the empty ones included.
        #expect(drawn.count == 38 && drawn.keys.min() == "2021-07-13T18" && drawn.keys.max() == "2021-07-23T00")
        let json = await QuakesRun.run(
            ["chart", "--db", database, "--by", "hour", "--format", "json"], variables: zone)
        let chart = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let hours = try #require(chart["buckets"] as? [[String: Any]])
        #expect(hours.count == 224 && hours.compactMap { $0["count"] as? Int }.reduce(0, +) == 4438)
    }

    /// Wider bins of sections: hours from the zone's midnight, years from January, magnitude bands
    /// from a multiple of their width, each labelled by where it starts; the counts add up.
    @Test func binsGroupSectionsAndSayWhatTheyAre() throws {
        let hours: [Int64: Int] = [-5: 1, -1: 2, 0: 3, 7: 4]
        let sixHours = Histogram.Bins(key: .hour, every: 6)
        #expect(sixHours.name == "6 hours")
        #expect(
            sixHours.buckets(hours) == [
                .init(label: "1969-12-31T18", count: 3), .init(label: "1970-01-01T00", count: 3),
                .init(label: "1970-01-01T06", count: 4),
            ])
        let years = Histogram.Bins(key: .month, every: 12)
        #expect(years.name == "year" && Histogram.Bins(key: .month, every: 60).name == "5 years")
        #expect(years.buckets([2021 * 12 + 6: 5, 2023 * 12 + 9: 1]).map(\.label) == ["2021", "2022", "2023"])
        let bands = Histogram.Bins(key: .magnitude, every: 2)
        #expect(bands.name == "2 magnitude units")
        #expect(
            bands.buckets([-1: 10, 0: 20, 1: 30, 4: 1])
                == [
                    .init(label: "-2–0", count: 10), .init(label: "0–2", count: 50), .init(label: "2–4", count: 0),
                    .init(label: "4–6", count: 1),
                ])
        #expect(
            Histogram.Bins(key: .hour).wider.map(\.name).prefix(9) == [
                "2 hours", "3 hours", "6 hours", "12 hours", "day", "2 days", "week", "month", "3 months",
            ])
        #expect(Histogram.Bins(key: .week).wider.first?.name == "month")
        // N(≥M) every 0.5 of magnitudes binned to 0.1: the values of the fine bins on the grid.
        let magnitudes = [2.1, 2.5, 2.5, 3.0, 3.4, 4.2]
        let fine = try Histogram.cumulative(magnitudes, width: 0.1)
        let coarse = try Histogram.cumulative(magnitudes, width: 0.1, every: 5)
        #expect(coarse.map(\.label) == ["2.0", "2.5", "3.0", "3.5", "4.0"])
        #expect(coarse.map(\.count) == [6, 5, 3, 1, 1])
        #expect(coarse.dropFirst().allSatisfy { bucket in fine.contains(bucket) })
        #expect(Histogram.cumulativeUnit(width: 0.1, every: 5) == "0.5 magnitude units")
        #expect(Histogram.cumulativeUnit(width: 0.1, every: 10) == "1 magnitude unit")
    }

    /// Days are the display zone's: the same events fall on other days in Tokyo than in UTC; a
    /// chart of one bucket is one bar; a title wider than the terminal is cut, not wrapped.
    @Test(arguments: TestEngine.allCases) func bucketsAreTheZonesAndOneBucketIsOneBar(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveLater)], database: store.location)
        func chart(_ zone: String, _ arguments: [String]) async -> String {
            await QuakesRun.run(
                ["chart", "--db", store.location, "--ascii"] + arguments, variables: ["COLUMNS": "44", "TZ": zone]
            ).standardOutput
        }
        #expect(
            await chart("Asia/Tokyo", ["--min-magnitude", "5.5"]) == """
                9 events by day (Asia/Tokyo)  --min-magnitu…
                2021-07-16 │###############                1
                2021-07-17 │############################## 2
                2021-07-18 │###############                1
                2021-07-19 │                               0
                2021-07-20 │############################## 2
                2021-07-21 │###############                1
                2021-07-22 │############################## 2
                           └------------------------------
                            0 to 2

                """)
        #expect(
            await chart("UTC", ["--min-magnitude", "5.5"]) == """
                9 events by day (UTC)  --min-magnitude 5.5
                2021-07-16 │##########                     1
                2021-07-17 │############################## 3
                2021-07-18 │                               0
                2021-07-19 │####################           2
                2021-07-20 │                               0
                2021-07-21 │####################           2
                2021-07-22 │##########                     1
                           └------------------------------
                            0 to 3

                """)
        #expect(
            await chart("America/Los_Angeles", ["--by", "month"]) == """
                78 events by month (America/Los_Angeles)
                2021-07 │################################ 78
                        └--------------------------------
                         0 to 78

                """)
    }

    /// The chart as a picture: an SVG with a column per non-empty bucket, and a PNG of the size
    /// asked for with the columns' colour where the tallest stands.
    @Test func aChartPictureHasAColumnPerBucket() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveLater)], database: database)
        for format in ["svg", "png"] {
            let run = await Self.chart(
                database, ["--min-magnitude", "5", "--size", "500x300", "--output", folder.file("chart.\(format)")])
            #expect(run.status == .success, "\(run.standardError)")
        }
        let svg = try String(contentsOfFile: folder.file("chart.svg"), encoding: .utf8)
        #expect(svg.components(separatedBy: ##"fill="#2b8cbe""##).count - 1 == 7)
        #expect(svg.contains("31 events by day (Etc/UTC)") || svg.contains("31 events by day (UTC)"))
        let png = try CairoImage(contentsOfFile: folder.file("chart.png"))
        #expect(png.width == 500 && png.height == 300)
        // The third of seven columns (2021-07-18, 6 events) reaches the top of the plot.
        let plotWidth = 500.0 - 90
        let x = 70 + plotWidth / 7 * 2.5
        #expect(png.pixel(at: Drawing.Point(x: x, y: 70)).isClose(to: Colour(hex: 0x2B8CBE), tolerance: 4))
        #expect(png.pixel(at: Drawing.Point(x: 70 + plotWidth / 7 * 4.5, y: 70)).isClose(to: .white, tolerance: 4))
        let json = await Self.chart(database, ["--format", "json", "--output", folder.file("x.svg")])
        #expect(json.status == .usage)
    }

    /// The chart the README shows is what `make demo` draws (its DEMO_CHART, on the demo's two
    /// feeds, at 80×24), so `make pictures` is the only way it changes.
    @Test func theREADMEShowsTheChartThatMakeDemoDraws() async throws {
        let makefile = try String(contentsOfFile: Fixtures.repository + "/Makefile", encoding: .utf8)
        let line = try #require(makefile.split(separator: "\n").first { $0.hasPrefix("DEMO_CHART = ") })
        let arguments = line.dropFirst("DEMO_CHART = ".count).split(separator: " ").map(String.init)
        let readme = try String(contentsOfFile: Fixtures.repository + "/README.md", encoding: .utf8)
        let start = try #require(readme.range(of: "<!-- chart: make pictures -->\n```\n"))
        let end = try #require(
            readme.range(of: "```\n<!-- end of chart -->", range: start.upperBound..<readme.endIndex))
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.weekBefore), Fixtures.path(Fixtures.weekAfter)], database: database)
        let run = await QuakesRun.run(
            ["chart", "--db", database] + arguments, variables: ["COLUMNS": "80", "LINES": "24"])
        #expect(run.status == .success, "\(run.standardError)")
        #expect(run.standardOutput == String(readme[start.upperBound..<end.lowerBound]))
    }

    @Test func theCumulativeDistributionComesWithItsBValue() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: database)
        let run = await Self.chart(database, ["--by", "magnitude", "--cumulative"], columns: 60)
        #expect(run.status == .success, "\(run.standardError)")
        let last = try #require(run.standardOutput.split(separator: "\n").last)
        #expect(last.hasPrefix("b-value ") && last.contains("by maximum curvature"), "\(last)")
        let json = await Self.chart(database, ["--by", "magnitude", "--cumulative", "--mc", "2.5", "--format", "json"])
        let chart = try #require(
            try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(chart["mcMethod"] as? String == "given")
        #expect(chart["mc"] as? Double == 2.5)
        // This catalogue mixes magnitudes to tenths and to hundredths: binned to 0.01, Mc 2.5 counts M ≥ 2.5.
        let events = await QuakesRun.run(["count", "--db", database, "--min-magnitude", "2.5"])
        #expect(chart["mcEvents"] as? Int == Int(events.standardOutput.dropLast()))
        #expect((chart["bValue"] as? Double).map { $0 > 0.3 && $0 < 2 } == true, "\(chart)")

        let wrong = await Self.chart(database, ["--cumulative"])
        #expect(wrong.status == .usage)
        #expect(wrong.standardError.contains("'--cumulative' needs '--by magnitude'"))
    }
}
