import Locking

/// The time zone times are shown in, and the local calendar that sections by day, hour, week and
/// month follow, daylight saving time included.
///
/// It is the `TZ` variable's zone (the system's when unset), or UTC with `--utc`. Machine formats
/// always write UTC; only the table and section titles use this zone.
public struct DisplayZone: Sendable, Equatable {
    private let source: Source

    public static let utc = DisplayZone(source: .utc)

    private init(source: Source) {
        self.source = source
    }

    /// The zone named by `TZ` (`America/Los_Angeles`, `:Europe/Paris`, `UTC`, a POSIX rule such as
    /// `EST5EDT`), the system's when it is unset or empty, and UTC when it names no zone (as the C
    /// library does). It is looked up only when first used.
    public init(tz: String?) {
        self.init(source: .lookUp(ZoneLookUp(tz: tz)))
    }

    /// The zone's name as the user knows it: `America/Los_Angeles`, and `UTC` for every zone whose
    /// offset is always zero, however `TZ` or the system names it (`Etc/UTC`, `Zulu`, `UTC0`,
    /// `Etc/GMT`): headings, titles and the `zone` of machine formats all say `UTC` for it.
    public var name: String {
        switch source {
        case .utc: "UTC"
        case let .lookUp(lookUp): lookUp.result.name
        }
    }

    /// The zone's offset from UTC at `milliseconds`, in milliseconds.
    public func offset(at milliseconds: Int64) -> Int64 {
        switch source {
        case .utc: 0
        case let .lookUp(lookUp):
            Int64(lookUp.result.zone.offset(at: CivilTime.floorDivide(milliseconds, 1000))) * 1000
        }
    }

    public static func == (left: DisplayZone, right: DisplayZone) -> Bool {
        left.name == right.name
    }

    private enum Source: Sendable {
        case utc
        case lookUp(ZoneLookUp)
    }

    /// `TZ`'s zone, looked up on first use: a look-up reads a file of the time zone database, which
    /// `quakes count --last 5h` does not need to pay for.
    private final class ZoneLookUp: Sendable {
        private let tz: String?
        private let cache = Locked<(zone: ZoneRules, name: String)?>(nil)

        init(tz: String?) {
            self.tz = tz
        }

        /// The zone and its name.
        var result: (zone: ZoneRules, name: String) {
            cache.withLock { cached in
                if let cached { return cached }
                let found = Self.find(tz)
                cached = found
                return found
            }
        }

        private static func find(_ tz: String?) -> (zone: ZoneRules, name: String) {
            let found: (zone: ZoneRules, name: String)
            if var name = tz, !name.isEmpty {
                if name.hasPrefix(":") { name.removeFirst() }
                found = ZoneRules.named(name).map { ($0, name) } ?? (.utc, "UTC")
            } else {
                found = ZoneRules.system() ?? (.utc, "UTC")
            }
            return found.zone.isUTC ? (found.zone, "UTC") : found
        }
    }

    /// Local calendar fields of a moment.
    func fields(_ milliseconds: Int64) -> CivilTime.Fields {
        CivilTime.fields(milliseconds, offset: offset(at: milliseconds))
    }

    /// `2021-07-22 20:39:44`: a moment as the zone's clocks read it, to the second.
    package func dateAndTime(_ milliseconds: Int64) -> String {
        let local = fields(milliseconds)
        return CivilTime.date(local) + " " + CivilTime.clock(local)
    }

    /// `+02:00`, `-07:00` or `Z`: the offset at a moment, as ISO 8601 writes it.
    func offsetText(at milliseconds: Int64) -> String {
        let minutes = offset(at: milliseconds) / 60_000
        guard minutes != 0 else { return "Z" }
        return (minutes < 0 ? "-" : "+") + CivilTime.pad(abs(minutes) / 60, 2) + ":"
            + CivilTime.pad(abs(minutes) % 60, 2)
    }

    /// The instant at which this zone's clocks read `local` (milliseconds of a UTC calendar with the
    /// same fields). A time that happens twice, when clocks are set back, is its first; one that
    /// never happens, skipped when clocks go forward, is read with the offset before the change, so
    /// it lands as far past the change as it was past the skipped hour's start.
    func instant(ofLocal local: Int64) -> Int64 {
        // No zone changes its offset twice within two days.
        let before = offset(at: local - 2 * CivilTime.millisecondsPerDay)
        let after = offset(at: local + 2 * CivilTime.millisecondsPerDay)
        let candidates = [local - before, local - after].filter { $0 + offset(at: $0) == local }
        return candidates.min() ?? local - before
    }

    /// Units of local calendar time that sections group by.
    package enum Unit: Sendable {
        case hour, day, week, month
    }

    /// The local hour, day, ISO week (from Monday) or month of a moment, as a number that grows
    /// with time: hours or days since 1970-01-01 local, weeks since the Monday before it, or
    /// `year * 12 + month - 1`.
    package func number(_ milliseconds: Int64, in unit: Unit) -> Int64 {
        let local = milliseconds + offset(at: milliseconds)
        switch unit {
        case .hour:
            return CivilTime.floorDivide(local, 3_600_000)
        case .day:
            return CivilTime.floorDivide(local, CivilTime.millisecondsPerDay)
        case .week:
            // 1970-01-01 was a Thursday, three days after a Monday.
            return CivilTime.floorDivide(CivilTime.floorDivide(local, CivilTime.millisecondsPerDay) + 3, 7)
        case .month:
            let fields = CivilTime.fields(local)
            return fields.year * 12 + fields.month - 1
        }
    }

    /// The first moment whose number in `unit` is at least `number`: where a local hour, day, week
    /// or month starts, daylight saving time and all (a day that skips midnight starts at 01:00).
    ///
    /// Local numbers never go down as time goes on (clocks set back land in the same hour and day),
    /// so a binary search around the UTC estimate finds it.
    func start(of number: Int64, in unit: Unit) -> Int64 {
        let estimate: Int64 =
            switch unit {
            case .hour: number * 3_600_000
            case .day: number * CivilTime.millisecondsPerDay
            case .week: (number * 7 - 3) * CivilTime.millisecondsPerDay
            case .month:
                CivilTime.milliseconds(
                    year: CivilTime.floorDivide(number, 12), month: number - CivilTime.floorDivide(number, 12) * 12 + 1,
                    day: 1)
            }
        // No zone is more than a day and a half from UTC.
        var low = estimate - 2 * CivilTime.millisecondsPerDay
        var high = estimate + 2 * CivilTime.millisecondsPerDay
        while low < high {
            let middle = low + (high - low) / 2
            if self.number(middle, in: unit) >= number { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
