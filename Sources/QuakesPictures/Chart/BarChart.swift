import Glibc
import QuakesCore

/// A histogram drawn in a terminal with Unicode block characters, eighths of a cell for the ends
/// (or `#` with `--ascii`), fitted to the terminal: one horizontal bar per bucket with its label and
/// count when the buckets fit in its height, else one column per bucket when they fit in its width;
/// a title line above and a scale under the bars. A chart that fits neither way is counted again in
/// wider buckets (`fits`) before it is drawn; one that fits in no buckets at all (a terminal of a
/// few lines or columns) is cut to the terminal.
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
    /// The shortest room a bar may have: below, the buckets are columns.
    private static let shortestBar = 10

    /// The lines the chart may take: the terminal's, but for the line the prompt comes back on
    /// and those reserved.
    private var available: Int { height == .max ? .max : max(height - 1 - reserved, 0) }

    /// True when `histogram` fits in the terminal, as bars or as columns.
    func fits(_ histogram: Histogram) -> Bool {
        var chart = self
        chart.histogram = histogram
        return histogram.buckets.isEmpty || chart.fitsAsBars || chart.fitsAsColumns
    }

    /// A bar per line, under the title and above the axis and the scale, each bar at least
    /// `shortestBar` cells beside its label and count.
    private var fitsAsBars: Bool {
        let buckets = histogram.buckets
        return buckets.count <= available - 3 && width - labelWidth - countWidth - 3 >= Self.shortestBar
    }

    /// A column per bucket, beside the axis's numbers, with at least a row for the columns between
    /// the title and the axis, its labels and the scale.
    private var fitsAsColumns: Bool {
        available - 4 >= 1 && histogram.buckets.count <= width - axisWidth - 2
    }

    private var labelWidth: Int { histogram.buckets.map { TerminalText.width($0.label) }.max() ?? 0 }
    private var countWidth: Int { histogram.buckets.map { String($0.count).count }.max() ?? 1 }
    private var axisWidth: Int { max(String(histogram.buckets.map(\.count).max() ?? 0).count, 1) }

    func render() -> String {
        let text = TerminalText.truncated(TerminalText.escaped(title), to: width) + "\n"
        let buckets = histogram.buckets
        guard !buckets.isEmpty else {
            return text + TerminalText.truncated(QuakeQuery.nothingMatches, to: width) + "\n"
        }
        if !fitsAsBars, fitsAsColumns { return text + columns(rows: available - 4) }
        let fitting = fitsAsBars
        let labelWidth = labelWidth
        let countWidth = countWidth
        let barWidth = max(fitting ? width - labelWidth - countWidth - 3 : 1, 1)
        let largest = buckets.map(\.count).max() ?? 0
        let top = value(max(largest, 1))
        var lines: [String] = []
        for bucket in buckets {
            let bar = Self.bar(value(bucket.count) / top * Double(barWidth), ascii: ascii)
            let coloured = colour && fitting && !bar.isEmpty ? "\u{1B}[36m" + bar + "\u{1B}[0m" : bar
            lines.append(
                TerminalText.padded(bucket.label, to: labelWidth) + " │" + coloured
                    + String(repeating: " ", count: max(0, barWidth - TerminalText.width(bar))) + " "
                    + String(bucket.count).leftPadded(to: countWidth, with: " "))
        }
        lines += [
            String(repeating: " ", count: labelWidth) + " └" + String(repeating: ascii ? "-" : "─", count: barWidth),
            String(repeating: " ", count: labelWidth + 2) + scale(largest),
        ]
        if !fitting {
            // No buckets fit this terminal: what fits of the widest, cut to it.
            lines = lines.prefix(max(available - 1, 0)).map { TerminalText.truncated($0, to: width) }
        }
        return text + lines.map { $0 + "\n" }.joined()
    }

    /// The chart as columns `rows` high, one per bucket, labelled with the first and last bucket.
    private func columns(rows: Int) -> String {
        let buckets = histogram.buckets
        let largest = buckets.map(\.count).max() ?? 0
        let axisWidth = axisWidth
        let room = width - axisWidth - 2
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
        let labels =
            String(repeating: " ", count: axisWidth + 2) + first
            + (gap >= 1 ? String(repeating: " ", count: gap) + last : "")
        let note = String(repeating: " ", count: axisWidth + 2) + "one column per bucket, " + scale(largest)
        return text + [labels, note].map { TerminalText.truncated($0, to: width) + "\n" }.joined()
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
