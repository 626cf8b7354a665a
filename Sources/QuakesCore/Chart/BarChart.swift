import Foundation

/// A histogram drawn in a terminal as horizontal bars of Unicode block characters, eighths of a
/// cell for the ends (or `#` with `--ascii`), fitted to a width: a title line, one bar per bucket
/// with its label and count, and a scale under the bars.
struct BarChart {
    var histogram: Histogram
    var title: String
    var width: Int
    var ascii = false
    var colour = false

    private static let eighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]

    func render() -> String {
        var text = TerminalText.escaped(title) + "\n"
        let buckets = histogram.buckets
        guard !buckets.isEmpty else { return text + "No events match.\n" }
        let labelWidth = buckets.map { TerminalText.width($0.label) }.max() ?? 0
        let countWidth = buckets.map { String($0.count).count }.max() ?? 1
        let barWidth = max(10, width - labelWidth - countWidth - 3)
        let largest = buckets.map(\.count).max() ?? 0
        // The cumulative distribution is drawn on a log scale, where a power law is a line.
        let top = histogram.isCumulative ? log10(Double(max(largest, 1))) + 1 : Double(max(largest, 1))
        for bucket in buckets {
            let value =
                histogram.isCumulative
                ? (bucket.count > 0 ? log10(Double(bucket.count)) + 1 : 0) : Double(bucket.count)
            let bar = Self.bar(value / top * Double(barWidth), ascii: ascii)
            let coloured = colour && !bar.isEmpty ? "\u{1B}[36m" + bar + "\u{1B}[0m" : bar
            text +=
                TerminalText.padded(bucket.label, to: labelWidth) + " │" + coloured
                + String(repeating: " ", count: max(0, barWidth - TerminalText.width(bar))) + " "
                + String(bucket.count).leftPadded(to: countWidth, with: " ") + "\n"
        }
        let scale = histogram.isCumulative ? "log scale, 1 to \(largest)" : "0 to \(largest)"
        text +=
            String(repeating: " ", count: labelWidth) + " └" + String(repeating: ascii ? "-" : "─", count: barWidth)
            + "\n" + String(repeating: " ", count: labelWidth + 2) + scale + "\n"
        return text
    }

    /// `cells` cells of bar: whole blocks, then the eighth block nearest the rest.
    static func bar(_ cells: Double, ascii: Bool) -> String {
        let cells = max(0, cells)
        if ascii { return String(repeating: "#", count: Int(cells.rounded())) }
        let eighthsTotal = Int((cells * 8).rounded())
        return String(repeating: "█", count: eighthsTotal / 8) + eighths[eighthsTotal % 8]
    }
}
