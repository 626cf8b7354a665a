import QuakesCore

/// A grid of terminal cells, each 2 dots wide and 4 high drawn as a Braille character (U+2800 and
/// the dots' bits), so a terminal shows lines at four times its rows; a cell may instead hold a
/// symbol of its own (an event), with a colour.
struct BrailleCanvas {
    let columns: Int
    let rows: Int
    private var dots: [UInt8]
    private var symbols: [Int: (text: String, colour: Int?)] = [:]
    /// The colours of cells whose dots are not in the canvas's dot colour (a circle among outlines).
    private var dotColours: [Int: Int] = [:]
    /// The dots that may be set, when not all: a map's area, beside which copies of outlines a turn
    /// of the Earth away would show.
    var clip: (x: ClosedRange<Int>, y: ClosedRange<Int>)?

    init(columns: Int, rows: Int) {
        self.columns = max(columns, 1)
        self.rows = max(rows, 1)
        dots = Array(repeating: 0, count: self.columns * self.rows)
    }

    var dotWidth: Int { columns * 2 }
    var dotHeight: Int { rows * 4 }

    /// The bit of each dot of a cell, by column then row, as Unicode numbers Braille's eight dots.
    private static let bits: [[UInt8]] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]]

    /// Sets a dot; with `colour` (an SGR colour such as 35), its cell's dots are drawn in it.
    mutating func set(x: Int, y: Int, colour: Int? = nil) {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return }
        if let clip, !clip.x.contains(x) || !clip.y.contains(y) { return }
        dots[(y / 4) * columns + x / 2] |= Self.bits[x % 2][y % 4]
        if let colour { dotColours[(y / 4) * columns + x / 2] = colour }
    }

    /// A straight line of dots (Bresenham's), for outlines; in `colour`, as `set` draws it.
    mutating func line(from start: (x: Int, y: Int), to end: (x: Int, y: Int), colour: Int? = nil) {
        var (x, y) = start
        let (dx, dy) = (abs(end.x - x), -abs(end.y - y))
        let (sx, sy) = (x < end.x ? 1 : -1, y < end.y ? 1 : -1)
        var error = dx + dy
        // Lines far outside the canvas are not walked dot by dot.
        guard max(dx, -dy) < 4 * (dotWidth + dotHeight) else { return }
        while true {
            set(x: x, y: y, colour: colour)
            if x == end.x && y == end.y { return }
            let twice = 2 * error
            if twice >= dy {
                error += dy
                x += sx
            }
            if twice <= dx {
                error += dx
                y += sy
            }
        }
    }

    /// Puts a one-cell symbol in the cell holding dot `x`, `y`, over its dots.
    mutating func mark(x: Int, y: Int, _ symbol: String, colour: Int? = nil) {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return }
        symbols[(y / 4) * columns + x / 2] = (symbol, colour)
    }

    /// The rows of text; dots in `dotColour` (an SGR parameter such as `2` for faint) and symbols
    /// in theirs when colour is on. With `ascii`, a cell with any dot is a `.`.
    func lines(colour: Bool, ascii: Bool = false, dotColour: String = "2") -> [String] {
        (0..<rows).map { row in
            var line = ""
            var painted: String?
            func paint(_ code: String?) {
                guard colour, code != painted else { return }
                line += code.map { "\u{1B}[\($0)m" } ?? "\u{1B}[0m"
                painted = code
            }
            // Trailing blank cells say nothing and wrap badly when a terminal narrows.
            let used = (0..<columns).last { symbols[row * columns + $0] != nil || dots[row * columns + $0] != 0 }
            for column in 0..<(used.map { $0 + 1 } ?? 0) {
                let cell = row * columns + column
                if let symbol = symbols[cell] {
                    paint(symbol.colour.map(String.init) ?? "1")
                    line += symbol.text
                } else if dots[cell] == 0 {
                    line += " "
                } else {
                    paint(dotColours[cell].map(String.init) ?? dotColour)
                    if ascii {
                        line += "."
                    } else {
                        line.unicodeScalars.append(Unicode.Scalar(0x2800 + UInt32(dots[cell]))!)
                    }
                }
            }
            paint(nil)
            return line
        }
    }
}
