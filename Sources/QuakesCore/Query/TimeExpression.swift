/// Reads the durations and moments that the time filters take.
package enum TimeExpression {
    /// What `--last` and friends accept, for messages.
    package static let durationForm = "a number and a unit s, m, h, d or w, such as 30m, 5h or 1.5d"
    /// What `--since`, `--until` and `--now` accept, for messages.
    package static let momentForm =
        "YYYY-MM-DD, a date-time such as 2021-07-20T14:23:05 (in the display zone) or with Z or an offset, or a duration before now such as 5h"

    /// A duration such as `30m`, `5h`, `1.5d` or `2w`, in milliseconds; nil when malformed or not positive.
    package static func duration(_ text: String) -> Int64? {
        guard let unit = text.last, let scale = millisecondsPer(unit) else { return nil }
        let number = text.dropLast()
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number), value > 0, value.isFinite
        else { return nil }
        let milliseconds = (value * Double(scale)).rounded()
        guard milliseconds >= 1, milliseconds < 1e15 else { return nil }
        return Int64(milliseconds)
    }

    /// A unit's length. A switch rather than a dictionary: the first `[Character: …]` makes the Swift
    /// runtime search every protocol conformance in the binary for `Character: Hashable`, a tenth
    /// of a millisecond of every `--last`.
    private static func millisecondsPer(_ unit: Character) -> Int64? {
        switch unit {
        case "s": 1000
        case "m": 60_000
        case "h": 3_600_000
        case "d": 86_400_000
        case "w": 604_800_000
        default: nil
        }
    }

    /// `2021-07-20` (midnight in the display zone), `2021-07-20T14:23` (in the display zone),
    /// `2021-07-20T14:23:05.120+02:00`, `2021-07-20 14:23:05Z`; nil when malformed.
    package static func dateTime(_ text: String) -> Moment? {
        var reader = TextReader(text)
        guard let year = reader.digits(4), reader.take("-"), let month = reader.digits(2), reader.take("-"),
            let day = reader.digits(2), (1...12).contains(month), day >= 1,
            day <= CivilTime.daysInMonth(year: year, month: month)
        else { return nil }
        if reader.isAtEnd { return .localDate(year: year, month: month, day: day) }
        guard reader.take("T") || reader.take("t") || reader.take(" "),
            let hour = reader.digits(2), reader.take(":"), let minute = reader.digits(2), hour < 24, minute < 60
        else { return nil }
        var second: Int64 = 0
        var millisecond: Int64 = 0
        if reader.take(":") {
            guard let value = reader.digits(2), value < 60 else { return nil }
            second = value
            if reader.take(".") || reader.take(",") {
                guard let fraction = reader.fraction() else { return nil }
                millisecond = fraction
            }
        }
        let local = CivilTime.milliseconds(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: millisecond)
        if reader.isAtEnd { return .localTime(local) }
        let offset: Int64
        if reader.take("Z") || reader.take("z") {
            offset = 0
        } else if let sign = reader.sign() {
            guard let hours = reader.digits(2), hours <= 23 else { return nil }
            _ = reader.take(":")
            let minutes = reader.isAtEnd ? 0 : reader.digits(2)
            guard let minutes, minutes < 60 else { return nil }
            offset = sign * (hours * 60 + minutes) * 60_000
        } else {
            return nil
        }
        guard reader.isAtEnd else { return nil }
        return .absolute(local - offset)
    }

    /// A moment as written in an option: an instant, a time of the display zone's calendar, or a
    /// duration before now; `resolve` makes it an instant.
    package enum Moment: Sendable, Equatable {
        /// An instant, in milliseconds since 1970 UTC.
        case absolute(Int64)
        /// That many milliseconds before now.
        case beforeNow(Int64)
        /// The start of a day of the display zone's calendar.
        case localDate(year: Int64, month: Int64, day: Int64)
        /// A wall-clock time of the display zone, as milliseconds of a UTC calendar with the same fields.
        case localTime(Int64)

        /// A duration before now, or a date or date-time; nil when it is neither.
        init?(_ text: String) {
            if let duration = TimeExpression.duration(text) {
                self = .beforeNow(duration)
            } else if let moment = TimeExpression.dateTime(text) {
                self = moment
            } else {
                return nil
            }
        }

        /// The instant, with `now` for durations and `zone` for calendar times.
        func resolve(now: Int64, zone: DisplayZone) -> Int64 {
            switch self {
            case let .absolute(moment): moment
            case let .beforeNow(duration): now - duration
            case let .localDate(year, month, day):
                zone.start(of: CivilTime.days(year: year, month: month, day: day), in: .day)
            case let .localTime(local): zone.instant(ofLocal: local)
            }
        }
    }
}

/// A cursor over the characters of a short text, for hand-written parsers.
private struct TextReader {
    private let characters: [Character]
    private var index = 0

    package init(_ text: String) {
        characters = Array(text)
    }

    package var isAtEnd: Bool { index == characters.count }

    package mutating func take(_ character: Character) -> Bool {
        guard index < characters.count, characters[index] == character else { return false }
        index += 1
        return true
    }

    /// Exactly `count` ASCII digits.
    package mutating func digits(_ count: Int) -> Int64? {
        guard index + count <= characters.count else { return nil }
        var value: Int64 = 0
        for character in characters[index..<(index + count)] {
            guard let digit = character.asciiDigit else { return nil }
            value = value * 10 + digit
        }
        index += count
        return value
    }

    /// One or more digits after a decimal point, as milliseconds (rounded toward zero).
    package mutating func fraction() -> Int64? {
        var value: Int64 = 0
        var count = 0
        while index < characters.count, let digit = characters[index].asciiDigit {
            if count < 3 { value = value * 10 + digit }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 3) { value *= 10 }
        return value
    }

    package mutating func sign() -> Int64? {
        if take("+") { return 1 }
        if take("-") || take("\u{2212}") { return -1 }
        return nil
    }
}

extension Character {
    fileprivate var asciiDigit: Int64? {
        guard let value = asciiValue, value >= 48, value <= 57 else { return nil }
        return Int64(value - 48)
    }
}
