import Glibc
import QuakesCore

/// A histogram as a picture: a column per bucket on a linear axis (or points on a log axis for the
/// cumulative magnitude–frequency distribution, with the Gutenberg–Richter line of its b-value),
/// labelled axes, and the title; the same data as the terminal's bars.
struct ChartPicture {
    var histogram: Histogram
    var estimate: GutenbergRichter?
    var title: String
    var subtitle: String
    var width: Double
    var height: Double

    private static let bar = Colour(hex: 0x2B8CBE)
    private static let grid = Colour(hex: 0xDDDDDD)

    func drawing() -> Drawing {
        var items: [Drawing.Item] = [
            .text(title, at: .init(x: 12, y: 24), size: 16, anchor: .start, colour: MapStyle.ink, bold: true),
            .text(subtitle, at: .init(x: 12, y: 44), size: 12, anchor: .start, colour: MapStyle.faint, bold: false),
        ]
        let plot = Drawing.Rectangle(x: 70, y: 64, width: max(width - 90, 10), height: max(height - 64 - 56, 10))
        let buckets = histogram.buckets
        guard !buckets.isEmpty else {
            items.append(
                .text(
                    QuakeQuery.nothingMatches, at: .init(x: plot.x + plot.width / 2, y: plot.y + plot.height / 2),
                    size: 14,
                    anchor: .middle, colour: MapStyle.faint, bold: false))
            return Drawing(width: width, height: height, title: title, items: items)
        }
        let largest = Double(max(buckets.map(\.count).max() ?? 1, 1))
        let logarithmic = histogram.isCumulative
        // The axis: round steps for counts, decades for the log scale.
        let top: Double
        let ticks: [Double]
        if logarithmic {
            top = pow(10, max(log10(largest).rounded(.up), 1))
            ticks = (0...Int(log10(top))).map { pow(10, Double($0)) }
        } else {
            let step = Self.roundStep(largest / 5)
            top = (largest / step).rounded(.up) * step
            ticks = stride(from: 0, through: top, by: step).map { $0 }
        }
        func y(_ value: Double) -> Double {
            let share = logarithmic ? (value > 0 ? log10(value) / log10(top) : 0) : value / top
            return plot.y + plot.height * (1 - min(max(share, 0), 1))
        }
        for tick in ticks {
            items.append(
                .path(
                    [[.init(x: plot.x, y: y(tick)), .init(x: plot.x + plot.width, y: y(tick))]], closed: false,
                    .stroked(Self.grid, width: 0.8)))
            items.append(
                .text(
                    TerminalText.grouped(Int(tick)), at: .init(x: plot.x - 6, y: y(tick) + 4), size: 11, anchor: .end,
                    colour: MapStyle.ink, bold: false))
        }
        let slot = plot.width / Double(buckets.count)
        let gap = slot > 4 ? slot * 0.15 : 0
        for (index, bucket) in buckets.enumerated() where bucket.count > 0 {
            let x = plot.x + Double(index) * slot
            if logarithmic {
                items.append(
                    .circle(
                        centre: .init(x: x + slot / 2, y: y(Double(bucket.count))), radius: min(max(slot / 3, 1.5), 4),
                        .filled(Self.bar), mark: nil))
            } else {
                let top = y(Double(bucket.count))
                items.append(
                    .rectangle(
                        .init(x: x + gap / 2, y: top, width: max(slot - gap, 0.5), height: plot.y + plot.height - top),
                        .filled(Self.bar)))
            }
        }
        if logarithmic {
            let fitted = estimate.map { fit($0, slot: slot, plot: plot, y: y) } ?? []
            items +=
                fitted.isEmpty
                ? [
                    .text(
                        estimate?.line ?? GutenbergRichter.tooFewEvents,
                        at: .init(x: plot.x + plot.width - 4, y: plot.y + 14), size: 12, anchor: .end,
                        colour: Colour(hex: 0xD7301F), bold: false)
                ] : fitted
        }
        // Labels under the axis, as many as fit without touching.
        let labelWidth = Double(buckets.map { $0.label.count }.max() ?? 1) * 6.6 + 10
        let every = max(Int((labelWidth / slot).rounded(.up)), 1)
        for index in stride(from: 0, to: buckets.count, by: every) {
            items.append(
                .text(
                    buckets[index].label,
                    at: .init(x: plot.x + (Double(index) + 0.5) * slot, y: plot.y + plot.height + 18),
                    size: 11, anchor: .middle, colour: MapStyle.ink, bold: false))
        }
        items.append(
            .path(
                [
                    [
                        .init(x: plot.x, y: plot.y), .init(x: plot.x, y: plot.y + plot.height),
                        .init(x: plot.x + plot.width, y: plot.y + plot.height),
                    ]
                ], closed: false, .stroked(MapStyle.ink)))
        items.append(
            .text(
                axisName, at: .init(x: plot.x + plot.width / 2, y: height - 10), size: 12, anchor: .middle,
                colour: MapStyle.faint, bold: false))
        return Drawing(width: width, height: height, title: title, items: items)
    }

    private var axisName: String {
        switch histogram.dimension {
        case .magnitude:
            histogram.isCumulative ? "magnitude M; events with a magnitude of at least M, log scale" : "magnitude"
        case .depth: "depth"
        default: histogram.dimension.rawValue
        }
    }

    /// The line log10 N = a − bM over the magnitudes from Mc, through N(≥Mc).
    private func fit(_ estimate: GutenbergRichter, slot: Double, plot: Drawing.Rectangle, y: (Double) -> Double)
        -> [Drawing.Item]
    {
        let magnitudes = histogram.buckets.compactMap { Double($0.label) }
        guard magnitudes.count == histogram.buckets.count, let first = magnitudes.first, magnitudes.count > 1 else {
            return []
        }
        let step = (magnitudes[magnitudes.count - 1] - first) / Double(magnitudes.count - 1)
        guard step > 0,
            let atMc = zip(magnitudes, histogram.buckets).first(where: { $0.0 >= estimate.completeness - step / 2 })
        else { return [] }
        let a = log10(Double(atMc.1.count)) + estimate.bValue * atMc.0
        func x(_ magnitude: Double) -> Double { plot.x + ((magnitude - first) / step + 0.5) * slot }
        let end = magnitudes[magnitudes.count - 1]
        let points = stride(from: atMc.0, through: end, by: step).map { magnitude in
            Drawing.Point(x: x(magnitude), y: y(pow(10, a - estimate.bValue * magnitude)))
        }
        return [
            .path([points], closed: false, .stroked(Colour(hex: 0xD7301F), width: 1.5)),
            .path(
                [[.init(x: x(atMc.0), y: plot.y), .init(x: x(atMc.0), y: plot.y + plot.height)]], closed: false,
                .stroked(Colour(hex: 0xD7301F, alpha: 0.5), width: 1)),
            .text(
                estimate.line, at: .init(x: plot.x + plot.width - 4, y: plot.y + 14), size: 12, anchor: .end,
                colour: Colour(hex: 0xD7301F), bold: false),
        ]
    }

    /// 1, 2 or 5 times a power of ten, at least `value`.
    static func roundStep(_ value: Double) -> Double {
        guard value > 1 else { return 1 }
        let power = pow(10, log10(value).rounded(.down))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= value } ?? 10 * power
    }
}
