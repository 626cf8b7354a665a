import Foundation

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
        var text = [content.title, content.subtitle].map {
            TerminalText.truncated(TerminalText.escaped($0), to: columns) + "\n"
        }
        .joined()
        let numbered = Array(
            content.events.filter { $0.magnitude != nil }.sorted { ($0.magnitude!, $1.time) > ($1.magnitude!, $0.time) }
                .prefix(Self.strongest))
        // Title and subtitle, the legend, the numbered events, and the line the prompt comes back on.
        let rows = max(lines - 4 - numbered.count, 4)
        var canvas = BrailleCanvas(columns: max(columns, 20), rows: rows)
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
        for piece in content.projectedRings(projection, coastline: true) {
            for (start, end) in zip(piece, piece.dropFirst()) { canvas.line(from: dot(start), to: dot(end)) }
        }
        for quake in content.eventsInDrawingOrder {
            let at = dot(projection.point(longitude: quake.longitude, latitude: quake.latitude))
            canvas.mark(x: at.x, y: at.y, ascii ? "o" : "•", colour: MapStyle.depthClass(quake.depth).terminalColour)
        }
        for (index, quake) in numbered.enumerated().reversed() {
            let at = dot(projection.point(longitude: quake.longitude, latitude: quake.latitude))
            canvas.mark(x: at.x, y: at.y, String(index + 1), colour: 1)
        }
        for line in canvas.lines(colour: colour, ascii: ascii) { text += line + "\n" }
        text += legend() + "\n"
        for (index, quake) in numbered.enumerated() {
            let magnitude = String(format: "M%.1f", quake.magnitude!)
            let line = "\(index + 1) \(magnitude)  \(content.zone.dateAndTime(quake.time))  \(quake.place ?? quake.id)"
            text += TerminalText.truncated(TerminalText.escaped(line), to: columns) + "\n"
        }
        return text
    }

    private func legend() -> String {
        let symbol = ascii ? "o" : "•"
        let depths = MapStyle.depthClasses.map { depth in
            colour ? "\u{1B}[\(depth.terminalColour)m\(symbol)\u{1B}[0m \(depth.label)" : depth.label
        }
        let scale = colour ? "depth " + depths.joined(separator: "  ") : "\(symbol) event"
        let numbered = min(content.events.filter { $0.magnitude != nil }.count, Self.strongest)
        let strongest = numbered == 1 ? "   1: the strongest, below" : "   1–\(numbered): the strongest, below"
        return scale + (numbered > 0 ? strongest : "")
    }
}
