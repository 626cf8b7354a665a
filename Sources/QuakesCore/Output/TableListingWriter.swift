/// `--format table`: aligned columns of local time, magnitude and its type, depth, place and id,
/// under section headers with their counts.
///
/// The place column is as wide as the longest place among the first rows (kept back until then),
/// and on a terminal no wider than the line; later rows use the same width. Feed text is escaped
/// (`TerminalText`), and colour, by magnitude band, is used only when asked for.
struct TableListingWriter: ListingWriter {
    let output: any TextOutput
    let zone: DisplayZone
    let colour: Bool
    /// The terminal's width, when standard output is one.
    let columns: Int?
    /// The point of `--near`: a distance column follows the depth when given.
    let origin: GeoPoint?
    /// The line printed instead of the table when no event is listed (nil for none).
    let whenEmpty: String?

    private enum Line {
        case header(String)
        case row(QuakeTableRow)
        case blank
    }

    private var pending: [Line] = []
    private var layout: QuakeTableLayout?
    private var sections = 0
    private static let rowsBeforeLayout = 500

    init(
        output: any TextOutput, zone: DisplayZone, colour: Bool, columns: Int?, origin: GeoPoint? = nil,
        whenEmpty: String? = QuakeQuery.nothingMatches
    ) {
        self.output = output
        self.zone = zone
        self.colour = colour
        self.columns = columns
        self.origin = origin
        self.whenEmpty = whenEmpty
    }

    mutating func begin(sectioned: Bool) {}

    mutating func beginSection(_ section: QuerySection, shown: Int) {
        if sections > 0 { add(.blank) }
        sections += 1
        let count =
            shown == section.count
            ? "\(shown) \(shown == 1 ? "quake" : "quakes")" : "\(shown) of \(section.count) quakes"
        add(.header("\(TerminalText.escaped(section.title)) (\(count))"))
    }

    mutating func write(_ quake: Quake, section: QuerySection?) {
        add(.row(QuakeTableRow(quake, zone: zone, origin: origin)))
    }

    mutating func endSection() {}

    mutating func end() {
        if pending.isEmpty, layout == nil {
            if let whenEmpty { output.writeLine(whenEmpty) }
            return
        }
        flush()
    }

    // MARK: - Private

    private mutating func add(_ line: Line) {
        if let layout {
            output.write(render(line, layout))
        } else {
            pending.append(line)
            if pending.count >= Self.rowsBeforeLayout { flush() }
        }
    }

    private mutating func flush() {
        if layout == nil {
            var rows: [QuakeTableRow] = []
            for case let .row(row) in pending { rows.append(row) }
            let layout = QuakeTableLayout(rows: rows, zone: zone, origin: origin, columns: columns)
            self.layout = layout
            output.write(render(.header(layout.heading()), layout))
            if sections > 0 { output.write("\n") }
        }
        for line in pending { output.write(render(line, layout!)) }
        pending.removeAll()
    }

    private func render(_ line: Line, _ layout: QuakeTableLayout) -> String {
        switch line {
        case .blank:
            return "\n"
        case let .header(text):
            return (colour ? "\u{1B}[1m\(text)\u{1B}[0m" : text) + "\n"
        case let .row(row):
            return layout.render(row, colour: colour) + "\n"
        }
    }
}

/// One event's cells in a table of quakes: local time, magnitude and its type, depth (and the
/// distance from the point of `--near`), place and id, as `list` shows them and `watch` too.
struct QuakeTableRow: Sendable {
    var time: String
    /// The magnitude and its type, ten columns wide.
    var magnitude: String
    var magnitudeValue: Double?
    /// The depth, and the distance after it when there is one.
    var depth: String
    var place: String
    var id: String

    init(_ quake: Quake, zone: DisplayZone, origin: GeoPoint?) {
        // The magnitude as `show` gives it (two decimals when it has them), right-aligned in four
        // characters, then its type; a negative magnitude to hundredths takes a character of the
        // type's padding.
        let type = TerminalText.escaped(quake.magnitudeType ?? "")
        let value = (quake.magnitude.map(FieldText.magnitude) ?? "?").leftPadded(to: 4, with: " ")
        magnitude = TerminalText.padded(value + " " + type, to: 10)
        magnitudeValue = quake.magnitude
        depth = (quake.depth.map(FieldText.depth) ?? "? km").leftPadded(to: 9, with: " ")
        if let origin { depth += "  " + String(cFormat: "%7.1f km", origin.distance(to: quake)) }
        time = zone.dateAndTime(quake.time)
        place = TerminalText.escaped(quake.place ?? "")
        id = TerminalText.escaped(quake.id)
    }
}

/// The widths of a table of quakes' columns, decided once from its first rows: the place column
/// as wide as the longest place among them (at most 60), and on a terminal no wider than what the
/// other columns leave of the line.
struct QuakeTableLayout: Sendable {
    /// The heading of the time column names the zone, and may be wider than the times.
    let timeHeading: String
    let timeWidth: Int
    let placeWidth: Int
    let idWidth: Int
    /// Whether places are cut to `placeWidth` (on a terminal) or may run longer.
    let truncates: Bool
    let measuresDistance: Bool

    /// The layout of `rows`; `besides` is the width of the columns another command puts before
    /// these, with their two spaces, which a terminal's line must hold too.
    init(rows: [QuakeTableRow], zone: DisplayZone, origin: GeoPoint?, columns: Int?, besides: Int = 0) {
        timeHeading = "TIME (\(zone.name))"
        timeWidth = max(19, timeHeading.count)
        measuresDistance = origin != nil
        var widest = 5
        var idWidth = 2
        for row in rows {
            widest = max(widest, TerminalText.width(row.place))
            idWidth = max(idWidth, TerminalText.width(row.id))
        }
        self.idWidth = idWidth
        var placeWidth = min(widest, 60)
        if let columns {
            // time, magnitude, depth and id, with two spaces between columns.
            let fixed = besides + timeWidth + 2 + 10 + 2 + Self.depthWidth(origin != nil) + 2 + 2 + idWidth
            placeWidth = max(10, min(placeWidth, columns - fixed))
        }
        self.placeWidth = placeWidth
        truncates = columns != nil
    }

    /// The depth cell, and the distance cell after it when there is one.
    private static func depthWidth(_ measuresDistance: Bool) -> Int { measuresDistance ? 9 + 2 + 10 : 9 }

    /// The line of column headings.
    func heading() -> String {
        TerminalText.padded(timeHeading, to: timeWidth) + "  " + TerminalText.padded("MAG", to: 10) + "  "
            + "DEPTH".leftPadded(to: 9, with: " ")
            + (measuresDistance ? "  " + "DISTANCE".leftPadded(to: 10, with: " ") : "")
            + "  " + TerminalText.padded("PLACE", to: placeWidth) + "  ID"
    }

    /// `row`'s line without its newline; `padsID` pads the id to its column's width, for a column
    /// that follows it.
    func render(_ row: QuakeTableRow, colour: Bool, padsID: Bool = false) -> String {
        let shownPlace = truncates ? TerminalText.truncated(row.place, to: placeWidth) : row.place
        let paint = colour ? Self.colour(for: row.magnitudeValue) : nil
        let magnitudeCell = paint.map { "\($0)\(row.magnitude)\u{1B}[0m" } ?? row.magnitude
        return "\(TerminalText.padded(row.time, to: timeWidth))  \(magnitudeCell)  \(row.depth)  "
            + "\(TerminalText.padded(shownPlace, to: placeWidth))  "
            + (padsID ? TerminalText.padded(row.id, to: idWidth) : row.id)
    }

    /// The colour of a magnitude band: dim below 2.5, then yellow, red, and bold red from 6.
    private static func colour(for magnitude: Double?) -> String? {
        guard let magnitude else { return "\u{1B}[2m" }
        switch magnitude {
        case 6...: return "\u{1B}[1;31m"
        case 5..<6: return "\u{1B}[31m"
        case 4..<5: return "\u{1B}[33m"
        case 2.5..<4: return nil
        default: return "\u{1B}[2m"
        }
    }
}
