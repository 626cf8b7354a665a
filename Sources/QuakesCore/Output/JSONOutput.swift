/// Where JSON text is written: a buffer that keeps it (`JSONBuffer`), a digest that needs each byte
/// once and keeps none (`QuakeDigest`), or nothing at all (`DiscardedBytes`, for a value the scanner
/// only checks). Everything that writes JSON, the scanner's copy of a value too, is written once,
/// over these two ways of taking its bytes.
package protocol JSONOutput {
    /// Takes one byte of JSON text.
    mutating func raw(_ byte: UInt8)
    /// Takes bytes of JSON text.
    mutating func raw(_ more: UnsafeBufferPointer<UInt8>)
    /// Takes a string's UTF-8 bytes, quoted and escaped: the extension's for every output. A
    /// requirement so that code generic over its output (the text of a row, which
    /// `QuakeFormats.writeJSONObject` writes in a closure) reaches the output's own specialised copy
    /// in one witness call; the generic copy makes one for every run of bytes, a cost on every row
    /// an export writes.
    mutating func append(quoting text: UnsafeBufferPointer<UInt8>)
}

extension JSONOutput {
    /// Appends text that is already JSON (punctuation, a stored `extra` object).
    package mutating func raw(_ text: StaticString) {
        raw(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends text that is already JSON and built at run time (a number's digits).
    mutating func raw(text: String) {
        var text = text
        text.withUTF8 { raw($0) }
    }

    /// A quoted, escaped string, or null.
    package mutating func string(_ text: String?) {
        guard var text else { return raw("null") }
        text.withUTF8 { append(quoting: $0) }
    }

    /// Quotes and escapes UTF-8 bytes as RFC 8259 requires: quotes, backslashes, control characters.
    /// Runs of bytes that need nothing are found eight bytes at a time (`ByteRuns`) and copied whole.
    package mutating func append(quoting text: UnsafeBufferPointer<UInt8>) {
        raw(.quote)
        if let base = text.baseAddress {
            var start = 0
            var index = 0
            while true {
                // Where plain ASCII ends: at a byte to escape, or at one past ASCII, which needs nothing.
                index = ByteRuns.plainStringEnd(base, from: index, count: text.count)
                guard index < text.count else { break }
                let byte = base[index]
                index += 1
                guard byte < 0x20 || byte == .quote || byte == .backslash else { continue }
                if start < index - 1 {
                    raw(UnsafeBufferPointer(start: base + start, count: index - 1 - start))
                }
                escape(byte)
                start = index
            }
            if start < text.count {
                raw(UnsafeBufferPointer(start: base + start, count: text.count - start))
            }
        }
        raw(.quote)
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case .quote: raw("\\\"")
        case .backslash: raw("\\\\")
        case .newline: raw("\\n")
        case .carriageReturn: raw("\\r")
        case .tab: raw("\\t")
        default:
            raw("\\u00")
            raw(hexDigits[Int(byte >> 4)])
            raw(hexDigits[Int(byte & 0xF)])
        }
    }

    /// The shortest text that reads back as the same number, as `Double.description` writes it;
    /// null for nil or non-finite values.
    ///
    /// Feed values have few decimals (magnitudes, coordinates, depths), so the first fraction length
    /// whose decimal converts back to the same value is written digit by digit, several times
    /// faster than `description`, which remains for everything else.
    mutating func number(_ value: Double?) {
        guard let value, value.isFinite else { return raw("null") }
        if value == value.rounded(), abs(value) < 1e15 { return integer(Int64(value)) }
        let magnitude = abs(value)
        if magnitude >= 0.001, magnitude < 1e9 {
            for places in 1...5 {
                // Both operands are exact and division rounds correctly, so equality means that the
                // decimal `scaled / 10^places` reads back as `value`; the nearest such is the shortest.
                let scaled = (magnitude * Self.powerOfTen(places)).rounded()
                guard scaled / Self.powerOfTen(places) == magnitude else { continue }
                let whole = UInt64(scaled)
                let divisor = UInt64(Self.powerOfTen(places))
                if value < 0 { raw(UInt8(ascii: "-")) }
                digits(whole / divisor, width: 1)
                raw(UInt8(ascii: "."))
                // No trailing zero: with one, a shorter fraction would have read back the same.
                digits(whole % divisor, width: places)
                return
            }
        }
        raw(text: value.description)
    }

    /// 10 to the `exponent`, exactly (for the few places numbers are written with).
    private static func powerOfTen(_ exponent: Int) -> Double {
        var power = 1.0
        for _ in 0..<exponent { power *= 10 }
        return power
    }

    mutating func integer(_ value: Int64?) {
        guard let value else { return raw("null") }
        if value < 0 { raw(UInt8(ascii: "-")) }
        digits(value.magnitude, width: 1)
    }

    mutating func integer(_ value: Int?) {
        integer(value.map(Int64.init))
    }

    /// A time as a quoted ISO 8601 string in UTC with milliseconds, as `CivilTime.iso8601` writes
    /// it, without building a string; null for nil.
    mutating func time(_ milliseconds: Int64?) {
        guard let milliseconds else { return raw("null") }
        let time = CivilTime.fields(milliseconds)
        guard (0...9999).contains(time.year) else { return string(CivilTime.iso8601(milliseconds)) }
        // `"2021-07-20T14:23:05.120Z"`, written in place and appended at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 26) { text in
            func put(_ value: Int64, width: Int, at end: Int) {
                var remaining = value
                var index = end
                // A loop of its own, not `stride`: see `QuakeFormats.writeJSONObject`.
                while index > end - width {
                    index -= 1
                    text[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
                    remaining /= 10
                }
            }
            text[0] = .quote
            put(time.year, width: 4, at: 5)
            text[5] = UInt8(ascii: "-")
            put(time.month, width: 2, at: 8)
            text[8] = UInt8(ascii: "-")
            put(time.day, width: 2, at: 11)
            text[11] = UInt8(ascii: "T")
            put(time.hour, width: 2, at: 14)
            text[14] = .colon
            put(time.minute, width: 2, at: 17)
            text[17] = .colon
            put(time.second, width: 2, at: 20)
            text[20] = UInt8(ascii: ".")
            put(time.millisecond, width: 3, at: 24)
            text[24] = UInt8(ascii: "Z")
            text[25] = .quote
            raw(UnsafeBufferPointer(text))
        }
    }

    /// The decimal digits of `value`, left-padded with zeros to `width`.
    private mutating func digits(_ value: UInt64, width: Int) {
        // 20 digits hold any UInt64.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var remaining = value
            var start = 20
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            } while remaining > 0 || 20 - start < width
            raw(UnsafeBufferPointer(start: buffer.baseAddress! + start, count: 20 - start))
        }
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)
