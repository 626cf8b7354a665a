/// What a listing can be divided into sections by, like a sectioned fetch request.
public enum SectionKey: String, Sendable, CaseIterable {
    case hour, day, week, month, magnitude, type, network, alert

    /// What `--section` accepts, for messages.
    static let form = "one of " + allCases.map(\.rawValue).concatenated(separator: ", ")

    /// The sort key whose order is this key's own: sections follow its direction when it sorts first.
    var sortKey: SortSpec.Key? {
        switch self {
        case .hour, .day, .week, .month: .time
        case .magnitude: .magnitude
        case .type, .network, .alert: nil
        }
    }

    /// The local calendar unit of the time keys.
    package var unit: DisplayZone.Unit? {
        switch self {
        case .hour: .hour
        case .day: .day
        case .week: .week
        case .month: .month
        default: nil
        }
    }

    /// A row's section, computed in Swift exactly as `expression` computes it in SQL.
    func value(of quake: Quake, zone: DisplayZone) -> SectionValue {
        switch self {
        case .hour, .day, .week, .month: .number(zone.number(quake.time, in: unit!))
        case .magnitude: quake.magnitude.map { .number(Self.band(of: $0)) } ?? .none
        case .type: quake.eventType.map { .text(TextFolding.asciiLowercased($0)) } ?? .none
        case .network: quake.network.map { .text($0) } ?? .none
        case .alert: quake.alert.map { .text(TextFolding.asciiLowercased($0)) } ?? .none
        }
    }

    /// The magnitude band of `magnitude`: its whole part, floor(mag), as every engine computes it.
    /// A feed may carry any number (1e300); beyond ±2^53 (where doubles stop holding every whole
    /// number) the band is the outermost one, whose section holds everything beyond.
    package static func band(of magnitude: Double) -> Int64 {
        Int64(min(max(magnitude.rounded(.down), -Double(outermostBand)), Double(outermostBand)))
    }

    /// 2^53; `PostgresQuery` writes it in SQL too. Computed, not a `static let`: a lazily made
    /// static takes a `swift_once`, which can hang threads under ThreadSanitizer.
    package static var outermostBand: Int64 { 1 << 53 }

    /// The magnitudes whose band is `band`: the outermost bands reach to infinity.
    private static func magnitudes(inBand band: Int64) -> Range<Double> {
        let lower: Double = band <= -outermostBand ? -.infinity : Double(band)
        let upper: Double = band >= outermostBand ? .infinity : Double(band + 1)
        return lower..<upper
    }

    /// Which rows a section holds, as ranges where it has them (so that an engine's indexes serve
    /// them): an hour, day, week or month of the zone's clocks, a magnitude band, or one text.
    package enum Rows: Equatable {
        /// The rows without a value, in the `unknown` section.
        case missing
        case times(Range<Int64>)
        case magnitudes(Range<Double>)
        /// Rows whose section value, as `value(of:zone:)` computes it, is this text.
        case text(String)
    }

    /// The rows of the section with `value`.
    func rows(of value: SectionValue, zone: DisplayZone) -> Rows {
        switch (self, value) {
        case (_, .none): .missing
        case let (.magnitude, .number(band)): .magnitudes(Self.magnitudes(inBand: band))
        case let (_, .number(number)): .times(zone.start(of: number, in: unit!)..<zone.start(of: number + 1, in: unit!))
        case let (_, .text(text)): .text(text)
        }
    }

    /// The field whose missing value puts a row in the `unknown` section.
    package var field: QuakeField {
        switch self {
        case .magnitude: .magnitude
        case .type: .eventType
        case .network: .network
        case .alert: .alert
        case .hour, .day, .week, .month: .time
        }
    }

    /// True when `left` comes before `right` in the key's natural order: newest time first, highest
    /// magnitude first, alerts by severity, types and networks A to Z; the unknown section last.
    /// With `ascending` (when this key's own sort key sorts first), numbers go the other way.
    func precedes(_ left: SectionValue, _ right: SectionValue, ascending: Bool? = nil) -> Bool {
        switch (left, right) {
        case (.none, _): return false
        case (_, .none): return true
        case let (.number(a), .number(b)): return ascending ?? false ? a < b : a > b
        case let (.text(a), .text(b)):
            if self == .alert, alertRank(a) != alertRank(b) { return alertRank(a) < alertRank(b) }
            return a < b
        case (.number, .text): return true
        case (.text, .number): return false
        }
    }

    private func alertRank(_ alert: String) -> Int {
        ["red", "orange", "yellow", "green", "pending"].firstIndex(of: alert) ?? 5
    }

    /// The section's id and title: `2021-07-20` and `July 20, 2021`, `4` and `Magnitude 4`.
    package func label(for value: SectionValue) -> (id: String, title: String) {
        switch (self, value) {
        case (.magnitude, .none): return ("unknown", "Unknown magnitude")
        case (.alert, .none): return ("none", "No alert")
        case (_, .none): return ("unknown", "Unknown \(self == .type ? "type" : "network")")
        case let (.magnitude, .number(band)): return (String(band), "Magnitude \(band)")
        case let (.hour, .number(hour)):
            let fields = CivilTime.fields(hour * 3_600_000)
            return (
                CivilTime.date(fields) + "T" + CivilTime.pad(fields.hour, 2),
                longDate(fields) + ", " + CivilTime.pad(fields.hour, 2) + ":00"
            )
        case let (.day, .number(day)):
            let fields = CivilTime.fields(day * CivilTime.millisecondsPerDay)
            return (CivilTime.date(fields), longDate(fields))
        case let (.week, .number(week)):
            let monday = week * 7 - 3
            let thursday = CivilTime.fields((monday + 3) * CivilTime.millisecondsPerDay)
            let weekNumber =
                (thursday.day - 1 + CivilTime.days(year: thursday.year, month: thursday.month, day: 1)
                    - CivilTime.days(year: thursday.year, month: 1, day: 1)) / 7 + 1
            return (
                "\(CivilTime.year(thursday.year))-W\(CivilTime.pad(weekNumber, 2))",
                "Week of " + longDate(CivilTime.fields(monday * CivilTime.millisecondsPerDay))
            )
        case let (.month, .number(month)):
            let year = CivilTime.floorDivide(month, 12)
            let monthOfYear = month - year * 12
            return (
                "\(CivilTime.year(year))-\(CivilTime.pad(monthOfYear + 1, 2))",
                "\(CivilTime.monthNames[Int(monthOfYear)]) \(year)"
            )
        case let (.alert, .text(alert)): return (alert, alert.prefix(1).uppercased() + alert.dropFirst() + " alert")
        case let (.network, .text(network)): return (network, "Network \(network.uppercased())")
        case let (_, .text(text)): return (text, text.prefix(1).uppercased() + text.dropFirst())
        case let (_, .number(number)): return (String(number), String(number))
        }
    }

    private func longDate(_ fields: CivilTime.Fields) -> String {
        "\(CivilTime.monthNames[Int(fields.month) - 1]) \(fields.day), \(fields.year)"
    }
}

/// Which section a row is in: a number (a local time unit, a magnitude band), a text (a type,
/// network or alert), or none, for the `unknown` section.
public enum SectionValue: Sendable, Hashable {
    case number(Int64)
    case text(String)
    case none
}
