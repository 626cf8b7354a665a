import QuakesCore

/// `quakes map [FILTERS] [--output FILE] [--extent auto|world|BBOX] [--size WxH]`: where the events
/// of a query were, over country outlines, as a picture file or as Braille dots in the terminal.
package struct MapCommand: Command {
    package static let name = "map"

    package static let help = CommandHelp(
        commandName: "quakes " + name,
        abstract: "Draw the events that match on a map, in the terminal or as a picture.",
        discussion: """
            Draws the events of the same query as 'list' over country outlines (Natural Earth, \
            1:110m): circles sized by magnitude and coloured by depth (0-69 km red, 70-299 km green, \
            300 km and deeper blue, as USGS's seismicity maps), with a legend and a title giving \
            the query, the time range, the zone and the count. The map fits the events with a \
            margin, across the date line when they lie on both sides of it, unless --extent says \
            otherwise. With --output it writes an SVG, PNG, PDF or self-contained HTML file (a \
            tooltip per event: time, magnitude, place and id); without, it draws the map in \
            Braille dots fitted to the terminal (COLUMNS and LINES, else 80x24 when not a \
            terminal), numbering the strongest events and listing them under it. With --near it \
            marks the point, and with --radius draws the circle around it.
            """,
        options: [DatabaseLocation.option.declaration] + FilterOptions.options + [extent.declaration]
            + pictureOptions.options + [CommonOptions.utc.declaration])

    static let extent = ValueOption(
        "extent", value: "extent",
        help:
            "auto (fitted to the events), world, or MINLON,MINLAT,MAXLON,MAXLAT (across the date line when MINLON > MAXLON).",
        default: "auto", choices: ["auto", "world"],
        expected: "auto, world or MINLON,MINLAT,MAXLON,MAXLAT, as --bbox takes"
    ) { text -> MapExtent? in
        switch text.lowercased() {
        case "auto": .auto
        case "world": .world
        default: FilterOptions.box(text).map(MapExtent.box)
        }
    }
    .defaulting(to: .auto)
    static let pictureOptions = PictureOptions.Declarations(defaultSize: .init(width: 1200, height: 750))

    var database: String?
    var filters: FilterOptions
    var extent: MapExtent
    var picture: PictureOptions
    var utc: Bool

    package init(_ arguments: ParsedArguments) throws(UsageError) {
        try arguments.checkPositionalCount(atMost: 0)
        database = try arguments.read(DatabaseLocation.option)
        filters = try FilterOptions(arguments, describing: true)
        extent = try arguments.read(Self.extent)
        picture = try PictureOptions(arguments, Self.pictureOptions)
        utc = arguments.read(CommonOptions.utc)
    }

    package func run(in environment: Environment) async throws -> ExitStatus {
        let zone = environment.zone(utc: utc)
        let resolved = try filters.resolvingPlace(in: environment)
        let filter = try resolved.filter(in: environment, zone: zone)
        // The point as given: a place's name, else its latitude and longitude.
        let near = resolved.origin.map { point in
            NearCircle(
                centre: point, radius: resolved.radius,
                name: filters.place ?? "\(FDSNService.number(point.latitude)),\(FDSNService.number(point.longitude))")
        }
        let database = try DatabaseLocation.reader(option: database, in: environment)
        let events = try await database.reading(zone: zone) { reader -> [Quake] in
            var events: [Quake] = []
            let oldestFirst = SortSpec([SortSpec.Term(.time, ascending: true)])
            try reader.forEachQuake(filter, in: nil, sort: oldestFirst, origin: nil, limit: nil) { quake in
                events.append(quake)
                return true
            }
            return events
        }
        let outlines = try CountryOutlines.load(from: SharedData(environment)).countries.flatMap(\.rings)
        let title =
            TerminalText.grouped(events.count) + (events.count == 1 ? " event" : " events")
            + (filters.asGiven.isEmpty ? "" : "  " + filters.asGiven)
        let subtitle: String
        // Read oldest first: the first and the last are the range.
        if let first = events.first?.time, let last = events.last?.time {
            let range =
                first == last ? zone.dateAndTime(first) : "\(zone.dateAndTime(first)) to \(zone.dateAndTime(last))"
            subtitle = "\(range) (\(zone.name))"
        } else {
            subtitle = "\(QuakeQuery.nothingMatches) (\(zone.name))"
        }
        let content = MapContent(
            events: events, outlines: outlines, extent: extent, title: title, subtitle: subtitle, zone: zone,
            near: near)
        if let file = picture.file(in: environment) {
            let map = QuakeMap(content: content, width: Double(picture.width), height: Double(picture.height))
            try await file.write(map.drawing())
        } else {
            let size = environment.textPictureSize
            let map = TerminalMap(
                content: content, columns: size.columns, lines: size.lines,
                colour: picture.color.usesColour(in: environment), ascii: picture.plainText(in: environment))
            environment.standardOutput.write(map.render())
        }
        return .success
    }
}
