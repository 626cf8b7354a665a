import Foundation

/// A map in a terminal: country outlines in Braille dots, each event a dot of its own in its depth's
/// colour, the strongest numbered and listed under the map, all fitted to the terminal's size.
struct TerminalMap {
    var events: [Quake]
    var outlines: [CountryOutlines.Ring]
    var extent: MapExtent
    var columns: Int
    var lines: Int
    var title: String
    var subtitle: String
    var zone: DisplayZone
    var colour: Bool
    var ascii = false

    /// How many of the strongest events are numbered on the map and listed.
    static let strongest = 5

    func render() -> String {
        var text = [title, subtitle].map { TerminalText.truncated(TerminalText.escaped($0), to: columns) + "\n" }
            .joined()
        let numbered = Array(
            events.filter { $0.magnitude != nil }.sorted { ($0.magnitude!, $1.time) > ($1.magnitude!, $0.time) }
                .prefix(Self.strongest))
        // Title and subtitle, the legend, the numbered events, and the line the prompt comes back on.
        let rows = max(lines - 4 - numbered.count, 4)
        var canvas = BrailleCanvas(columns: max(columns, 20), rows: rows)
        let frame = Drawing.Rectangle(
            x: 0, y: 0, width: Double(canvas.dotWidth - 1), height: Double(canvas.dotHeight - 1))
        let points = events.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
        let projection = MapProjection(fitting: extent.region(of: points), into: frame)
        let area = projection.mapArea
        canvas.clip = (
            Int(area.x.rounded())...Int((area.x + area.width).rounded()),
            Int(area.y.rounded())...Int((area.y + area.height).rounded())
        )
        func dot(_ point: Drawing.Point) -> (x: Int, y: Int) {
            (Int(point.x.rounded()), Int(point.y.rounded()))
        }
        for ring in outlines {
            for turn in projection.turns(west: ring.minimum.longitude, east: ring.maximum.longitude) {
                for piece in QuakeMap.coastline(ring.points) {
                    var previous: (x: Int, y: Int)?
                    for point in piece {
                        let next = dot(projection.place(longitude: point.longitude + turn, latitude: point.latitude))
                        if let previous { canvas.line(from: previous, to: next) }
                        previous = next
                    }
                }
            }
        }
        for quake in events.sorted(by: { ($0.magnitude ?? -10) < ($1.magnitude ?? -10) }) {
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
            let line = "\(index + 1) \(magnitude)  \(zone.dateAndTime(quake.time))  \(quake.place ?? quake.id)"
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
        let numbered = min(events.filter { $0.magnitude != nil }.count, Self.strongest)
        let strongest = numbered == 1 ? "   1: the strongest, below" : "   1–\(numbered): the strongest, below"
        return scale + (numbered > 0 ? strongest : "")
    }
}
