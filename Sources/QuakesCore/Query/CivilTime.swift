/// Calendar arithmetic on integer milliseconds since 1970 UTC, in the proleptic Gregorian calendar.
///
/// Foundation's date formatters truncate milliseconds and follow the locale; everything machine-read
/// goes through these functions instead, which are exact and locale-free. The day algorithms are
/// Howard Hinnant's `days_from_civil` and `civil_from_days`.
enum CivilTime {
    static let millisecondsPerDay: Int64 = 86_400_000

    /// A moment split into calendar fields.
    struct Fields: Equatable {
        var year: Int64
        var month: Int64
        var day: Int64
        var hour: Int64
        var minute: Int64
        var second: Int64
        var millisecond: Int64
    }

    /// The calendar fields of `milliseconds` shifted by `offset` milliseconds (a zone's offset).
    static func fields(_ milliseconds: Int64, offset: Int64 = 0) -> Fields {
        let local = milliseconds + offset
        let days = floorDivide(local, millisecondsPerDay)
        let rest = local - days * millisecondsPerDay
        let (year, month, day) = civil(fromDays: days)
        return Fields(
            year: year, month: month, day: day, hour: rest / 3_600_000, minute: rest / 60_000 % 60,
            second: rest / 1000 % 60, millisecond: rest % 1000)
    }

    /// Milliseconds since 1970 of the given UTC calendar fields.
    static func milliseconds(
        year: Int64, month: Int64, day: Int64, hour: Int64 = 0, minute: Int64 = 0,
        second: Int64 = 0, millisecond: Int64 = 0
    ) -> Int64 {
        days(year: year, month: month, day: day) * millisecondsPerDay + hour * 3_600_000 + minute * 60_000
            + second * 1000 + millisecond
    }

    /// Days since 1970-01-01 of a date.
    static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a number of days since 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days in a month.
    static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        days(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1)
            - days(year: year, month: month, day: 1)
    }

    /// `2021-07-20T14:23:05.120Z`: ISO 8601 in UTC with milliseconds, as machine formats write times.
    static func iso8601(_ milliseconds: Int64) -> String {
        let time = fields(milliseconds)
        return
            "\(date(time))T\(pad(time.hour, 2)):\(pad(time.minute, 2)):\(pad(time.second, 2)).\(pad(time.millisecond, 3))Z"
    }

    /// `2021-07-20`.
    static func date(_ fields: Fields) -> String {
        "\(year(fields.year))-\(pad(fields.month, 2))-\(pad(fields.day, 2))"
    }

    /// `14:23:05`.
    static func clock(_ fields: Fields) -> String {
        "\(pad(fields.hour, 2)):\(pad(fields.minute, 2)):\(pad(fields.second, 2))"
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December",
    ]

    /// Four-digit years, signed outside 0…9999 as ISO 8601 allows.
    static func year(_ year: Int64) -> String {
        (0...9999).contains(year) ? pad(year, 4) : (year < 0 ? "-" : "+") + pad(abs(year), 4)
    }

    static func pad(_ value: Int64, _ width: Int) -> String {
        String(value).leftPadded(to: width)
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return value % divisor < 0 ? quotient - 1 : quotient
    }
}
