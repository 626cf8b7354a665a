import Bytes

extension FDSNEmulator {
    /// Bytes of JSON written straight into one buffer: a 20,000-event answer has to be quick, and
    /// JSONSerialization would build a tree of objects first.
    ///
    /// Written through the project's growable bytes (`ByteBuffer`), whose appends are not generic:
    /// an array's `append(contentsOf:)`, unspecialised in the debug builds the tests run, asked the
    /// Swift runtime for the array's type under a lock at every call (perf, under ThreadSanitizer).
    struct JSONWriter {
        private var buffer: ByteBuffer

        init(capacity: Int) {
            buffer = ByteBuffer(capacity: capacity)
        }

        /// A copy of the text written.
        var bytes: [UInt8] { buffer.bytes }

        mutating func byte(_ byte: UInt8) {
            buffer.append(byte)
        }

        /// Text that is already JSON; literals come this way, copied at once.
        mutating func raw(_ text: StaticString) {
            buffer.append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        /// Text that is already JSON.
        mutating func raw(_ text: String) {
            var text = text
            text.withUTF8 { buffer.append($0) }
        }

        mutating func integer(_ value: Int64) {
            buffer.appendDecimal(value)
        }

        /// A number in the shortest form that reads back as the same `Double`, without a `.0`
        /// after whole numbers (as ComCat writes a depth of 10), or `null`.
        mutating func number(_ value: Double?) {
            guard let value, value.isFinite else {
                raw("null")
                return
            }
            if value == value.rounded(), value.magnitude < 1e15 {
                integer(Int64(value))
                return
            }
            raw(value.description)
        }

        /// A JSON string, or `null`.
        mutating func string(_ value: String?) {
            guard let value else {
                raw("null")
                return
            }
            buffer.append(UInt8(ascii: "\""))
            escaped(value)
            buffer.append(UInt8(ascii: "\""))
        }

        /// A comma-led and comma-ended list, as ComCat writes `ids`, `sources` and `types`.
        mutating func list(_ values: [String]) {
            buffer.append(UInt8(ascii: "\""))
            buffer.append(UInt8(ascii: ","))
            for value in values {
                escaped(value)
                buffer.append(UInt8(ascii: ","))
            }
            buffer.append(UInt8(ascii: "\""))
        }

        /// The inside of a JSON string: quotes, backslashes and control characters escaped, the
        /// rest as UTF-8.
        mutating func escaped(_ value: String) {
            var plain = true
            for byte in value.utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                plain = false
                break
            }
            if plain {
                raw(value)  // The usual case, copied at once.
                return
            }
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "\""): raw(#"\""#)
                case UInt8(ascii: "\\"): raw(#"\\"#)
                case UInt8(ascii: "\n"): raw(#"\n"#)
                case UInt8(ascii: "\r"): raw(#"\r"#)
                case UInt8(ascii: "\t"): raw(#"\t"#)
                case 0..<0x20:
                    let hex = Array("0123456789abcdef".utf8)
                    raw(#"\u00"#)
                    buffer.append(hex[Int(byte >> 4)])
                    buffer.append(hex[Int(byte & 15)])
                default: buffer.append(byte)
                }
            }
        }
    }

    /// Civil times in UTC, from and to seconds since 1970, without Foundation's calendars.
    enum UTC {
        /// Seconds since 1970 of `YYYY-MM-DD`, optionally followed by `T` or a space and
        /// `hh:mm[:ss[.fraction]]`, optionally ending in `Z`. The fraction is dropped, as ComCat does.
        static func seconds(parsing text: String) -> Int64? {
            var rest = Substring(text)
            if rest.hasSuffix("Z") { rest = rest.dropLast() }
            let date: Substring
            var clock: Substring = ""
            if let separator = rest.firstIndex(where: { $0 == "T" || $0 == " " }) {
                date = rest[..<separator]
                clock = rest[rest.index(after: separator)...]
            } else {
                date = rest
            }
            let day = date.split(separator: "-", omittingEmptySubsequences: false)
            guard day.count == 3, day[0].count == 4, day[1].count == 2, day[2].count == 2,
                let year = Int64(day[0]), let month = Int64(day[1]), let dayOfMonth = Int64(day[2]),
                (1...12).contains(month), (1...31).contains(dayOfMonth)
            else { return nil }
            if let dot = clock.firstIndex(of: ".") {
                guard clock[clock.index(after: dot)...].allSatisfy(\.isNumber) else { return nil }
                clock = clock[..<dot]
            }
            var hours: Int64 = 0
            var minutes: Int64 = 0
            var seconds: Int64 = 0
            if !clock.isEmpty {
                let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
                guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0.count == 2 }),
                    let h = Int64(parts[0]), let m = Int64(parts[1]), h < 24, m < 60
                else { return nil }
                hours = h
                minutes = m
                if parts.count == 3 {
                    guard let s = Int64(parts[2]), s < 61 else { return nil }
                    seconds = s
                }
            }
            return days(year: year, month: month, day: dayOfMonth) * 86_400 + hours * 3600 + minutes * 60 + seconds
        }

        /// `2024-01-02T03:04:05+00:00`, as ComCat writes the time a request was submitted.
        static func iso8601(milliseconds: Int64) -> String {
            let seconds = floorDivide(milliseconds, 1000)
            let daysSinceEpoch = floorDivide(seconds, 86_400)
            let second = seconds - daysSinceEpoch * 86_400
            let (year, month, day) = civil(days: daysSinceEpoch)
            func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return
                "\(year)-\(two(month))-\(two(day))T\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60))+00:00"
        }

        private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
            value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
        }

        /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
        static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
            let y = month <= 2 ? year - 1 : year
            let era = floorDivide(y, 400)
            let yearOfEra = y - era * 400
            let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
            let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
            return era * 146_097 + dayOfEra - 719_468
        }

        /// The date of a day since 1970-01-01 (Howard Hinnant's algorithm).
        static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
            let z = days + 719_468
            let era = floorDivide(z, 146_097)
            let dayOfEra = z - era * 146_097
            let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
            let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
            let mp = (5 * dayOfYear + 2) / 153
            let day = dayOfYear - (153 * mp + 2) / 5 + 1
            let month = mp < 10 ? mp + 3 : mp - 9
            return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
        }
    }
}
