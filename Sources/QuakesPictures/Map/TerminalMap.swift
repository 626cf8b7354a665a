import QuakesCore

/// A map in a terminal: country outlines in Braille dots, each event a dot of its own in its depth's
/// colour, the strongest numbered and listed under the map, all fitted to the terminal's size.
struct TerminalMap {
    var content: MapContent
    var columns: Int
    var lines: Int
    var colour: Bool
    var ascii = false

    /// How many of the strongest events are numbered on the map and listed.
    static let strongest = 5

    func render() -> String {
        let strongestFirst = content.events.filter { $0.magnitude != nil }.sorted {
            ($0.magnitude!, $1.time) > ($1.magnitude!, $0.time)
        }
        // Title and subtitle, the legend, the numbered events, and the line the prompt comes back on.
        let rows = max(lines - 4 - min(strongestFirst.count, Self.strongest), 2)
        var canvas = BrailleCanvas(columns: columns, rows: rows)
        let frame = Drawing.Rectangle(
            x: 0, y: 0, width: Double(canvas.dotWidth - 1), height: Double(canvas.dotHeight - 1))
        let projection = content.projection(into: frame)
        let area = projection.mapArea
        canvas.clip = (
            Int(area.x.rounded())...Int((area.x + area.width).rounded()),
            Int(area.y.rounded())...Int((area.y + area.height).rounded())
        )
        func dot(_ point: Drawing.Point) -> (x: Int, y: Int) {
            (Int(point.x.rounded()), Int(point.y.rounded()))
        }
        func place(_ quake: Quake) -> Drawing.Point {
            projection.point(longitude: quake.longitude, latitude: quake.latitude)
        }
        var text = [content.title(outside: content.outside(projection)), content.subtitle].map {
            TerminalText.truncated(TerminalText.escaped($0), to: columns) + "\n"
        }.joined()
        for piece in content.projectedRings(projection, coastline: true) {
            for (start, end) in zip(piece, piece.dropFirst()) {
                // Only the part inside the map, so that no point is far outside what a dot can be.
                guard let (from, to) = area.clip(start, end) else { continue }
                canvas.line(from: dot(from), to: dot(to))
            }
        }
        for quake in content.eventsInDrawingOrder where area.contains(place(quake)) {
            let at = dot(place(quake))
            canvas.mark(x: at.x, y: at.y, ascii ? "o" : "•", colour: MapStyle.depthClass(quake.depth).terminalColour)
        }
        // The strongest of the events on the map.
        let numbered = Array(strongestFirst.filter { area.contains(place($0)) }.prefix(Self.strongest))
        for (index, quake) in numbered.enumerated().reversed() {
            let at = dot(place(quake))
            canvas.mark(x: at.x, y: at.y, String(index + 1), colour: 1)
        }
        for line in canvas.lines(colour: colour, ascii: ascii) { text += line + "\n" }
        text += legend(numbered: numbered.count) + "\n"
        for (index, quake) in numbered.enumerated() {
            let magnitude = String(cFormat: "M%.1f", quake.magnitude!)
            let line = "\(index + 1) \(magnitude)  \(content.zone.dateAndTime(quake.time))  \(quake.place ?? quake.id)"
            text += TerminalText.truncated(TerminalText.escaped(line), to: columns) + "\n"
        }
        return text
    }

    /// The depth colours (or, without colour, what the mark is) and what the numbers are, cut to
    /// the width: in colour, it is cut as plain text.
    private func legend(numbered: Int) -> String {
        let symbol = ascii ? "o" : "•"
        let strongest =
            numbered == 0 ? "" : numbered == 1 ? "   1: the strongest, below" : "   1–\(numbered): the strongest, below"
        let plain =
            colour
            ? "depth " + MapStyle.legendClasses(content.events).map { "\(symbol) \($0.label)" }.joined(separator: "  ")
            : "\(symbol) event"
        guard colour, TerminalText.width(plain + strongest) <= columns else {
            return TerminalText.truncated(plain + strongest, to: columns)
        }
        let depths = MapStyle.legendClasses(content.events).map {
            "\u{1B}[\($0.terminalColour)m\(symbol)\u{1B}[0m \($0.label)"
        }
        return "depth " + depths.joined(separator: "  ") + strongest
    }
}
