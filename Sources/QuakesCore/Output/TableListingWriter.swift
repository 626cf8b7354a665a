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
        case row(
            time: String, magnitude: String, magnitudeValue: Double?, depth: String, place: String, id: String)
        case blank
    }

    private var pending: [Line] = []
    private var placeWidth: Int?
    /// The heading of the time column names the zone, and may be wider than the times.
    private var timeHeading: String { "TIME (\(zone.name))" }
    private var timeWidth: Int { max(19, timeHeading.count) }
    private var idWidth = 2
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

    /// The depth cell, and the distance cell after it when there is one.
    private var depthWidth: Int { origin == nil ? 9 : 9 + 2 + 10 }

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
        // The magnitude as `show` gives it (two decimals when it has them), right-aligned in four
        // characters, then its type; a negative magnitude to hundredths takes a character of the
        // type's padding.
        let magnitude = (quake.magnitude.map(FieldText.magnitude) ?? "?").leftPadded(to: 4, with: " ")
        let type = TerminalText.escaped(quake.magnitudeType ?? "")
        var depth = (quake.depth.map(FieldText.depth) ?? "? km").leftPadded(to: 9, with: " ")
        if let origin { depth += "  " + String(cFormat: "%7.1f km", origin.distance(to: quake)) }
        add(
            .row(
                time: zone.dateAndTime(quake.time),
                magnitude: TerminalText.padded(magnitude + " " + type, to: 10), magnitudeValue: quake.magnitude,
                depth: depth, place: TerminalText.escaped(quake.place ?? ""), id: TerminalText.escaped(quake.id)))
    }

    mutating func endSection() {}

    mutating func end() {
        if pending.isEmpty, placeWidth == nil {
            if let whenEmpty { output.writeLine(whenEmpty) }
            return
        }
        flush()
    }

    // MARK: - Private

    private mutating func add(_ line: Line) {
        if placeWidth == nil {
            pending.append(line)
            if pending.count >= Self.rowsBeforeLayout { flush() }
        } else {
            output.write(render(line))
        }
    }

    private mutating func flush() {
        if placeWidth == nil {
            var widest = 5
            for case let .row(_, _, _, _, place, id) in pending {
                widest = max(widest, TerminalText.width(place))
                idWidth = max(idWidth, TerminalText.width(id))
            }
            placeWidth = min(widest, 60)
            if let columns {
                // time, magnitude, depth and id, with two spaces between columns.
                let fixed = timeWidth + 2 + 10 + 2 + depthWidth + 2 + 2 + idWidth
                placeWidth = max(10, min(placeWidth!, columns - fixed))
            }
            output.write(render(.header(heading())))
            if sections > 0 { output.write("\n") }
        }
        for line in pending { output.write(render(line)) }
        pending.removeAll()
    }

    private func heading() -> String {
        TerminalText.padded(timeHeading, to: timeWidth) + "  " + TerminalText.padded("MAG", to: 10) + "  "
            + "DEPTH".leftPadded(to: 9, with: " ")
            + (origin == nil ? "" : "  " + "DISTANCE".leftPadded(to: 10, with: " "))
            + "  " + TerminalText.padded("PLACE", to: placeWidth ?? 5) + "  ID"
    }

    private func render(_ line: Line) -> String {
        switch line {
        case .blank:
            return "\n"
        case let .header(text):
            return (colour ? "\u{1B}[1m\(text)\u{1B}[0m" : text) + "\n"
        case let .row(time, magnitude, value, depth, place, id):
            let width = placeWidth ?? 60
            let shownPlace = columns == nil ? place : TerminalText.truncated(place, to: width)
            let paint = colour ? Self.colour(for: value) : nil
            let magnitudeCell = paint.map { "\($0)\(magnitude)\u{1B}[0m" } ?? magnitude
            return "\(TerminalText.padded(time, to: timeWidth))  \(magnitudeCell)  \(depth)  "
                + "\(TerminalText.padded(shownPlace, to: width))  \(id)\n"
        }
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
