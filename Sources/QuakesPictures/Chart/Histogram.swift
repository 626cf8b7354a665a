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

    /// The most buckets a chart draws: beyond, the query must narrow.
    static let maximumBuckets = 1000

    /// Counts by a calendar unit or by magnitude band, from the engine's section counts, with the
    /// empty sections between the first and the last filled in.
    static func counts(_ key: SectionKey, _ filter: QuakeFilter, zone: DisplayZone, reader: any QuakeReading)
        throws -> [Bucket]
    {
        let counts = try reader.sectionCounts(key, filter, zone: zone)
        var numbers: [Int64: Int] = [:]
        for case let (.number(number), count) in counts { numbers[number] = count }
        guard let first = numbers.keys.min(), let last = numbers.keys.max() else { return [] }
        guard last - first < Int64(maximumBuckets) else {
            throw UsageError(
                "The chart would have \(last - first + 1) buckets (at most \(maximumBuckets)): narrow the query (--since, --until) or count by a longer unit (--by)"
            )
        }
        return (first...last).map { number in
            Bucket(label: key.label(for: .number(number)).id, count: numbers[number] ?? 0)
        }
    }

    /// Counts by depth in bins of a round width (1, 2, 5, 10, 20, 50 or 100 km) that gives at most
    /// `target` bins.
    static func depths(_ depths: [Double], target: Int = 20) throws(UsageError) -> [Bucket] {
        guard let lowest = depths.min(), let highest = depths.max() else { return [] }
        let width = [1.0, 2, 5, 10, 20, 50, 100, 200].first { (highest - lowest) / $0 < Double(target) } ?? 500
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

    /// The cumulative magnitude–frequency distribution: N(≥M) at every bin of `width`.
    static func cumulative(_ magnitudes: [Double], width: Double) throws(UsageError) -> [Bucket] {
        guard let lowest = magnitudes.min(), let highest = magnitudes.max() else { return [] }
        try checkRange(lowest, highest, width: width, of: "magnitudes", narrowedBy: "--min-magnitude, --max-magnitude")
        let first = Int64((lowest / width).rounded())
        let last = Int64((highest / width).rounded())
        var counts = [Int](repeating: 0, count: Int(last - first + 1))
        for magnitude in magnitudes { counts[Int(Int64((magnitude / width).rounded()) - first)] += 1 }
        var above = 0
        var buckets: [Bucket] = []
        for (offset, count) in counts.enumerated().reversed() {
            above += count
            let magnitude = Double(first + Int64(offset)) * width
            buckets.append(Bucket(label: String(cFormat: width < 0.1 ? "%.2f" : "%.1f", magnitude), count: above))
        }
        return buckets.reversed()
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
