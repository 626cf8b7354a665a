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
        // Title and subtitle, the legend (and the line of `--near`), the numbered events, and the
        // line the prompt comes back on.
        let rows = max(lines - 4 - (content.near == nil ? 0 : 1) - min(strongestFirst.count, Self.strongest), 2)
        var canvas = BrailleCanvas(columns: columns, rows: rows)
        let frame = Drawing.Rectangle(
            x: 0, y: 0, width: Double(canvas.dotWidth - 1), height: Double(canvas.dotHeight - 1))
        let projection = content.projection(into: frame)
        let area = projection.mapArea
        let clip = (
            x: Int(area.x.rounded())...Int((area.x + area.width).rounded()),
            y: Int(area.y.rounded())...Int((area.y + area.height).rounded())
        )
        canvas.clip = clip
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
        // The circle of `--radius` under the events, in a colour of its own.
        if let circle = content.near?.projectedCircle(projection) {
            // A closed circle's last point is its first.
            for ring in circle.rings {
                for (start, end) in zip(ring, ring.dropFirst()) {
                    guard let (from, to) = area.clip(start, end) else { continue }
                    canvas.line(from: dot(from), to: dot(to), colour: NearCircle.terminalColour)
                }
            }
        }
        var eventCells: Set<Cell> = []
        for quake in content.eventsInDrawingOrder where area.contains(place(quake)) {
            let at = dot(place(quake))
            canvas.mark(x: at.x, y: at.y, ascii ? "o" : "•", colour: MapStyle.depthClass(quake.depth).terminalColour)
            eventCells.insert(Cell(at))
        }
        // The point of `--near` over the events: a number may still go there, but not hide it needlessly.
        if let near = content.near {
            let point = projection.point(longitude: near.centre.longitude, latitude: near.centre.latitude)
            if area.contains(point) {
                let at = dot(point)
                canvas.mark(x: at.x, y: at.y, "+", colour: NearCircle.terminalColour)
                eventCells.insert(Cell(at))
            }
        }
        // The strongest of the events on the map, each number where it can be read.
        let numbered = Array(strongestFirst.filter { area.contains(place($0)) }.prefix(Self.strongest))
        let (first, last) = (Cell(clip.x.lowerBound, clip.y.lowerBound), Cell(clip.x.upperBound, clip.y.upperBound))
        let labels = Self.labelCells(
            numbered.map { Cell(dot(place($0))) },
            columns: (first.column...last.column).clamped(to: 0...canvas.columns - 1),
            rows: (first.row...last.row).clamped(to: 0...canvas.rows - 1), events: eventCells)
        for (index, cell) in labels.enumerated() {
            canvas.mark(x: cell.column * 2, y: cell.row * 4, String(index + 1), colour: 1)
        }
        for line in canvas.lines(colour: colour, ascii: ascii) { text += line + "\n" }
        text += legend(numbered: numbered.count) + "\n"
        if let near = content.near {
            let line = TerminalText.truncated("+ " + TerminalText.escaped(near.legend), to: columns)
            text +=
                (colour && line.hasPrefix("+ ")
                    ? "\u{1B}[\(NearCircle.terminalColour)m+\u{1B}[0m" + line.dropFirst() : line) + "\n"
        }
        for (index, quake) in numbered.enumerated() {
            let magnitude = "M" + FieldText.magnitude(quake.magnitude!)
            let line = "\(index + 1) \(magnitude)  \(content.zone.dateAndTime(quake.time))  \(quake.place ?? quake.id)"
            text += TerminalText.truncated(TerminalText.escaped(line), to: columns) + "\n"
        }
        return text
    }

    /// A cell of the terminal: two dots wide and four high.
    struct Cell: Hashable, Sendable {
        var column: Int
        var row: Int

        init(column: Int, row: Int) {
            self.column = column
            self.row = row
        }

        /// The cell holding dot `x`, `y`.
        init(_ x: Int, _ y: Int) {
            self.init(column: x >= 0 ? x / 2 : (x - 1) / 2, row: y >= 0 ? y / 4 : (y - 3) / 4)
        }

        init(_ dot: (x: Int, y: Int)) { self.init(dot.x, dot.y) }
    }

    /// Where the numbers of events at `events` go, in their order (strongest first): each in its
    /// event's cell, else in a cell near it, so that no number is drawn over another or beside one
    /// on its line (1 beside 3 reads 13). Within two cells, one that hides no other event is taken
    /// first, the nearest of them, to the right, left, above or below before a corner; further
    /// out, the nearest free cell.
    static func labelCells(
        _ events: [Cell], columns: ClosedRange<Int>, rows: ClosedRange<Int>, events drawn: Set<Cell>
    ) -> [Cell] {
        var taken: Set<Cell> = []
        func free(_ cell: Cell) -> Bool {
            columns.contains(cell.column) && rows.contains(cell.row)
                && ![-1, 0, 1].contains { taken.contains(Cell(column: cell.column + $0, row: cell.row)) }
        }
        let reach = max(columns.count, rows.count)
        return events.map { event in
            var best: (cell: Cell, rank: (Int, Int, Int, Int, Int))?
            for distance in 0...reach {
                if best != nil, distance > 2 { break }
                for dy in -distance...distance {
                    for dx in -distance...distance where max(abs(dx), abs(dy)) == distance {
                        let cell = Cell(column: event.column + dx, row: event.row + dy)
                        guard free(cell) else { continue }
                        let hides = distance > 0 && drawn.contains(cell) ? 1 : 0
                        let rank = (max(distance, 2), hides, distance, abs(dx) + abs(dy), abs(dy))
                        if best.map({ rank < $0.rank }) ?? true { best = (cell, rank) }
                    }
                }
            }
            // A map too small for every number keeps the last ones where their events are.
            let cell = best?.cell ?? event
            taken.insert(cell)
            return cell
        }
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
