/// A POSIX time zone rule (`TZ` in POSIX, section 8.3; the footer of a TZif file, RFC 8536 3.3):
/// a standard offset, and optionally a daylight one with the yearly rules that switch between them.
/// `PST8PDT,M3.2.0,M11.1.0`, `<+0330>-3:30`, `AEST-10AEDT,M10.1.0,M4.1.0/3`.
struct PosixRule: Sendable, Equatable {
    /// Seconds east of UTC (POSIX writes them west: `PST8` is UTC−8).
    let standardOffset: Int32
    let daylight: Daylight?

    struct Daylight: Sendable, Equatable {
        let offset: Int32
        let start: Transition
        let end: Transition
    }

    /// A day of the year, and the local time on it (seconds, which may be negative or past a day)
    /// at which the change happens.
    struct Transition: Sendable, Equatable {
        enum Day: Sendable, Equatable {
            /// `Jn`: day 1–365, February 29 never counted.
            case julian(Int)
            /// `n`: day 0–365, February 29 counted in leap years.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday `d` (0 is Sunday) of week `w` (1–5, 5 the last) of month `m`.
            case month(Int, week: Int, weekday: Int)
        }

        let day: Day
        let time: Int32

        /// Seconds since 1970 of the change in `year`, counted in local time at `offset`.
        func seconds(in year: Int64, offset: Int32) -> Int64 {
            let january1 = CivilTime.days(year: year, month: 1, day: 1)
            let days: Int64
            switch day {
            case let .julian(number):
                let leap = CivilTime.daysInMonth(year: year, month: 2) == 29
                days = january1 + Int64(number - 1) + (leap && number >= 60 ? 1 : 0)
            case let .zeroBased(number):
                days = january1 + Int64(number)
            case let .month(month, week, weekday):
                let first = CivilTime.days(year: year, month: Int64(month), day: 1)
                // 1970-01-01 was a Thursday (weekday 4).
                let firstWeekday = first + 4 - CivilTime.floorDivide(first + 4, 7) * 7
                var day = first + (Int64(weekday) - firstWeekday + 7) % 7 + Int64(week - 1) * 7
                let length = CivilTime.daysInMonth(year: year, month: Int64(month))
                while day >= first + length { day -= 7 }
                days = day
            }
            return days * 86_400 + Int64(time) - Int64(offset)
        }
    }

    /// The offset at `seconds` since 1970.
    func offset(at seconds: Int64) -> Int32 {
        guard let daylight else { return standardOffset }
        let year = CivilTime.civil(fromDays: CivilTime.floorDivide(seconds + Int64(standardOffset), 86_400)).year
        // The start is written in standard time, the end in daylight time.
        let start = daylight.start.seconds(in: year, offset: standardOffset)
        let end = daylight.end.seconds(in: year, offset: daylight.offset)
        let inDaylight = start < end ? (start <= seconds && seconds < end) : !(end <= seconds && seconds < start)
        return inDaylight ? daylight.offset : standardOffset
    }

    // MARK: - Parsing

    init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard scanner.name(), let standard = scanner.offset() else { return nil }
        standardOffset = -standard
        guard !scanner.isAtEnd else {
            daylight = nil
            return
        }
        guard scanner.name() else { return nil }
        var daylightOffset = standardOffset + 3600
        if let offset = scanner.offset() { daylightOffset = -offset }
        // Without rules, glibc uses the United States' (POSIX leaves them to the implementation).
        var start = Transition(day: .month(3, week: 2, weekday: 0), time: 7200)
        var end = Transition(day: .month(11, week: 1, weekday: 0), time: 7200)
        if scanner.take(UInt8(ascii: ",")) {
            guard let first = scanner.transition(), scanner.take(UInt8(ascii: ",")), let second = scanner.transition()
            else { return nil }
            start = first
            end = second
        }
        guard scanner.isAtEnd else { return nil }
        daylight = Daylight(offset: daylightOffset, start: start, end: end)
    }

    private struct Scanner {
        private let bytes: [UInt8]
        private var position = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var isAtEnd: Bool { position == bytes.count }

        mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        /// A zone abbreviation: three or more letters, or anything but `>` between `<` and `>`.
        mutating func name() -> Bool {
            if take(UInt8(ascii: "<")) {
                guard let close = bytes[position...].firstIndex(of: UInt8(ascii: ">")), close - position >= 3 else {
                    return false
                }
                position = close + 1
                return true
            }
            let start = position
            while position < bytes.count, (bytes[position] | 0x20) &- UInt8(ascii: "a") < 26 { position += 1 }
            return position - start >= 3
        }

        /// `[+-]hh[:mm[:ss]]` in seconds, hours up to 167 as RFC 8536 allows in rule times.
        mutating func offset() -> Int32? {
            var sign: Int32 = 1
            if take(UInt8(ascii: "-")) { sign = -1 } else { _ = take(UInt8(ascii: "+")) }
            guard let hours = number(maximum: 167) else { return nil }
            var total = hours * 3600
            if take(UInt8(ascii: ":")) {
                guard let minutes = number(maximum: 59) else { return nil }
                total += minutes * 60
                if take(UInt8(ascii: ":")) {
                    guard let seconds = number(maximum: 59) else { return nil }
                    total += seconds
                }
            }
            return sign * total
        }

        /// `Jn`, `n` or `Mm.w.d`, then `/time` (02:00 when absent).
        mutating func transition() -> Transition? {
            let day: Transition.Day
            if take(UInt8(ascii: "J")) {
                guard let number = number(maximum: 365), number >= 1 else { return nil }
                day = .julian(Int(number))
            } else if take(UInt8(ascii: "M")) {
                guard let month = number(maximum: 12), month >= 1, take(UInt8(ascii: ".")),
                    let week = number(maximum: 5), week >= 1, take(UInt8(ascii: ".")), let weekday = number(maximum: 6)
                else { return nil }
                day = .month(Int(month), week: Int(week), weekday: Int(weekday))
            } else {
                guard let number = number(maximum: 365) else { return nil }
                day = .zeroBased(Int(number))
            }
            var time: Int32 = 7200
            if take(UInt8(ascii: "/")) {
                guard let parsed = offset() else { return nil }
                time = parsed
            }
            return Transition(day: day, time: time)
        }

        private mutating func number(maximum: Int32) -> Int32? {
            let start = position
            var value: Int32 = 0
            while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10, position - start < 3 {
                value = value * 10 + Int32(bytes[position] - UInt8(ascii: "0"))
                position += 1
            }
            guard position > start, value <= maximum else { return nil }
            return value
        }
    }
}
