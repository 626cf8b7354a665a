import Glibc
import QuakesCore

/// A histogram drawn in a terminal with Unicode block characters, eighths of a cell for the ends
/// (or `#` with `--ascii`), fitted to the terminal: one horizontal bar per bucket with its label and
/// count when the buckets fit in its height, else one column per bucket when they fit in its width;
/// a title line above and a scale under the bars.
struct BarChart {
    var histogram: Histogram
    var title: String
    var width: Int
    /// The terminal's height; `reserved` of its lines are for what the caller prints after.
    var height = Int.max
    var reserved = 0
    var ascii = false
    var colour = false

    private static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    func render() -> String {
        var text = TerminalText.truncated(TerminalText.escaped(title), to: width) + "\n"
        let buckets = histogram.buckets
        guard !buckets.isEmpty else { return text + QuakeQuery.nothingMatches + "\n" }
        // The title, the axis and the scale, and the line the prompt comes back on.
        let rows = height == .max ? .max : height - 4 - reserved
        if buckets.count > rows, let columns = columns(rows: max(rows - 1, 3)) { return text + columns }
        let labelWidth = buckets.map { TerminalText.width($0.label) }.max() ?? 0
        let countWidth = buckets.map { String($0.count).count }.max() ?? 1
        let barWidth = max(10, width - labelWidth - countWidth - 3)
        let largest = buckets.map(\.count).max() ?? 0
        let top = value(max(largest, 1))
        for bucket in buckets {
            let bar = Self.bar(value(bucket.count) / top * Double(barWidth), ascii: ascii)
            let coloured = colour && !bar.isEmpty ? "\u{1B}[36m" + bar + "\u{1B}[0m" : bar
            text +=
                TerminalText.padded(bucket.label, to: labelWidth) + " │" + coloured
                + String(repeating: " ", count: max(0, barWidth - TerminalText.width(bar))) + " "
                + String(bucket.count).leftPadded(to: countWidth, with: " ") + "\n"
        }
        text +=
            String(repeating: " ", count: labelWidth) + " └" + String(repeating: ascii ? "-" : "─", count: barWidth)
            + "\n" + String(repeating: " ", count: labelWidth + 2) + scale(largest) + "\n"
        return text
    }

    /// The chart as columns `rows` high, one per bucket, labelled with the first and last bucket;
    /// nil when they do not fit in the width.
    private func columns(rows: Int) -> String? {
        let buckets = histogram.buckets
        let largest = buckets.map(\.count).max() ?? 0
        let axisWidth = max(String(largest).count, 1)
        let room = width - axisWidth - 2
        guard buckets.count <= room else { return nil }
        // Wider columns when there is room, with a gap between them from three cells.
        let cell = min(max(room / buckets.count, 1), 3)
        let top = value(largest)
        var text = ""
        let levels =
            ascii ? [" ", " ", " ", " ", "#", "#", "#", "#", "#"] : [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        for row in (0..<rows).reversed() {
            let label = row == rows - 1 ? String(largest) : row == 0 ? "0" : ""
            var line = label.leftPadded(to: axisWidth, with: " ") + " │"
            var bars = ""
            for bucket in buckets {
                let eighths = Int((value(bucket.count) / max(top, 1) * Double(rows * 8)).rounded())
                let level = levels[min(max(eighths - row * 8, 0), 8)]
                bars += String(repeating: level, count: cell == 3 ? 2 : cell) + (cell == 3 ? " " : "")
            }
            while bars.hasSuffix(" ") { bars.removeLast() }
            line += colour && !bars.isEmpty ? "\u{1B}[36m" + bars + "\u{1B}[0m" : bars
            text += line + "\n"
        }
        let span = buckets.count * cell
        text +=
            String(repeating: " ", count: axisWidth) + " └" + String(repeating: ascii ? "-" : "─", count: span) + "\n"
        let first = buckets[0].label
        let last = buckets[buckets.count - 1].label
        let gap = span - TerminalText.width(first) - TerminalText.width(last)
        text +=
            String(repeating: " ", count: axisWidth + 2) + first
            + (gap >= 1 ? String(repeating: " ", count: gap) + last : "") + "\n"
        return text + String(repeating: " ", count: axisWidth + 2) + "one column per bucket, " + scale(largest) + "\n"
    }

    /// What the bars' lengths run over, said under them.
    private func scale(_ largest: Int) -> String {
        histogram.isCumulative ? "log scale, 1 to \(largest)" : "0 to \(largest)"
    }

    /// A count as drawn: itself, or on the log scale of the cumulative distribution, where a
    /// power law is a line.
    private func value(_ count: Int) -> Double {
        histogram.isCumulative ? (count > 0 ? log10(Double(count)) + 1 : 0) : Double(count)
    }

    /// `cells` cells of bar: whole blocks, then the eighth block nearest the rest.
    static func bar(_ cells: Double, ascii: Bool) -> String {
        let cells = max(0, cells)
        if ascii { return String(repeating: "#", count: Int(cells.rounded())) }
        let eighthsTotal = Int((cells * 8).rounded())
        return String(repeating: "█", count: eighthsTotal / 8) + eighths[eighthsTotal % 8]
    }
}
