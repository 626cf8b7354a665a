/// Reads the durations and moments that the time filters take.
enum TimeExpression {
    /// What `--last` and friends accept, for messages.
    static let durationForm = "a number and a unit s, m, h, d or w, such as 30m, 5h or 1.5d"
    /// What `--since`, `--until` and `--now` accept, for messages.
    static let momentForm =
        "YYYY-MM-DD, an ISO 8601 date-time with Z or an offset (2021-07-20T14:23:05Z), or a duration before now such as 5h"

    /// A duration such as `30m`, `5h`, `1.5d` or `2w`, in milliseconds; nil when malformed or not positive.
    static func duration(_ text: String) -> Int64? {
        guard let unit = text.last, let scale = unitMilliseconds[unit] else { return nil }
        let number = text.dropLast()
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
            let value = Double(number), value > 0, value.isFinite
        else { return nil }
        let milliseconds = (value * Double(scale)).rounded()
        guard milliseconds >= 1, milliseconds < 1e15 else { return nil }
        return Int64(milliseconds)
    }

    private static let unitMilliseconds: [Character: Int64] = [
        "s": 1000, "m": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 604_800_000,
    ]

    /// A moment: `YYYY-MM-DD` (midnight UTC), an ISO 8601 date-time with `Z` or an offset, or a
    /// duration meaning that long before `now`. Milliseconds since 1970; nil when malformed.
    static func moment(_ text: String, now: Int64) -> Int64? {
        if let duration = duration(text) { return now - duration }
        return dateTime(text)
    }

    /// `2021-07-20`, `2021-07-20T14:23Z`, `2021-07-20T14:23:05.120+02:00`, `2021-07-20 14:23:05-0700`.
    static func dateTime(_ text: String) -> Int64? {
        var reader = TextReader(text)
        guard let year = reader.digits(4), reader.take("-"), let month = reader.digits(2), reader.take("-"),
            let day = reader.digits(2), (1...12).contains(month), day >= 1,
            day <= CivilTime.daysInMonth(year: year, month: month)
        else { return nil }
        if reader.isAtEnd { return CivilTime.milliseconds(year: year, month: month, day: day) }
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
            return nil  // A local time without a zone would depend on where it is read.
        }
        guard reader.isAtEnd else { return nil }
        return CivilTime.milliseconds(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            millisecond: millisecond) - offset
    }
}

/// A cursor over the characters of a short text, for hand-written parsers.
private struct TextReader {
    private let characters: [Character]
    private var index = 0

    init(_ text: String) {
        characters = Array(text)
    }

    var isAtEnd: Bool { index == characters.count }

    mutating func take(_ character: Character) -> Bool {
        guard index < characters.count, characters[index] == character else { return false }
        index += 1
        return true
    }

    /// Exactly `count` ASCII digits.
    mutating func digits(_ count: Int) -> Int64? {
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
    mutating func fraction() -> Int64? {
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

    mutating func sign() -> Int64? {
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
