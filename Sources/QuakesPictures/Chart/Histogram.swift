import QuakesCore

/// What a chart shows: counts in buckets, in order, empty buckets included (a gap in time is
/// information), from the same query as `list`.
struct Histogram: Sendable, Equatable {
    /// What the events are counted by.
    enum Dimension: String, Sendable, CaseIterable {
        case hour, day, week, month, magnitude, depth
    }

    struct Bucket: Sendable, Equatable {
        var label: String
        var count: Int
    }

    var dimension: Dimension
    var buckets: [Bucket]
    /// True for a cumulative magnitude–frequency distribution, N(≥M), drawn on a log scale.
    var isCumulative = false
    /// What one bucket is, as the title says it: the dimension's name (`hour`, `depth`), or the
    /// wider bucket a terminal chart counts by instead (`6 hours`, `2 magnitude units`).
    var unit: String

    init(dimension: Dimension, buckets: [Bucket], isCumulative: Bool = false, unit: String? = nil) {
        self.dimension = dimension
        self.buckets = buckets
        self.isCumulative = isCumulative
        self.unit = unit ?? dimension.rawValue
    }

    /// The most buckets a chart draws: beyond, the query must narrow.
    static let maximumBuckets = 1000

    /// The events counted by a calendar unit or by magnitude band: each section's number (a local
    /// hour, day, week or month, a band) and its count, as the engine counts `--section`.
    static func sectionNumbers(_ key: SectionKey, _ filter: QuakeFilter, zone: DisplayZone, reader: any QuakeReading)
        throws -> [Int64: Int]
    {
        var numbers: [Int64: Int] = [:]
        for case let (.number(number), count) in try reader.sectionCounts(key, filter, zone: zone) {
            numbers[number] = count
        }
        return numbers
    }

    /// Counts by a calendar unit or by magnitude band, from the engine's section counts
    /// (`sectionNumbers`), with the empty sections between the first and the last filled in.
    static func counts(_ key: SectionKey, _ numbers: [Int64: Int]) throws(UsageError) -> [Bucket] {
        guard let first = numbers.keys.min(), let last = numbers.keys.max() else { return [] }
        guard last - first < Int64(maximumBuckets) else {
            throw UsageError(
                "The chart would have \(last - first + 1) buckets (at most \(maximumBuckets)): narrow the query (--since, --until) or count by a longer unit (--by)"
            )
        }
        return Bins(key: key).buckets(numbers)
    }

    /// Buckets of `every` consecutive sections of `key`: 2, 3, 6 or 12 hours from the zone's
    /// midnight, 2 days, 3 or 6 months and whole years from January, or magnitude bands 2, 5, 10…
    /// units wide from a multiple of the width.
    struct Bins: Sendable, Equatable {
        var key: SectionKey
        var every: Int64 = 1

        /// The wider buckets a terminal chart counts by when these do not fit, narrowest first:
        /// hour → 2, 3, 6, 12 hours → day → 2 days → week → month → 3, 6 months → 1, 2, 5, 10… years;
        /// magnitude bands 2, 5, 10, 20… units wide.
        var wider: [Bins] {
            let time: [Bins] =
                [1, 2, 3, 6, 12].map { Bins(key: .hour, every: $0) } + [1, 2].map { Bins(key: .day, every: $0) }
                + [Bins(key: .week)] + [1, 3, 6].map { Bins(key: .month, every: $0) }
                + Histogram.roundNumbers(upTo: 1000).map { Bins(key: .month, every: 12 * $0) }
            let ladder =
                key == .magnitude ? Histogram.roundNumbers(upTo: 2000).map { Bins(key: .magnitude, every: $0) } : time
            guard let index = ladder.firstIndex(of: self) else { return [] }
            return Array(ladder[(index + 1)...])
        }

        /// What a bucket is, as the title says it: `hour`, `6 hours`, `week`, `year`, `2 magnitude units`.
        var name: String {
            let (unit, count) = key == .month && every % 12 == 0 ? ("year", every / 12) : (key.rawValue, every)
            guard count > 1 else { return unit }
            return key == .magnitude ? "\(count) magnitude units" : "\(count) \(unit)s"
        }

        /// The buckets of the sections' counts (number → count), from the first to the last, empty
        /// ones included.
        func buckets(_ numbers: [Int64: Int]) -> [Bucket] {
            var groups: [Int64: Int] = [:]
            for (number, count) in numbers { groups[Histogram.floorDivide(number, every), default: 0] += count }
            guard let first = groups.keys.min(), let last = groups.keys.max() else { return [] }
            return (first...last).map { Bucket(label: label(of: $0), count: groups[$0] ?? 0) }
        }

        /// A bucket's label: its first section's (`2021-07-21T06`, `2021-07`), a year (`2021`), or
        /// a band of magnitudes (`4–6`, from 4 up to 6).
        private func label(of group: Int64) -> String {
            let start = group * every
            let id = key.label(for: .number(start)).id
            switch key {
            case .magnitude where every > 1: return "\(start)–\(start + every)"
            case .month where every % 12 == 0: return id.lastIndex(of: "-").map { String(id[..<$0]) } ?? id
            default: return id
            }
        }
    }

    /// The depth bin width `depths` needs for at most `target` bins: a round width from 1 to 500 km.
    static func depthWidth(_ depths: [Double], target: Int = 20) -> Double {
        guard let lowest = depths.min(), let highest = depths.max() else { return 1 }
        return [1.0, 2, 5, 10, 20, 50, 100, 200].first { (highest - lowest) / $0 < Double(target) } ?? 500
    }

    /// The round depth widths wider than `width`, narrowest first, that a terminal chart counts by
    /// when bins of `width` do not fit, to a million kilometres (a feed's depths span at most 1,000
    /// bins of 500 km).
    static func widerDepths(than width: Double) -> [Double] {
        roundNumbers(upTo: 1_000_000).map(Double.init).filter { $0 > width }
    }

    /// How a depth chart's bins of `width` are named in its title: `depth`, as asked, or `1,000 km of depth`.
    static func depthUnit(width: Double, asked: Double) -> String {
        width == asked ? Dimension.depth.rawValue : "\(TerminalText.grouped(Int(width))) km of depth"
    }

    /// Counts by depth in bins of `width` km (by default the round width that gives at most 20).
    static func depths(_ depths: [Double], width: Double? = nil) throws(UsageError) -> [Bucket] {
        guard let lowest = depths.min(), let highest = depths.max() else { return [] }
        let width = width ?? depthWidth(depths)
        try checkRange(lowest, highest, width: width, of: "depths", narrowedBy: "--min-depth, --max-depth")
        let first = Int((lowest / width).rounded(.down))
        let last = Int((highest / width).rounded(.down))
        var counts = [Int](repeating: 0, count: last - first + 1)
        for depth in depths { counts[Int((depth / width).rounded(.down)) - first] += 1 }
        return counts.enumerated().map { offset, count in
            let from = Double(first + offset) * width
            return Bucket(label: "\(FDSNService.number(from))–\(FDSNService.number(from + width)) km", count: count)
        }
    }

    /// The cumulative magnitude–frequency distribution: N(≥M) at every bin of `width`, or with
    /// `every`, at every `every`th (N(≥M) at M = 3.0, 3.5, 4.0… of magnitudes binned to 0.1).
    static func cumulative(_ magnitudes: [Double], width: Double, every: Int64 = 1) throws(UsageError) -> [Bucket] {
        guard let lowest = magnitudes.min(), let highest = magnitudes.max() else { return [] }
        try checkRange(lowest, highest, width: width, of: "magnitudes", narrowedBy: "--min-magnitude, --max-magnitude")
        let first = Int64((lowest / width).rounded())
        let last = Int64((highest / width).rounded())
        var counts = [Int](repeating: 0, count: Int(last - first + 1))
        for magnitude in magnitudes { counts[Int(Int64((magnitude / width).rounded()) - first)] += 1 }
        // N(≥M) at every bin, highest first, then those on the grid of `every` bins: below the
        // lowest bin, every magnitude is at least M.
        var above = 0
        var atLeast = [Int](repeating: 0, count: counts.count)
        for offset in counts.indices.reversed() {
            above += counts[offset]
            atLeast[offset] = above
        }
        return (floorDivide(first, every)...floorDivide(last, every)).map { step in
            let bin = step * every
            let magnitude = Double(bin) * width
            return Bucket(
                label: String(cFormat: width * Double(every) < 0.1 ? "%.2f" : "%.1f", magnitude),
                count: bin < first ? above : atLeast[Int(bin - first)])
        }
    }

    /// How a cumulative chart's magnitudes `every` bins of `width` apart are named in its title:
    /// `magnitude`, as asked, or `0.5 magnitude units`.
    static func cumulativeUnit(width: Double, every: Int64) -> String {
        guard every > 1 else { return Dimension.magnitude.rawValue }
        let step = (width * Double(every) * 100).rounded() / 100
        return "\(FDSNService.number(step)) magnitude unit" + (step == 1 ? "" : "s")
    }

    /// 1, 2, 5, 10, 20, 50… up to `limit`.
    static func roundNumbers(upTo limit: Int64) -> [Int64] {
        var numbers: [Int64] = []
        var power: Int64 = 1
        while power <= limit {
            numbers += [1, 2, 5].map { $0 * power }.filter { $0 <= limit }
            power *= 10
        }
        return numbers
    }

    static func floorDivide(_ number: Int64, _ divisor: Int64) -> Int64 {
        let quotient = number / divisor
        return number % divisor != 0 && (number < 0) != (divisor < 0) ? quotient - 1 : quotient
    }

    /// Refuses values that would need more than `maximumBuckets` bins of `width` (a feed may say any
    /// finite depth or magnitude, such as 1e300), before any is turned into a bin's number.
    private static func checkRange(
        _ lowest: Double, _ highest: Double, width: Double, of values: String, narrowedBy options: String
    ) throws(UsageError) {
        let bins = (highest - lowest) / width
        guard bins < Double(maximumBuckets), abs(lowest / width) < 1e12, abs(highest / width) < 1e12 else {
            throw UsageError(
                "The chart's \(values) span more than \(maximumBuckets) buckets (from \(lowest) to \(highest)): narrow the query (\(options))"
            )
        }
    }
}
