/// JSON text built straight into bytes, for listings of millions of rows: no intermediate values,
/// strings escaped in one pass over their UTF-8.
struct JSONBuffer {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends text that is already JSON (punctuation, a stored `extra` object).
    mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func raw(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// `"name":`, for names that need no escaping.
    mutating func key(_ name: StaticString) {
        bytes.append(.quote)
        raw(name)
        bytes.append(.quote)
        bytes.append(.colon)
    }

    /// A quoted, escaped string, or null.
    mutating func string(_ text: String?) {
        guard var text else { return raw("null") }
        text.withUTF8 { append(quoting: $0) }
    }

    /// Quotes and escapes UTF-8 bytes as RFC 8259 requires: quotes, backslashes, control characters.
    mutating func append(quoting text: UnsafeBufferPointer<UInt8>) {
        bytes.append(.quote)
        var start = 0
        for (index, byte) in text.enumerated() where byte < 0x20 || byte == .quote || byte == .backslash {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<index]))
            switch byte {
            case .quote: raw("\\\"")
            case .backslash: raw("\\\\")
            case .newline: raw("\\n")
            case .carriageReturn: raw("\\r")
            case .tab: raw("\\t")
            default:
                raw("\\u00")
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0xF)])
            }
            start = index + 1
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
        bytes.append(.quote)
    }

    /// The shortest text that reads back as the same number; null for nil or non-finite values.
    mutating func number(_ value: Double?) {
        guard let value, value.isFinite else { return raw("null") }
        if value == value.rounded(), abs(value) < 1e15 {
            integer(Int64(value))
        } else {
            raw(value.description)
        }
    }

    mutating func integer(_ value: Int64?) {
        guard let value else { return raw("null") }
        raw(String(value))
    }

    mutating func integer(_ value: Int?) {
        integer(value.map(Int64.init))
    }
}

private let hexDigits = Array("0123456789abcdef".utf8)
