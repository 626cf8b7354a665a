import Foundation
import FoundationXML
import Testing

@testable import QuakesCore
@testable import QuakesPictures

/// `quakes map`: the extent and its projection, the terminal's Braille map as whole screens, and
/// the picture files, each checked by a reader of its own (an XML parser, cairo, a browser).
@Suite struct MapTests {
    static func map(_ database: String, _ arguments: [String], columns: Int = 72, lines: Int = 22) async -> QuakesRun {
        await QuakesRun.run(
            ["map", "--db", database, "--utc"] + arguments,
            variables: ["COLUMNS": String(columns), "LINES": String(lines)])
    }

    /// Events on both sides of the date line make a small map across it, not a map of the world;
    /// those east of it are drawn east of those west of it.
    @Test func theFittedExtentIsTheShortestArcAcrossTheDateLine() {
        let points = [(-17.5, 178.2), (-20.1, -178.4), (-15.0, 179.9), (-21.0, -175.2)].map {
            GeoPoint(latitude: $0.0, longitude: $0.1)
        }
        let region = MapExtent.auto.region(of: points)
        #expect(region.east - region.west < 10, "\(region)")
        #expect(region.west < 178.2 && region.east > 184.8, "\(region)")
        let projection = MapProjection(
            fitting: region, into: Drawing.Rectangle(x: 0, y: 0, width: 400, height: 300))
        let fiji = projection.point(longitude: 178.2, latitude: -17.5)
        let tonga = projection.point(longitude: -175.2, latitude: -21.0)
        #expect(tonga.x > fiji.x && tonga.y > fiji.y)
        #expect(projection.frame.contains(fiji) && projection.frame.contains(tonga))
        // A box across the date line is one region too, and the world is the world.
        let box = MapExtent.box(
            QuakeFilter.Box(minimumLongitude: 170, minimumLatitude: -30, maximumLongitude: -170, maximumLatitude: -10))
        #expect(box.region(of: []) == MapExtent.Region(west: 170, east: 190, south: -30, north: -10))
        #expect(MapExtent.auto.region(of: []) == .world)
        // Without events far apart, the region is the events' with a margin, wide and high enough.
        let lone = MapExtent.auto.region(of: [GeoPoint(latitude: 35, longitude: 139)])
        #expect(lone == MapExtent.Region(west: 138, east: 140, south: 34, north: 36))
    }

    /// The projection keeps the region's shape, growing it to fill the frame, centred.
    @Test func theProjectionFillsItsFrameWithoutStretching() {
        let frame = Drawing.Rectangle(x: 10, y: 20, width: 360, height: 180)
        let world = MapProjection(fitting: .world, into: frame)
        #expect(world.point(longitude: -180, latitude: 90) == Drawing.Point(x: 10, y: 20))
        #expect(world.point(longitude: 0, latitude: 0) == Drawing.Point(x: 190, y: 110))
        // A region near 60° N is drawn with a degree of longitude half as wide as one of latitude.
        let north = MapProjection(
            fitting: MapExtent.Region(west: 0, east: 20, south: 55, north: 65),
            into: Drawing.Rectangle(x: 0, y: 0, width: 200, height: 200))
        let a = north.point(longitude: 0, latitude: 60)
        let b = north.point(longitude: 1, latitude: 60)
        let c = north.point(longitude: 0, latitude: 59)
        #expect(abs((b.x - a.x) / (c.y - a.y) - 0.5) < 0.01)
    }

    /// Whole screens at fixed sizes: the world, one event in another zone, none, and events on both
    /// sides of the date line; Braille and ASCII. The strongest events are numbered and listed.
    @Test(arguments: TestEngine.allCases) func aTerminalMapIsAWholeScreen(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveLater)], database: store.location)
        let screens: [(arguments: [String], columns: Int, lines: Int, zone: String?, screen: String)] = [
            (
                ["--utc", "--min-magnitude", "5.5", "--extent", "world"], 60, 16, nil,
                """
                9 events  --min-magnitude 5.5
                2021-07-16 04:19:58 to 2021-07-22 02:24:58 (UTC)
                                ⢀⣀⣀⣀⣠⣤⣴⣶⣶⣶⡒⣒⡶⠂⠰⣶⣂⣒⣤⣄⡴⠦⢤⣤⣤⣄⣀⣀
                                ⠈⠛⠚⠓⢦⠤⠼⢿⣿⣿⡍⠁⠉⣶⣿⣿⣯⣥⣴⣓⣤⣤⣤⣦⣶⠺⠟⠉
                                  ⡄ ⠈⠷⣶2⣇⡀  ⢠⣿⣽⣿⢿⣿⡿⣟⣶⣦⣬⡟•4
                                       1⣿⡛⠦⡄⠈⠛⢻⣟⣿⣟ ⠈⠃⢻⣿5•3⡀
                                •       ⣹⣻⠖⠁  ⠈⣿⠟⠛    ⢸⡭⣍⡧•⡉
                                        ⢻⣗ •     ⢀⡀⠂⢀⢀⣀⣀⡈⠁⠉⠁
                                ⠠⠴⠶⠖⠚⠒⠛⠛⠿⠧⠶⠶⠚⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠉⠩⠿⠤
                • event   1–5: the strongest, below
                1 M6.7  2021-07-21 21:15:12  68 km S of Punta de Burica, Pa…
                2 M6.1  2021-07-17 20:56:11  130 km S of Punta de Burica, P…
                3 M6.0  2021-07-21 14:26:00  150 km SSW of Lorengau, Papua …
                4 M5.8  2021-07-19 15:22:32  Bismarck Sea
                5 M5.8  2021-07-19 20:30:41  160 km SSW of Lorengau, Papua …

                """
            ),
            (
                ["--min-magnitude", "6.5", "--ascii"], 40, 12, "Asia/Tokyo",
                """
                1 event  --min-magnitude 6.5
                2021-07-22 06:15:12 (Asia/Tokyo)
                               ...........         ....
                                   .      ..       ..
                                           ......    ..
                                    1           . .....
                                                ...


                o event   1: the strongest, below
                1 M6.7  2021-07-22 06:15:12  68 km S of…

                """
            ),
            (
                ["--utc", "--min-magnitude", "9", "--ascii"], 40, 10, nil,
                """
                0 events  --min-magnitude 9
                No quakes match. (UTC)
                        ........................
                         ......... .............
                         .. ..... ...........
                        .     ....  ....  ......
                               ..    .  .  .....
                        ........................
                o event

                """
            ),
            (
                ["--utc", "--min-magnitude", "4.5", "--bbox", "170,-30,-170,-10"], 50, 14, nil,
                """
                8 events  --min-magnitude 4.5 --bbox 170,-30,-170…
                2021-07-16 10:02:00 to 2021-07-21 13:48:26 (UTC)
                ⠘⠢⢄⣸ ⠘⡅          ⠘⠇    ⢀•⠆ 3
                      ⠑⢤        ⣤⡀     ⠈⠁ 1• 2
                        ⠓⡄      ⠈⠙⠂ 5    •
                         ⠈⡆               •
                          ⡜                4
                • event   1–5: the strongest, below
                1 M5.5  2021-07-17 03:23:47  Fiji region
                2 M5.4  2021-07-16 10:02:00  139 km NE of Neiafu,…
                3 M5.4  2021-07-18 00:36:33  118 km NW of Pangai,…
                4 M5.3  2021-07-16 15:56:35  Kermadec Islands reg…
                5 M5.2  2021-07-18 01:04:46  southeast of the Loy…

                """
            ),
        ]
        for screen in screens {
            var variables = ["COLUMNS": String(screen.columns), "LINES": String(screen.lines)]
            variables["TZ"] = screen.zone
            let run = await QuakesRun.run(["map", "--db", store.location] + screen.arguments, variables: variables)
            #expect(run.status == .success, "\(run.standardError)")
            #expect(run.standardOutput == screen.screen, "\(screen.arguments)")
            for line in run.standardOutput.split(separator: "\n") {
                #expect(TerminalText.width(String(line)) <= screen.columns, "\(line)")
            }
        }
        // In colour, each event is in its depth's colour, and nothing is coloured without a terminal.
        let coloured = await QuakesRun.run(
            ["map", "--db", store.location, "--utc", "--color", "always"], variables: ["COLUMNS": "60", "LINES": "20"])
        #expect(coloured.standardOutput.contains("\u{1B}[31m•") && coloured.standardOutput.contains("\u{1B}[32m•"))
        let plain = await QuakesRun.run(["map", "--db", store.location, "--utc"])
        #expect(!plain.standardOutput.contains("\u{1B}"))
        #expect(plain.standardOutput.split(separator: "\n").count == 23)
    }

    /// On a busy map (the two weekly feeds, every event), each of the five strongest events has its
    /// number on the map, once, with no other number in its cell or beside it on its line; in
    /// colour too.
    @Test func everyNumberOfABusyMapCanBeRead() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.weekBefore), Fixtures.path(Fixtures.weekAfter)], database: database)
        for (columns, lines) in [(80, 24), (100, 40), (60, 16), (120, 30), (40, 14), (200, 60)] {
            for colour in ["never", "always"] {
                let run = await QuakesRun.run(
                    ["map", "--db", database, "--utc", "--color", colour],
                    variables: ["COLUMNS": String(columns), "LINES": String(lines)])
                #expect(run.status == .success, "\(run.standardError)")
                let screen = run.standardOutput.replacing(/\u{1B}\[[0-9;]*m/, with: "").split(separator: "\n")
                let legend = try #require(screen.firstIndex { $0.hasPrefix("• event") || $0.hasPrefix("depth ") })
                #expect(screen[(legend + 1)...].map { $0.prefix(3) } == ["1 M", "2 M", "3 M", "4 M", "5 M"])
                var numbers: [(number: Character, row: Int, column: Int)] = []
                for (row, line) in screen[2..<legend].enumerated() {
                    for (column, character) in line.enumerated() where character.isNumber {
                        numbers.append((character, row, column))
                    }
                }
                #expect(numbers.map(\.number).sorted() == ["1", "2", "3", "4", "5"], "\(columns)x\(lines)")
                for (index, number) in numbers.enumerated() {
                    for other in numbers[(index + 1)...] where other.row == number.row {
                        #expect(abs(other.column - number.column) > 1, "\(columns)x\(lines): \(number) \(other)")
                    }
                }
            }
        }
    }

    /// Numbers go to their events' cells, else to a free one near it, one that hides no event first:
    /// five events in one cell among others get five cells around it, none beside another on its line.
    @Test func numbersMoveToTheNearestFreeCell() {
        typealias Cell = TerminalMap.Cell
        let crowd = Cell(column: 10, row: 5)
        let events: Set<Cell> = [crowd, Cell(column: 11, row: 4), Cell(column: 10, row: 4)]
        let cells = TerminalMap.labelCells(
            Array(repeating: crowd, count: 5), columns: 0...30, rows: 0...10, events: events)
        #expect(cells.first == crowd)
        #expect(Set(cells).count == 5)
        #expect(cells.allSatisfy { max(abs($0.column - crowd.column), abs($0.row - crowd.row)) <= 2 }, "\(cells)")
        #expect(!cells.dropFirst().contains(Cell(column: 10, row: 4)) && !cells.contains(Cell(column: 11, row: 4)))
        for (index, cell) in cells.enumerated() {
            #expect(!cells[(index + 1)...].contains { $0.row == cell.row && abs($0.column - cell.column) <= 1 })
        }
        // At the edge of the map, a number stays inside it.
        let corner = TerminalMap.labelCells(
            [Cell(column: 0, row: 0), Cell(column: 0, row: 0)], columns: 0...5, rows: 0...3, events: [])
        #expect(corner == [Cell(column: 0, row: 0), Cell(column: 0, row: 1)])
    }

    /// `--near PLACE --radius KM`: the map is fitted to the circle too, and draws it (the points
    /// `radius` km from the centre along great circles, projected) under the events, with the point
    /// marked and the radius said under the map; in the terminal in a colour of its own.
    @Test func aMapDrawsThePointAndTheCircleOfNear() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.weekBefore), Fixtures.path(Fixtures.weekAfter)], database: database)
        let near = ["--near", "tokyo", "--radius", "1000"]
        let svg = await Self.map(database, near + ["--output", folder.file("tokyo.svg")])
        #expect(svg.status == .success, "\(svg.standardError)")
        let document = try String(contentsOfFile: folder.file("tokyo.svg"), encoding: .utf8)
        let paths = try document.matches(of: /<path class="radius" d="([^"]*)"/).map { match in
            try String(match.1).dropFirst().replacing("Z", with: "").split(separator: "L").map { pair in
                let xy = pair.split(separator: ",")
                return Drawing.Point(x: try #require(Double(xy[0])), y: try #require(Double(xy[1])))
            }
        }
        // One closed ring, a point every 2° of bearing.
        let ring = try #require(paths.count == 1 ? paths.first : nil)
        #expect(ring.count == 181 && document.contains("Z\" fill=\"none\" stroke=\"#7b3294\""))
        // Every event the query keeps is inside it, and so is the cross of the point.
        let marks = try SVGMarks(path: folder.file("tokyo.svg"))
        let counted = await QuakesRun.run(["count", "--db", database] + near)
        #expect(marks.events.count == Int(counted.standardOutput.dropLast()) && marks.events.count >= 10)
        for event in marks.events {
            #expect(Self.contains(ring, Drawing.Point(x: event.x, y: event.y)), "\(event.id)")
        }
        let cross = try #require(document.firstMatch(of: /<path class="near" d="M([0-9.]+),([0-9.]+)L([0-9.]+),/))
        let centre = Drawing.Point(x: (Double(cross.1)! + Double(cross.3)!) / 2, y: Double(cross.2)!)
        #expect(Self.contains(ring, centre))
        #expect(document.contains(">within 1,000 km of tokyo</text>"))
        // The same in a PNG: the point's colour where the cross is.
        let png = await Self.map(database, near + ["--output", folder.file("tokyo.png")])
        #expect(png.status == .success, "\(png.standardError)")
        let image = try CairoImage(contentsOfFile: folder.file("tokyo.png"))
        #expect(image.pixel(at: centre).isClose(to: NearCircle.colour, tolerance: 40), "\(image.pixel(at: centre))")

        // In the terminal: the point a `+`, the circle's dots in magenta all round it, the radius
        // said under the legend; the five numbers still there.
        let terminal = await QuakesRun.run(
            ["map", "--db", database, "--utc", "--color", "always"] + near,
            variables: ["COLUMNS": "80", "LINES": "24"])
        let screen = terminal.standardOutput.split(separator: "\n").map(String.init)
        #expect(screen.count == 23)
        let plain = screen.map { $0.replacing(/\u{1B}\[[0-9;]*m/, with: "") }
        let legend = try #require(plain.firstIndex { $0.hasPrefix("depth ") })
        #expect(plain[legend + 1] == "+ within 1,000 km of tokyo")
        var circle: [(row: Int, column: Int)] = []
        var point: [(row: Int, column: Int)] = []
        for (row, line) in screen[2..<legend].enumerated() {
            var column = 0
            var painted = ""
            for match in line.matches(of: /\u{1B}\[([0-9;]*)m|(.)/) {
                if let code = match.1 {
                    painted = String(code)
                    continue
                }
                if painted == "35" {
                    if match.2 == "+" { point.append((row, column)) } else { circle.append((row, column)) }
                }
                column += 1
            }
        }
        let plus = try #require(point.count == 1 ? point.first : nil)
        #expect(circle.count > 20)
        #expect(circle.contains { $0.row == plus.row && $0.column < plus.column - 5 })
        #expect(circle.contains { $0.row == plus.row && $0.column > plus.column + 5 })
        #expect(circle.contains { $0.column == plus.column && $0.row < plus.row - 2 })
        #expect(circle.contains { $0.column == plus.column && $0.row > plus.row + 2 })
        #expect(plain[2..<legend].joined().filter(\.isNumber).sorted() == ["1", "2", "3", "4", "5"])

        // `--near` alone marks the point; no circle.
        let alone = await Self.map(database, ["--near", "35.7,139.7", "--output", folder.file("point.svg")])
        #expect(alone.status == .success)
        let marked = try String(contentsOfFile: folder.file("point.svg"), encoding: .utf8)
        #expect(marked.contains(#"<path class="near""#) && !marked.contains(#"class="radius""#))
        #expect(marked.contains(">35.7,139.7</text>"))
    }

    /// The points of a `--radius` circle are the radius away from its centre, as the filter measures,
    /// at every bearing; around a pole the circle runs once round the Earth instead of closing.
    @Test func theCircleIsTheRadiusAlongGreatCircles() throws {
        for (latitude, longitude, radius) in [(35.68, 139.69, 1000.0), (-17.7, 178.1, 800), (70, 180, 3000), (0, 0, 5)]
        {
            let near = NearCircle(centre: GeoPoint(latitude: latitude, longitude: longitude), radius: radius, name: "x")
            let circle = try #require(near.circle)
            for point in circle.points {
                let distance = Geodesy.distance(
                    latitude: latitude, longitude: longitude, toLatitude: point.latitude, toLongitude: point.longitude)
                #expect(abs(distance - radius) < radius * 1e-9 + 1e-6, "\(point)")
            }
            #expect(circle.closed == (latitude != 70), "\(latitude)")
            // Longitudes run on without a jump at the date line.
            for (a, b) in zip(circle.points, circle.points.dropFirst()) { #expect(abs(a.longitude - b.longitude) < 30) }
        }
        #expect(NearCircle(centre: GeoPoint(latitude: 0, longitude: 0), radius: 20_100, name: "x").circle == nil)
    }

    /// True when `point` is inside the polygon `ring` (by the even-odd rule).
    static func contains(_ ring: [Drawing.Point], _ point: Drawing.Point) -> Bool {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst() + [ring[0]]) where (a.y > point.y) != (b.y > point.y) {
            if point.x < a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x) { inside.toggle() }
        }
        return inside
    }

    /// What a feed may say (any finite magnitude or depth, none at all), a box of no area, a box
    /// that leaves events out and absurd terminal sizes make maps and charts, or a usage error;
    /// never a crash.
    @Test func oddValuesAndSizesAreMapsOrUsageErrors() async throws {
        let folder = try TemporaryDirectory()
        let feed = folder.file("odd.geojson")
        func feature(_ id: String, magnitude: String, depth: String, longitude: String) -> String {
            #"{"type":"Feature","id":"\#(id)","properties":{"mag":\#(magnitude),"time":1626900000000,"#
                + #""updated":1626900000000,"place":"<b>&'\uFFFF","type":"earthquake"},"#
                + #""geometry":{"type":"Point","coordinates":[\#(longitude),10,\#(depth)]}}"#
        }
        let features = [
            feature("huge1", magnitude: "1e300", depth: "10", longitude: "20"),
            feature("deep1", magnitude: "4.5", depth: "1e300", longitude: "-20"),
            feature("none1", magnitude: "null", depth: "null", longitude: "0"),
        ]
        let document =
            #"{"type":"FeatureCollection","metadata":{"generated":1626900000000},"features":["#
            + features.joined(separator: ",") + "]}"
        try document.write(toFile: feed, atomically: true, encoding: .utf8)
        let database = folder.file("q.sqlite")
        let fetch = await QuakesRun.fetch([feed], database: database)
        #expect(fetch.status == .success, "\(fetch.standardError)")
        let svg = await Self.map(database, ["--output", folder.file("odd.svg")])
        #expect(svg.status == .success, "\(svg.standardError)")
        let marks = try SVGMarks(path: folder.file("odd.svg"))
        #expect(marks.events.count == 3)
        // The event without a depth is grey, and the legend says what grey is.
        #expect(marks.events.first { $0.id == "none1" }?.fill == MapStyle.unknownDepth.colour.hexString)
        let text = try String(contentsOfFile: folder.file("odd.svg"), encoding: .utf8)
        #expect(text.contains(">depth unknown</text>") && text.contains("&lt;b&gt;&amp;&#39;"))
        #expect(!text.unicodeScalars.contains("\u{FFFF}"))
        let cumulative = await QuakesRun.run(["chart", "--db", database, "--by", "magnitude", "--cumulative"])
        #expect(cumulative.status == .usage)
        #expect(
            cumulative.standardError.contains("magnitudes span more than 1000 buckets"), "\(cumulative.standardError)")
        let depths = await QuakesRun.run(["chart", "--db", database, "--by", "depth"])
        #expect(depths.status == .usage)
        // A box of no area is a degree around its point; events outside a box are counted, not listed.
        let point = await Self.map(database, ["--extent", "10,5,10,5", "--output", folder.file("point.png")])
        #expect(point.status == .success, "\(point.standardError)")
        let store = try TestEngine.sqlite.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveLater)], database: store.location)
        let africa = await Self.map(
            store.location, ["--extent", "-30,-10,30,10", "--min-magnitude", "6.5"], columns: 60, lines: 12)
        #expect(africa.standardOutput.hasPrefix("1 event  --min-magnitude 6.5 (1 outside the map)\n"))
        #expect(!africa.standardOutput.contains("Punta de Burica"), "\(africa.standardOutput)")
        // Sizes no terminal has are cut to 2,000 by 1,000; the legend fits a narrow one, in colour too.
        let vast = await QuakesRun.run(
            ["map", "--db", store.location], variables: ["COLUMNS": "4000000000", "LINES": "4000000000"])
        #expect(vast.status == .success)
        #expect(vast.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).count == 1000)
        let narrow = await QuakesRun.run(
            ["map", "--db", store.location, "--color", "always"], variables: ["COLUMNS": "30", "LINES": "8"])
        for line in narrow.standardOutput.split(separator: "\n") {
            let visible = String(line).replacing(/\u{1B}\[[0-9;]*m/, with: "")
            #expect(TerminalText.width(visible) <= 30, "\(line)")
        }
        #expect(SVGWriter.escaped("a\u{FFFE}b\u{FFFF}\u{1}c") == "abc")
    }

    /// The SVG parses as XML and has one mark per event the same query lists, each with its id.
    @Test(arguments: TestEngine.allCases) func theSVGHasOneMarkPerEvent(engine: TestEngine) async throws {
        let store = try engine.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveLater)], database: store.location)
        let folder = try TemporaryDirectory()
        let file = folder.file("map.svg")
        let run = await Self.map(store.location, ["--min-magnitude", "4.8", "--output", file])
        #expect(run.status == .success, "\(run.standardError)")
        #expect(run.standardOutput.isEmpty)
        let marks = try SVGMarks(path: file)
        let listed = await QuakesRun.run([
            "list", "--db", store.location, "--min-magnitude", "4.8", "--format", "ndjson",
        ])
        let ids = try listed.standardOutput.split(separator: "\n").map { line in
            try #require(
                (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["id"] as? String)
        }
        #expect(ids.count > 20)
        #expect(marks.events.map(\.id).sorted() == ids.sorted())
        #expect(marks.size == (1200, 750))
        #expect(marks.events.allSatisfy { $0.title.contains("M ") && $0.title.contains(" UTC") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["map.svg"])
    }

    /// Where the SVG puts an event, the PNG, the PDF and a browser's screenshot of the HTML page
    /// show its depth's colour, in a picture of the size asked for; each format is also within a
    /// tolerance of a golden picture (regenerated with QUAKES_UPDATE_GOLDENS=1).
    @Test func everyFormatShowsTheEventsWhereTheSVGPutsThem() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.fourFiveLater)], database: database)
        let query = ["--min-magnitude", "4.8", "--size", "600x375"]
        for format in PictureFormat.allCases {
            let run = await Self.map(database, query + ["--output", folder.file("map.\(format.rawValue)")])
            #expect(run.status == .success, "\(format): \(run.standardError)")
        }
        let marks = try SVGMarks(path: folder.file("map.svg"))
        #expect(marks.size == (600, 375))
        let png = try CairoImage(contentsOfFile: folder.file("map.png"))
        let pdf = try await Self.rasterised(pdf: folder.file("map.pdf"), in: folder)
        let html = try await HeadlessBrowser.screenshot(
            of: folder.file("map.html"), width: 600, height: 375, into: folder)
        let svg = try await HeadlessBrowser.screenshot(
            of: folder.file("map.svg"), width: 600, height: 375, into: folder)
        // The events no later mark covers, drawn big enough to hit.
        let visible = marks.events.enumerated().filter { index, event in
            event.radius >= 2.5
                && !marks.events[(index + 1)...].contains { hypot($0.x - event.x, $0.y - event.y) < $0.radius + 1 }
        }.map(\.element)
        #expect(visible.count >= 10)
        for (name, image) in [("png", png), ("pdf", pdf), ("html", html), ("svg", svg)] {
            #expect(image.width == 600 && image.height == 375, "\(name): \(image.width)x\(image.height)")
            for event in visible {
                let fill = try #require(UInt32(event.fill.dropFirst(), radix: 16))
                let pixel = image.pixel(at: Drawing.Point(x: event.x, y: event.y))
                // The depth's colour at 72 % over land or sea: nearest to it of the three classes.
                let nearest = MapStyle.depthClasses.min { distance(pixel, $0.colour) < distance(pixel, $1.colour) }
                #expect(
                    nearest?.colour == Colour(hex: fill), "\(name): \(event.id) at \(event.x),\(event.y) is \(pixel)")
                #expect(
                    distance(pixel, MapStyle.sea) > 60 && distance(pixel, MapStyle.land) > 60, "\(name) \(event.id)")
            }
        }
        // The page's script ran in the browser without an error: it took each event's title for its
        // tooltip, and every event is still there.
        let page = try await HeadlessBrowser.document(of: folder.file("map.html"), into: folder)
        #expect(page.contains(#"<div id="tip""#))
        #expect(page.components(separatedBy: #"class="event""#).count - 1 == marks.events.count)
        // Left: the page's own title and the picture's.
        #expect(page.components(separatedBy: "<title>").count - 1 == 2)
        let golden = try Golden("map-4.8-week.png")
        try golden.updateIfAsked(from: folder.file("map.png"))
        let reference = try CairoImage(contentsOfFile: golden.path)
        let pixels = 600 * 375
        // Cairo draws the PNG as it drew the golden one; poppler (the PDF) and Chromium (the HTML and
        // the SVG) antialias the thin coastlines and set the text their own ways, which moves about 4 %
        // of the pixels: 6 % are allowed.
        #expect(png.differingPixels(from: reference) <= pixels / 200, "png")
        for (name, image) in [("pdf", pdf), ("html", html), ("svg", svg)] {
            #expect(image.differingPixels(from: reference) <= pixels / 16, "\(name)")
        }
    }

    private func distance(_ pixel: CairoImage.Pixel, _ colour: Colour) -> Double {
        let components = [(pixel.red, colour.red), (pixel.green, colour.green), (pixel.blue, colour.blue)]
        return components.map { Double($0.0) - $0.1 * 255 }.map { $0 * $0 }.reduce(0, +).squareRoot()
    }

    /// A PDF as poppler draws it at 72 dots an inch: a point a pixel.
    static func rasterised(pdf: String, in folder: TemporaryDirectory) async throws -> CairoImage {
        let stem = folder.file("pdf-\(UUID().uuidString)")
        let outcome = try await ChildProcess.run("/usr/bin/pdftoppm", ["-r", "72", "-png", "-singlefile", pdf, stem])
        #expect(outcome.status == 0, "\(outcome.errors)")
        return try CairoImage(contentsOfFile: stem + ".png")
    }
}

/// A golden file of the tests, in `Tests/QuakesCoreTests/Goldens`: compared against with a
/// tolerance, and written from what the test made when `QUAKES_UPDATE_GOLDENS` is 1.
struct Golden {
    let path: String

    init(_ name: String) throws {
        path =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Goldens")
            .appendingPathComponent(name).path
    }

    func updateIfAsked(from made: String) throws {
        guard ProcessInfo.processInfo.environment["QUAKES_UPDATE_GOLDENS"] == "1" else { return }
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: made, toPath: path)
    }
}

/// What a map's SVG holds, read by Foundation's XML parser: its size and its event marks.
final class SVGMarks: NSObject, XMLParserDelegate {
    struct Event {
        var id: String
        var x: Double
        var y: Double
        var radius: Double
        var fill: String
        var title = ""
    }

    private(set) var events: [Event] = []
    private(set) var size = (0, 0)
    private var inEventTitle = false

    init(path: String) throws {
        super.init()
        let parser = try #require(XMLParser(contentsOf: URL(fileURLWithPath: path)))
        parser.delegate = self
        #expect(parser.parse(), "\(parser.parserError.map(String.init(describing:)) ?? "")")
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        if name == "svg" { size = (Int(attributes["width"] ?? "") ?? 0, Int(attributes["height"] ?? "") ?? 0) }
        if name == "circle", attributes["class"] == "event" {
            events.append(
                Event(
                    id: attributes["data-id"] ?? "", x: Double(attributes["cx"] ?? "") ?? .nan,
                    y: Double(attributes["cy"] ?? "") ?? .nan, radius: Double(attributes["r"] ?? "") ?? .nan,
                    fill: attributes["fill"] ?? ""))
        }
        inEventTitle = name == "title" && !events.isEmpty && events[events.count - 1].title.isEmpty
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if inEventTitle { events[events.count - 1].title += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        inEventTitle = false
    }
}
