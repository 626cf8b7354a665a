import Foundation
import Registry
import SQLite
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

@Suite struct OutputFormatTests {
    /// A database of the 2023 significant feed: 18 events, every alert level, non-ASCII places.
    private func significant() async throws -> (TemporaryDirectory, String) {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        return (folder, database)
    }

    @Test func aQuakeObjectHasTheUSGSFieldsInOrderWithISOTimes() async throws {
        let (folder, database) = try await significant()
        _ = folder
        let run = await QuakesRun.run([
            "list", "--db", database, "--format", "json", "--limit", "1", "--sort", "magnitude",
        ])
        #expect(
            run.standardOutput == """
                [
                {"id":"us6000ldqf","mag":6.9,"place":"55 km SE of Madang, Papua New Guinea","time":"2023-10-07T08:40:13.628Z",\
                "updated":"2023-10-09T00:04:59.002Z","tz":null,"url":"https://earthquake.usgs.gov/earthquakes/eventpage/us6000ldqf",\
                "detail":"https://earthquake.usgs.gov/earthquakes/feed/v1.0/detail/us6000ldqf.geojson","felt":null,"cdi":null,\
                "mmi":6.962,"alert":"green","status":"reviewed","tsunami":0,"sig":732,"net":"us","code":"6000ldqf",\
                "ids":",us6000ldqf,","sources":",us,","types":",ground-failure,losspager,moment-tensor,origin,phase-data,shakemap,",\
                "nst":133,"dmin":6.086,"rms":0.88,"gap":17,"magType":"mww","type":"earthquake",\
                "title":"M 6.9 - 55 km SE of Madang, Papua New Guinea","longitude":146.1982,"latitude":-5.5066,"depth":76.011}
                ]

                """)
        let fields = try #require(
            try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [[String: Any]])
        #expect(fields.first?.count == QuakeFormats.fieldNames.count)
    }

    /// JSON listings write SQLite's columns as they are (`SQLiteRowBatch`) rather than through a
    /// `Quake`: every line must still be the object the `Quake` of that row writes, byte for byte,
    /// for escapes, non-ASCII text, and bytes another writer left invalid (repaired as a `String`
    /// repairs them), with `--near`'s distance too.
    @Test func rowsAreWrittenAsTheirQuakesWouldBe() async throws {
        let (folder, database) = try await significant()
        _ = folder
        let writer = try Connection(path: database, mode: .readWrite)
        try writer.execute(
            """
            UPDATE quake SET place = 'a "quoted" \\ place' || char(10) || char(1) WHERE id = 'us6000ldqf';
            UPDATE quake SET place = CAST(X'53E36F2050C3A16F6C6FFF' AS TEXT), net = '' WHERE id = 'us7000kwg2';
            UPDATE quake SET title = CAST(X'E282AC20C0AF' AS TEXT) WHERE id = 'nc73943821';
            """)
        let reader = try Connection(path: database, mode: .readOnly)
        let rows = try reader.prepare("SELECT \(QuakeColumns.list) FROM quake")
        var expected: [String: String] = [:]
        let origin = GeoPoint(latitude: 35, longitude: 139)
        while try rows.step() {
            let quake = QuakeColumns.quake(from: rows)
            var json = JSONBuffer()
            QuakeFormats.writeJSONObject(
                quake, distance: QuakeFormats.roundedDistance(origin.distance(to: quake)), to: &json)
            expected[quake.id] = String(decoding: json.bytes, as: UTF8.self)
        }
        #expect(expected.count == 18)
        // Through the binary, whose output is bytes: a String would repair raw invalid UTF-8 itself.
        for format in ["ndjson", "json"] {
            let run = try await ChildProcess.run(
                BinaryTests.executable, ["list", "--db", database, "--format", format, "--near", "35,139"])
            #expect(run.status == 0, "\(run.errors)")
            let lines = run.outputData.split(separator: UInt8(ascii: "\n")).map { line in
                Array(line.drop { $0 == UInt8(ascii: ",") }.reversed().drop { $0 == UInt8(ascii: ",") }.reversed())
            }.filter { $0.first == UInt8(ascii: "{") }
            #expect(lines.count == 18)
            for line in lines {
                let text = String(decoding: line, as: UTF8.self)
                let id = try #require(text.split(separator: "\"").dropFirst(3).first.map(String.init))
                let same = line == expected[id].map { Array($0.utf8) }
                #expect(same, "\(format) \(id): \(text)")
            }
        }
        #expect(expected["us7000kwg2"]?.contains("\u{FFFD}") == true)
        #expect(expected["us6000ldqf"]?.contains(#"a \"quoted\" \\ place\n\u0001"#) == true)
    }

    @Test func everyFormatIsValidAndHasOneEntryPerEvent() async throws {
        let (folder, database) = try await significant()
        let json = await QuakesRun.run(["list", "--db", database, "--format", "json"])
        #expect((try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [Any])?.count == 18)
        let sectioned = await QuakesRun.run(["list", "--db", database, "--format", "json", "--section", "magnitude"])
        let sections = try #require(
            try JSONSerialization.jsonObject(with: Data(sectioned.standardOutput.utf8)) as? [[String: Any]])
        #expect(
            sections.map { Set($0.keys) }
                == Array(repeating: ["id", "title", "count", "zone", "quakes"], count: sections.count))
        #expect(sections.reduce(0) { $0 + ($1["count"] as! Int) } == 18)
        let geojson = await QuakesRun.run(["list", "--db", database, "--format", "geojson"])
        let collection = try #require(
            try JSONSerialization.jsonObject(with: Data(geojson.standardOutput.utf8)) as? [String: Any])
        #expect((collection["features"] as? [Any])?.count == 18)
        let ndjson = await QuakesRun.run(["list", "--db", database, "--format", "ndjson"])
        #expect(try ndjsonRows(ndjson.standardOutput).count == 18)
        let empty = await QuakesRun.run(["list", "--db", database, "--format", "json", "--min-magnitude", "9"])
        #expect(empty.standardOutput == "[]\n")
        let emptyCollection = await QuakesRun.run([
            "list", "--db", database, "--format", "geojson", "--min-magnitude", "9",
        ])
        #expect(try JSONSerialization.jsonObject(with: Data(emptyCollection.standardOutput.utf8)) is [String: Any])
        _ = folder
    }

    @Test func csvQuotesWhatItMustAndLeavesNullsEmpty() async throws {
        let (folder, database) = try await significant()
        _ = folder
        let run = await QuakesRun.run([
            "list", "--db", database, "--format", "csv", "--section", "alert", "--alert", "red", "--utc",
        ])
        #expect(
            run.standardOutput == """
                section,id,mag,place,time,updated,tz,url,detail,felt,cdi,mmi,alert,status,tsunami,sig,net,code,ids,sources,types,\
                nst,dmin,rms,gap,magType,type,title,longitude,latitude,depth,zone\r
                red,us6000len8,6.3,western Afghanistan,2023-10-11T00:41:56.160Z,2023-10-11T19:57:32.893Z,,\
                https://earthquake.usgs.gov/earthquakes/eventpage/us6000len8,\
                https://earthquake.usgs.gov/earthquakes/feed/v1.0/detail/us6000len8.geojson,49,6,7.857,red,reviewed,0,2029,us,\
                6000len8,",us6000len8,",",us,",",dyfi,general-text,ground-failure,losspager,moment-tensor,origin,phase-data,\
                shakemap,",412,5.775,0.72,21,mww,earthquake,M 6.3 - western Afghanistan,62.0449,34.5565,9,UTC\r

                """)
        #expect(QuakeFormats.csvQuoted(#"say "hi", then"#) == #""say ""hi"", then""#)
        #expect(QuakeFormats.csvQuoted("two\nlines") == "\"two\nlines\"")
        #expect(QuakeFormats.csvQuoted("CR LF\r\nend") == "\"CR LF\r\nend\"")
        #expect(QuakeFormats.csvQuoted("Ōfunato, Japan") == "\"Ōfunato, Japan\"")
        #expect(QuakeFormats.csvQuoted("plain") == "plain")
        // A comma or quote that a combining mark follows is one Character, but CSV readers act on
        // its byte: quoted, and the quote doubled.
        #expect(QuakeFormats.csvQuoted(",\u{301}") == "\",\u{301}\"")
        #expect(QuakeFormats.csvQuoted("a\"\u{301}b") == "\"a\"\"\u{301}b\"")
    }

    @Test(arguments: TestEngine.allCases) func geoJSONReadsBackToIdenticalRows(engine: TestEngine) async throws {
        let original = try engine.newDatabase()
        let files = [
            Fixtures.weekBefore, Fixtures.weekAfter, Fixtures.detail, Fixtures.nullMagnitude, Fixtures.nullPlaces,
        ]
        _ = await QuakesRun.fetch(files.map(Fixtures.path), database: original.location)
        // A mistyped known property and an unknown one, kept in `extra`, must come back too.
        let odd =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"time":5,"mag":"4.5","zz":[1,{"a":null}],"sig":2.5},"geometry":{"type":"Point","coordinates":[1,2]},"id":"odd"}]}"#
        _ = await QuakesRun.fetch([try original.write("odd.geojson", odd)], database: original.location)

        let export = await QuakesRun.run(["list", "--db", original.location, "--format", "geojson"])
        #expect(export.status == .success)
        let path = try original.write("export.geojson", export.standardOutput)
        let copy = try engine.newDatabase()
        let reimport = await QuakesRun.fetch([path], database: copy.location)
        #expect(reimport.status == .success, "\(reimport.standardError)")
        #expect(reimport.standardError.contains(" 0 skipped"))

        let before = try await original.read { try $0.allQuakes() }
        let after = try await copy.read { try $0.allQuakes() }
        #expect(before.count == after.count)
        #expect(before == after)
        let oddRow = try #require(after.first { $0.id == "odd" })
        #expect(oddRow.extra == #"{"mag":"4.5","sig":2.5,"zz":[1,{"a":null}]}"#)
        #expect(
            try DatabaseContent(path: original.location, tables: ["quake"])
                == DatabaseContent(path: copy.location, tables: ["quake"]))
    }

    @Test func theTableAlignsColumnsUnderSectionHeadersInTheDisplayZone() async throws {
        let (folder, database) = try await significant()
        _ = folder
        let run = await QuakesRun.run(
            ["list", "--db", database, "--section", "day", "--sort", "magnitude", "--limit", "4"],
            variables: ["TZ": "Asia/Kabul"])
        #expect(
            run.standardOutput == """
                TIME (Asia/Kabul)    MAG             DEPTH  PLACE                                 ID

                October 11, 2023 (1 quake)
                2023-10-11 05:11:56   6.3 mww       9.0 km  western Afghanistan                   us6000len8

                October 9, 2023 (2 quakes)
                2023-10-09 22:53:09   5.0 mww      8.27 km  Poland-Slovakia border region         us6000lec2
                2023-10-09 06:51:08  4.32 ml      57.17 km  Port Townsend, WA                     uw61965081

                October 7, 2023 (1 of 7 quakes)
                2023-10-07 13:10:13   6.9 mww     76.01 km  55 km SE of Madang, Papua New Guinea  us6000ldqf

                """)
    }

    @Test func feedTextNeverReachesTheTerminalRaw() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let hostile =
            #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"time":1,"place":"\u001b[31mRED\u001b[0m \u202Eevil\u0007","title":"\u009b2J"},"geometry":{"type":"Point","coordinates":[0,0]},"id":"x\u001b]0;pwned\u0007"}]}"#
        _ = await QuakesRun.fetch([try folder.write("hostile.geojson", hostile)], database: database)
        let table = await QuakesRun.run(["list", "--db", database])
        #expect(table.standardOutput.contains(#"\x1B[31mRED\x1B[0m \u{202E}evil\x07"#))
        #expect(table.standardOutput.contains(#"x\x1B]0;pwned\x07"#))
        #expect(
            !table.standardOutput.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E }
        )
        let show = await QuakesRun.run(["show", "--db", database, "x\u{1B}]0;pwned\u{07}"])
        #expect(show.status == .success)
        #expect(show.standardOutput.contains(#"title      \x9B2J"#))
        #expect(!show.standardOutput.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
        // Machine formats keep the text exactly, escaped as JSON.
        let json = await QuakesRun.run(["list", "--db", database, "--format", "ndjson"])
        #expect(
            try ndjsonRows(json.standardOutput).first?["place"] as? String
                == "\u{1B}[31mRED\u{1B}[0m \u{202E}evil\u{07}")
        ReliabilityReport.record(
            "Security", "escape sequences, bidi overrides and bells in feed text", runs: 3,
            "shown as `\\x1B[31m`, `\\u{202E}`, `\\x07` in tables and `show`; kept exact, JSON-escaped, in machine formats"
        )
    }

    @Test func colourIsUsedOnlyOnATerminalWithoutNoColor() async throws {
        let (folder, database) = try await significant()
        _ = folder
        func table(columns: Int?, noColor: String?) async -> String {
            let output = CapturedOutput()
            var environment = Environment(
                variables: noColor.map { ["NO_COLOR": $0, "TZ": "UTC"] } ?? ["TZ": "UTC"],
                currentDirectory: "/", standardOutput: output, standardError: CapturedOutput(),
                terminalColumns: columns)
            environment.clock = { 0 }
            Registry.equip(&environment)
            _ = await Quakes.main(["list", "--db", database, "--limit", "3", "--sort", "magnitude"], in: environment)
            return output.text
        }
        let terminal = await table(columns: 100, noColor: nil)
        #expect(terminal.contains("\u{1B}[1;31m 6.9 mww  \u{1B}[0m"))
        #expect(!(await table(columns: 100, noColor: "1")).contains("\u{1B}["))
        #expect(!(await table(columns: nil, noColor: nil)).contains("\u{1B}["))
        let narrow = await table(columns: 70, noColor: "1")
        #expect(narrow.split(separator: "\n").allSatisfy { TerminalText.width(String($0)) <= 70 })
        #expect(narrow.contains("…"))
    }

    @Test func showFindsAnEventByAnyOfItsIdsWithEveryField() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.weekAfter), Fixtures.path(Fixtures.detail)], database: database)
        let byAlias = await QuakesRun.run(["show", "--db", database, "us7000enmc", "--format", "json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(byAlias.standardOutput.utf8)) as? [String: Any])
        #expect(object["id"] as? String == "ci39746767")
        #expect(object["generated"] as? String == "2021-07-22T20:39:44.000Z")
        #expect(object["extra"] is NSNull)

        let detail = await QuakesRun.run(["show", "--db", database, "us1000chhc", "--format", "json"])
        let detailObject = try #require(
            try JSONSerialization.jsonObject(with: Data(detail.standardOutput.utf8)) as? [String: Any])
        let extra = try #require(detailObject["extra"] as? [String: Any])
        #expect((extra["products"] as? [String: Any])?.keys.contains("shakemap") == true)

        let table = await QuakesRun.run(["show", "--db", database, "ci39746767", "--utc"])
        #expect(table.standardOutput.hasPrefix("id         ci39746767\nmag        2.84\n"))
        #expect(table.standardOutput.contains("time       2021-07-20 05:12:50.460 Z (2021-07-20T05:12:50.460Z)\n"))

        let missing = await QuakesRun.run(["show", "--db", database, "nope"])
        #expect(missing.status == .failure)
        #expect(missing.status.code == 1)
        #expect(missing.standardError == "Error: no quake with id nope\n")
        let noID = await QuakesRun.run(["show", "--db", database])
        #expect(noID.status == .usage)
        #expect(noID.standardError.hasPrefix("Error: Missing expected argument '<id>'"))
    }
}

/// A question that matches nothing: the table says so in one line, exit 0; `count` alone still
/// prints 0, and the machine formats keep their empty shapes.
@Suite struct NothingMatchesTests {
    @Test(arguments: TestEngine.allCases)
    func theTableSaysNoQuakesMatchAndMachineFormatsStayEmpty(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: store.location)
        func run(_ arguments: [String]) async -> String {
            let run = await QuakesRun.run(arguments + ["--db", store.location, "--min-magnitude", "9"])
            #expect(run.status == .success && run.standardError.isEmpty, "\(arguments): \(run.standardError)")
            return run.standardOutput
        }
        for table in [
            ["list"], ["list", "--section", "day"], ["list", "--format", "text"], ["count", "--section", "day"],
        ] {
            #expect(await run(table) == "No quakes match.\n", "\(table)")
        }
        #expect(await run(["count"]) == "0\n")
        #expect(await run(["list", "--format", "json"]) == "[]\n")
        #expect(await run(["list", "--format", "json", "--section", "day"]) == "[]\n")
        #expect(await run(["list", "--format", "ndjson"]).isEmpty)
        let header = try #require(
            await QuakesRun.run(["list", "--db", store.location, "--format", "csv"]).standardOutput
                .components(separatedBy: "\r\n").first)
        #expect(await run(["list", "--format", "csv"]) == header + "\r\n")
        let collection = try JSONSerialization.jsonObject(with: Data(await run(["list", "--format", "geojson"]).utf8))
        #expect((collection as? [String: Any])?["type"] as? String == "FeatureCollection")
        #expect(((collection as? [String: Any])?["features"] as? [Any])?.isEmpty == true)
        #expect(await run(["count", "--section", "day", "--format", "json"]) == "[]\n")
        #expect(await run(["count", "--section", "day", "--format", "csv"]) == "section,title,count,zone\r\n")
        // Events match, and a limit of 0 asks for none of them: nothing to say.
        let none = await QuakesRun.run(["list", "--db", store.location, "--limit", "0"])
        #expect(none.status == .success && none.standardOutput.isEmpty)
    }

    @Test(arguments: TestEngine.keepingHistory)
    func anEmptyHistoryTableSaysNoTransactionsMatch(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: store.location)
        func run(_ arguments: [String]) async -> String {
            await QuakesRun.run(["history", "--db", store.location] + arguments).standardOutput
        }
        #expect(await run([]).hasPrefix("TOKEN  TIME (UTC)"))
        #expect(await run(["--since", "1"]) == "No transactions match.\n")
        #expect(await run(["--author", "nobody"]) == "No transactions match.\n")
        #expect(await run(["--since", "1", "--format", "json"]) == "[]\n")
        #expect(await run(["--since", "1", "--format", "ndjson"]).isEmpty)
    }
}

/// The plans SQLite chooses: indexes for time windows and magnitude sorts.
@Suite struct QueryPlanTests {
    @Test func timeWindowsAndMagnitudeSortsUseTheirIndexes() async throws {
        let (path, _) = try await QueryUniverse.shared.database()
        let runner = try SQLiteReader(path: path, zone: .utc)
        var filter = QuakeFilter()
        filter.earliest = 0
        filter.latest = 1
        #expect(try runner.countPlan(filter) == ["SEARCH quake USING COVERING INDEX quake_time (time>? AND time<?)"])

        var byMagnitude = QuakeQuery()
        byMagnitude.sort = SortSpec([SortSpec.Term(.magnitude)])
        byMagnitude.limit = 100
        let plan = try runner.plan(byMagnitude)
        #expect(plan.first == "SCAN quake USING INDEX quake_mag")
        #expect(!plan.contains("USE TEMP B-TREE FOR ORDER BY"))

        var window = QuakeQuery()
        window.filter = filter
        #expect(try runner.plan(window).first == "SEARCH quake USING INDEX quake_time (time>? AND time<?)")

        var strong = QuakeQuery()
        strong.filter.minimumMagnitude = 6
        strong.sort = SortSpec([SortSpec.Term(.magnitude)])
        #expect(try runner.plan(strong).first == "SEARCH quake USING INDEX quake_mag (mag>?)")
    }
}
