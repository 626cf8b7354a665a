import Glibc

/// A forward-only reader of JSON text in a byte buffer: the primitives the feed decoder is built on.
///
/// It validates as it goes (RFC 8259: string escapes, UTF-8, number grammar, nesting) and reports
/// the document offset where it stopped. Strings and numbers come back as raw byte ranges, so a
/// value that is only compared or skipped is never copied; `string(_:)` and `double(_:)` convert
/// the ones that are kept. The buffer must outlive the scanner.
///
/// The functions that read one token (`key`, `nextMember`, `scanString`, `scanNumber`) are always
/// inlined: they run for every member of every feature, and a call each would be a large part of
/// a re-ingest's skim.
struct JSONScanner {
    /// A string's bytes between its quotes, still escaped.
    struct RawString {
        var start: Int
        var end: Int
        var hasEscapes: Bool
        var count: Int { end - start }
    }

    /// A number's bytes, already checked against the JSON grammar.
    struct RawNumber {
        var start: Int
        var end: Int
        /// True when the number has neither a fraction nor an exponent.
        var isInteger: Bool
    }

    /// Deeper nesting is refused; it bounds the work and memory a hostile document can cause.
    static var maximumDepth: Int { 512 }

    let bytes: UnsafePointer<UInt8>
    let count: Int
    /// The offset of `bytes[0]` in the whole document, for error messages.
    let origin: Int64
    var position: Int

    init(_ buffer: UnsafeRawBufferPointer, origin: Int64 = 0) {
        // An empty buffer may have no base address; nothing is read from it, but the pointer must be valid.
        bytes = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self) ?? ("" as StaticString).utf8Start
        count = buffer.count
        self.origin = origin
        position = 0
    }

    // MARK: - Errors

    func error(_ reason: String, at index: Int? = nil) -> JSONSyntaxError {
        JSONSyntaxError(offset: origin + Int64(index ?? position), reason: reason)
    }

    /// An error for the byte at `position`, naming it: "unexpected '<' (expected a value)".
    func unexpected(_ expectation: String) -> JSONSyntaxError {
        guard position < count else { return error("unexpected end of data (\(expectation))") }
        return error("unexpected \(describeByte(bytes[position])) (\(expectation))")
    }

    // MARK: - Whitespace and punctuation

    var isAtEnd: Bool { position >= count }

    mutating func skipWhitespace() {
        while position < count {
            switch bytes[position] {
            case .space, .tab, .newline, .carriageReturn: position += 1
            default: return
            }
        }
    }

    /// Skips whitespace and returns the next byte without consuming it, or nil at the end.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < count ? bytes[position] : nil
    }

    /// Skips whitespace and consumes `byte`, or fails saying what was expected.
    mutating func consume(_ byte: UInt8, _ expectation: @autoclosure () -> String) throws(JSONSyntaxError) {
        skipWhitespace()
        guard position < count, bytes[position] == byte else { throw unexpected(expectation()) }
        position += 1
    }

    /// After a member or element: consumes a ',' and returns true, or consumes `closer` and returns false.
    @inline(__always)
    mutating func nextMember(closer: UInt8) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        if position < count {
            if bytes[position] == .comma {
                position += 1
                return true
            }
            if bytes[position] == closer {
                position += 1
                return false
            }
        }
        throw unexpected(closer == .closeBrace ? "expected ',' or '}'" : "expected ',' or ']'")
    }

    /// Consumes '{' and returns true when the object has members (then the first key is next).
    mutating func beginObject() throws(JSONSyntaxError) -> Bool {
        try consume(.openBrace, "expected '{'")
        skipWhitespace()
        if position < count, bytes[position] == .closeBrace {
            position += 1
            return false
        }
        return true
    }

    /// Consumes '[' and returns true when the array has elements.
    mutating func beginArray() throws(JSONSyntaxError) -> Bool {
        try consume(.openBracket, "expected '['")
        skipWhitespace()
        if position < count, bytes[position] == .closeBracket {
            position += 1
            return false
        }
        return true
    }

    /// Reads a member's key and the ':' after it.
    @inline(__always)
    mutating func key() throws(JSONSyntaxError) -> RawString {
        skipWhitespace()
        guard position < count, bytes[position] == .quote else { throw unexpected("expected a key in quotes") }
        let key = try scanString()
        try consume(.colon, "expected ':' after a key")
        return key
    }

    // MARK: - Strings

    /// Scans the string that starts at `position` (at its opening quote), checking escapes and UTF-8.
    @inline(__always)
    mutating func scanString() throws(JSONSyntaxError) -> RawString {
        let opening = position
        var index = position + 1
        var hasEscapes = false
        while true {
            index = ByteRuns.plainStringEnd(bytes, from: index, count: count)
            guard index < count else { throw error("unterminated string", at: opening) }
            let byte = bytes[index]
            if byte == .quote { break }
            if byte == .backslash {
                hasEscapes = true
                index = try checkEscape(at: index)
            } else if byte < 0x20 {
                throw error("control character \(describeByte(byte)) inside a string", at: index)
            } else if byte >= 0x80 {
                index = try checkUTF8(at: index)
            } else {
                index += 1
            }
        }
        position = index + 1
        return RawString(start: opening + 1, end: index, hasEscapes: hasEscapes)
    }

    /// True when the raw string is exactly `text` (a key or a value without escapes).
    func matches(_ raw: RawString, _ text: StaticString) -> Bool {
        !raw.hasEscapes && raw.count == text.utf8CodeUnitCount
            && memcmp(bytes + raw.start, text.utf8Start, raw.count) == 0
    }

    /// The raw string as a `String`, with its escapes decoded.
    func string(_ raw: RawString) -> String {
        let text = UnsafeBufferPointer(start: bytes + raw.start, count: raw.count)
        guard raw.hasEscapes else { return String(decoding: text, as: UTF8.self) }
        return String(unsafeUninitializedCapacity: raw.count) { output in
            unescape(raw, into: output.baseAddress!)
        }
    }

    /// Writes the unescaped bytes of `raw` to `output`, which has room for `raw.count` bytes
    /// (an escape never decodes to more bytes than it takes), and returns how many it wrote.
    func unescape(_ raw: RawString, into output: UnsafeMutablePointer<UInt8>) -> Int {
        var written = 0
        var index = raw.start
        while index < raw.end {
            let byte = bytes[index]
            guard byte == .backslash else {
                output[written] = byte
                written += 1
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            let scalar: UInt32
            switch escape {
            case UInt8(ascii: "b"): scalar = 0x08
            case UInt8(ascii: "f"): scalar = 0x0C
            case UInt8(ascii: "n"): scalar = 0x0A
            case UInt8(ascii: "r"): scalar = 0x0D
            case UInt8(ascii: "t"): scalar = 0x09
            case UInt8(ascii: "u"):
                let unit = hexValue(at: index)
                index += 4
                if unit >= 0xD800, unit < 0xDC00 {  // checkEscape made sure a low surrogate follows
                    let low = hexValue(at: index + 2)
                    index += 6
                    scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                } else {
                    scalar = unit
                }
            default: scalar = UInt32(escape)  // '"', '\\' and '/'
            }
            written += encodeUTF8(scalar, into: output + written)
        }
        return written
    }

    /// Checks the escape sequence at `index` (at its backslash) and returns the index after it.
    private func checkEscape(at index: Int) throws(JSONSyntaxError) -> Int {
        guard index + 1 < count else { throw error("unterminated string", at: index) }
        switch bytes[index + 1] {
        case .quote, .backslash, .slash, UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
            UInt8(ascii: "r"), UInt8(ascii: "t"):
            return index + 2
        case UInt8(ascii: "u"):
            let unit = try hexEscape(at: index)
            if unit >= 0xDC00, unit < 0xE000 {
                throw error("lone low surrogate \\u\(hex(unit)) inside a string", at: index)
            }
            guard unit >= 0xD800, unit < 0xDC00 else { return index + 6 }
            let pairFollows =
                index + 7 < count && bytes[index + 6] == .backslash && bytes[index + 7] == UInt8(ascii: "u")
            let low = pairFollows ? try hexEscape(at: index + 6) : 0
            guard low >= 0xDC00, low < 0xE000 else {
                throw error("lone high surrogate \\u\(hex(unit)) inside a string", at: index)
            }
            return index + 12
        default:
            throw error(
                "invalid escape '\\\(Character(Unicode.Scalar(bytes[index + 1])))' inside a string",
                at: index)
        }
    }

    /// The code unit of the `\uXXXX` escape at `index`, checking its four hex digits.
    private func hexEscape(at index: Int) throws(JSONSyntaxError) -> UInt32 {
        guard index + 6 <= count else { throw error("unterminated \\u escape", at: index) }
        for digit in UnsafeBufferPointer(start: bytes + index + 2, count: 4) where hexDigitValue(digit) == nil {
            throw error("invalid \\u escape: \(describeByte(digit)) is not a hex digit", at: index)
        }
        return hexValue(at: index + 2)
    }

    private func hexValue(at index: Int) -> UInt32 {
        (0..<4).reduce(0) { value, offset in value << 4 | UInt32(hexDigitValue(bytes[index + offset]) ?? 0) }
    }

    /// Checks the UTF-8 sequence at `index` and returns the index after it (RFC 3629: no overlong
    /// forms, no surrogates, nothing above U+10FFFF).
    private func checkUTF8(at index: Int) throws(JSONSyntaxError) -> Int {
        let lead = bytes[index]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            lower = 0xA0
        case 0xE1...0xEC, 0xEE, 0xEF: length = 3
        case 0xED:
            length = 3
            upper = 0x9F
        case 0xF0:
            length = 4
            lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            upper = 0x8F
        default: throw error("invalid UTF-8: \(describeByte(lead)) inside a string", at: index)
        }
        guard index + length <= count else { throw error("truncated UTF-8 sequence inside a string", at: index) }
        let second = bytes[index + 1]
        var valid = second >= lower && second <= upper
        for offset in 2..<max(length, 2) where bytes[index + offset] & 0xC0 != 0x80 {
            valid = false
        }
        guard valid else { throw error("invalid UTF-8 sequence inside a string", at: index) }
        return index + length
    }

    // MARK: - Numbers

    /// Scans the number at `position`, checking the JSON grammar (no '+', no leading zeros, no NaN).
    @inline(__always)
    mutating func scanNumber() throws(JSONSyntaxError) -> RawNumber {
        let start = position
        var index = position
        if index < count, bytes[index] == .minus { index += 1 }
        guard index < count, bytes[index].isDigit else { throw error("invalid number", at: start) }
        if bytes[index] == .zero {
            index += 1
            if index < count, bytes[index].isDigit { throw error("invalid number: leading zero", at: start) }
        } else {
            while index < count, bytes[index].isDigit { index += 1 }
        }
        var isInteger = true
        if index < count, bytes[index] == .dot {
            isInteger = false
            index += 1
            guard index < count, bytes[index].isDigit else {
                throw error("invalid number: no digit after '.'", at: start)
            }
            while index < count, bytes[index].isDigit { index += 1 }
        }
        if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < count, bytes[index] == .plus || bytes[index] == .minus { index += 1 }
            guard index < count, bytes[index].isDigit else {
                throw error("invalid number: no digit in the exponent", at: start)
            }
            while index < count, bytes[index].isDigit { index += 1 }
        }
        position = index
        return RawNumber(start: start, end: index, isInteger: isInteger)
    }

    /// The number's value, correctly rounded; ±infinity when it is too large for a Double.
    func double(_ number: RawNumber) -> Double {
        // Clinger's fast path: a mantissa below 2^53 times an exact power of ten is exact.
        var index = number.start
        let negative = bytes[index] == .minus
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var exponent = 0
        var digits = 0
        while index < number.end, bytes[index].isDigit {
            mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- .zero)
            digits += mantissa == 0 ? 0 : 1
            index += 1
        }
        if index < number.end, bytes[index] == .dot {
            index += 1
            while index < number.end, bytes[index].isDigit {
                mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- .zero)
                digits += mantissa == 0 ? 0 : 1
                exponent -= 1
                index += 1
            }
        }
        if index < number.end {  // an exponent: 'e' or 'E', an optional sign, digits
            index += 1
            var exponentSign = 1
            if bytes[index] == .minus || bytes[index] == .plus {
                exponentSign = bytes[index] == .minus ? -1 : 1
                index += 1
            }
            var value = 0
            while index < number.end {
                value = min(value * 10 + Int(bytes[index] &- .zero), 100_000)
                index += 1
            }
            exponent += exponentSign * value
        }
        if digits <= 15, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            let magnitude =
                exponent < 0
                ? Double(mantissa) / exactPowersOfTen[-exponent]
                : Double(mantissa) * exactPowersOfTen[exponent]
            return negative ? -magnitude : magnitude
        }
        // Rare: the standard library's conversion, which is correctly rounded and ignores the C locale.
        let text = String(
            decoding: UnsafeBufferPointer(start: bytes + number.start, count: number.end - number.start),
            as: UTF8.self)
        return Double(text) ?? .nan
    }

    /// The number as an integer, when it is one exactly (`12`, `12.0`, `1.2e1`), else nil.
    func integer(_ number: RawNumber) -> Int64? {
        if number.isInteger, number.end - number.start <= 18 {
            var index = number.start
            let negative = bytes[index] == .minus
            if negative { index += 1 }
            var value: Int64 = 0
            while index < number.end {
                value = value * 10 + Int64(bytes[index] &- .zero)
                index += 1
            }
            return negative ? -value : value
        }
        let value = double(number)
        guard value.isFinite, value == value.rounded(.towardZero), abs(value) < 9.0e18 else { return nil }
        return Int64(value)
    }

    /// The number's text, as it appears in the document.
    func text(_ number: RawNumber) -> String {
        String(
            decoding: UnsafeBufferPointer(start: bytes + number.start, count: number.end - number.start),
            as: UTF8.self)
    }

    // MARK: - Literals

    /// Consumes `null` when it is next and returns true; returns false, consuming nothing, otherwise.
    mutating func consumeNull() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard position < count, bytes[position] == UInt8(ascii: "n") else { return false }
        try scanLiteral()
        return true
    }

    /// Scans `true`, `false` or `null` at `position`.
    mutating func scanLiteral() throws(JSONSyntaxError) {
        let literal: StaticString
        switch bytes[position] {
        case UInt8(ascii: "t"): literal = "true"
        case UInt8(ascii: "f"): literal = "false"
        default: literal = "null"
        }
        let length = literal.utf8CodeUnitCount
        guard position + length <= count, memcmp(bytes + position, literal.utf8Start, length) == 0 else {
            throw unexpected("expected a value")
        }
        position += length
    }

    // MARK: - Whole values

    /// Skips one value of any kind, checking it, and appends it to `output` without insignificant
    /// whitespace. Pass a `DiscardedBytes` to only check it.
    ///
    /// Iterative, with a stack of open containers, so deep nesting cannot overflow the call stack.
    mutating func copyValue<Output: JSONOutput>(into output: inout Output) throws(JSONSyntaxError) {
        var open = OpenContainers()
        while true {
            // A value is next.
            skipWhitespace()
            guard position < count else { throw unexpected("expected a value") }
            let start = position
            switch bytes[position] {
            case .openBrace, .openBracket:
                guard open.depth < Self.maximumDepth else {
                    throw error("nesting deeper than \(Self.maximumDepth) levels")
                }
                let isObject = bytes[position] == .openBrace
                output.raw(bytes[position])
                position += 1
                skipWhitespace()
                let closer: UInt8 = isObject ? .closeBrace : .closeBracket
                if position < count, bytes[position] == closer {
                    output.raw(bytes[position])
                    position += 1
                } else {
                    open.push(isObject: isObject)
                    if isObject { try copyKey(into: &output) }
                    continue
                }
            case .quote:
                _ = try scanString()
                output.raw(UnsafeBufferPointer(start: bytes + start, count: position - start))
            case .minus, .zero...UInt8(ascii: "9"):
                _ = try scanNumber()
                output.raw(UnsafeBufferPointer(start: bytes + start, count: position - start))
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                try scanLiteral()
                output.raw(UnsafeBufferPointer(start: bytes + start, count: position - start))
            default:
                throw unexpected("expected a value")
            }
            // A value ended: close containers until one continues with ','.
            while let closer = open.innermostCloser {
                if try nextMember(closer: closer) {
                    output.raw(bytes[position - 1])
                    if closer == .closeBrace { try copyKey(into: &output) }
                    break
                }
                output.raw(bytes[position - 1])
                open.pop()
            }
            if open.depth == 0 { return }
        }
    }

    /// Skips one value of any kind, checking it.
    mutating func skipValue() throws(JSONSyntaxError) {
        // A string, number or literal (most values skipped) directly, as `copyValue` would read it.
        skipWhitespace()
        if position < count {
            switch bytes[position] {
            case .quote: _ = try scanString()
            case .minus, .zero...UInt8(ascii: "9"): _ = try scanNumber()
            case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"): try scanLiteral()
            default:
                var discarded = DiscardedBytes()
                try copyValue(into: &discarded)
            }
            return
        }
        var discarded = DiscardedBytes()
        try copyValue(into: &discarded)
    }

    /// The containers `copyValue` has open, innermost last: a bit each (set for an object) in one
    /// word for the first 64 levels, which is all a feed has, so that skipping a geometry or a
    /// nested property allocates nothing; deeper levels go to an array.
    private struct OpenContainers {
        private(set) var depth = 0
        private var shallow: UInt64 = 0
        private var deep: [Bool] = []

        mutating func push(isObject: Bool) {
            if depth < 64 {
                let bit: UInt64 = 1 << UInt64(depth)
                shallow = isObject ? shallow | bit : shallow & ~bit
            } else {
                deep.append(isObject)
            }
            depth += 1
        }

        mutating func pop() {
            depth -= 1
            if depth >= 64 { deep.removeLast() }
        }

        /// The byte that closes the innermost open container, or nil when none is open.
        var innermostCloser: UInt8? {
            guard depth > 0 else { return nil }
            let isObject = depth > 64 ? deep[depth - 65] : shallow >> UInt64(depth - 1) & 1 == 1
            return isObject ? .closeBrace : .closeBracket
        }
    }

    private mutating func copyKey<Output: JSONOutput>(into output: inout Output) throws(JSONSyntaxError) {
        let key = try key()
        output.raw(UnsafeBufferPointer(start: bytes + key.start - 1, count: key.count + 2))
        output.raw(.colon)
    }
}

/// A `JSONOutput` that keeps nothing, for checking a value without copying it.
struct DiscardedBytes: JSONOutput {
    @inline(__always) mutating func raw(_ byte: UInt8) {}
    @inline(__always) mutating func raw(_ more: UnsafeBufferPointer<UInt8>) {}
}

// MARK: - Byte helpers

// Computed rather than stored: a stored static is a lazily initialised global, guarded by a
// `swift_once` that every decoder thread would take at once on the first feature; these are
// constants the compiler folds.
extension UInt8 {
    static var space: UInt8 { UInt8(ascii: " ") }
    static var tab: UInt8 { UInt8(ascii: "\t") }
    static var newline: UInt8 { UInt8(ascii: "\n") }
    static var carriageReturn: UInt8 { UInt8(ascii: "\r") }
    static var quote: UInt8 { UInt8(ascii: "\"") }
    static var backslash: UInt8 { UInt8(ascii: "\\") }
    static var slash: UInt8 { UInt8(ascii: "/") }
    static var comma: UInt8 { UInt8(ascii: ",") }
    static var colon: UInt8 { UInt8(ascii: ":") }
    static var dot: UInt8 { UInt8(ascii: ".") }
    static var minus: UInt8 { UInt8(ascii: "-") }
    static var plus: UInt8 { UInt8(ascii: "+") }
    static var zero: UInt8 { UInt8(ascii: "0") }
    static var openBrace: UInt8 { UInt8(ascii: "{") }
    static var closeBrace: UInt8 { UInt8(ascii: "}") }
    static var openBracket: UInt8 { UInt8(ascii: "[") }
    static var closeBracket: UInt8 { UInt8(ascii: "]") }

    var isDigit: Bool { self &- .zero < 10 }
}

/// Names a byte for a message: printable ASCII in quotes, anything else in hex.
func describeByte(_ byte: UInt8) -> String {
    (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hex(UInt32(byte), width: 2))"
}

private func hex(_ value: UInt32, width: Int = 4) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

private func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}

/// Writes `scalar` as UTF-8 and returns the number of bytes written.
private func encodeUTF8(_ scalar: UInt32, into output: UnsafeMutablePointer<UInt8>) -> Int {
    switch scalar {
    case 0..<0x80:
        output[0] = UInt8(scalar)
        return 1
    case 0x80..<0x800:
        output[0] = UInt8(0xC0 | scalar >> 6)
        output[1] = UInt8(0x80 | scalar & 0x3F)
        return 2
    case 0x800..<0x10000:
        output[0] = UInt8(0xE0 | scalar >> 12)
        output[1] = UInt8(0x80 | scalar >> 6 & 0x3F)
        output[2] = UInt8(0x80 | scalar & 0x3F)
        return 3
    default:
        output[0] = UInt8(0xF0 | scalar >> 18)
        output[1] = UInt8(0x80 | scalar >> 12 & 0x3F)
        output[2] = UInt8(0x80 | scalar >> 6 & 0x3F)
        output[3] = UInt8(0x80 | scalar & 0x3F)
        return 4
    }
}

/// 10^0 through 10^22: every one is exact in a Double.
private let exactPowersOfTen: [Double] = (0...22).map { exponent in
    (0..<exponent).reduce(1.0) { value, _ in value * 10 }
}
