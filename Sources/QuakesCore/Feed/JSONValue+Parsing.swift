/// Reading a small JSON text whole into a `JSONValue`, with the feed decoder's own scanner (the
/// same checks of the grammar, UTF-8 and escapes): for a store's metadata, not for features, which
/// the decoder reads straight into quakes.
extension JSONValue {
    /// The value of the JSON text in `buffer`, which must hold one value and nothing else but
    /// whitespace. Integers keep every digit up to Int64's range; others are Doubles.
    package init(parsing buffer: UnsafeRawBufferPointer) throws(JSONSyntaxError) {
        var scanner = JSONScanner(buffer)
        self = try Self.value(&scanner, depth: 0)
        scanner.skipWhitespace()
        guard scanner.position == scanner.count else { throw scanner.unexpected("expected the end of the text") }
    }

    /// The value of the JSON text `text` (a progress kept in the database).
    package init(parsing text: String) throws(JSONSyntaxError) {
        let bytes = Array(text.utf8)
        let parsed = bytes.withUnsafeBytes { buffer in
            Result { () throws(JSONSyntaxError) in try JSONValue(parsing: buffer) }
        }
        self = try parsed.get()
    }

    private static func value(_ scanner: inout JSONScanner, depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < JSONScanner.maximumDepth else { throw scanner.error("nested too deeply") }
        guard let next = scanner.peek() else { throw scanner.unexpected("expected a value") }
        switch next {
        case .openBrace:
            var members: [(String, JSONValue)] = []
            guard try scanner.beginObject() else { return .object([]) }
            repeat {
                let key = scanner.string(try scanner.key())
                members.append((key, try value(&scanner, depth: depth + 1)))
            } while try scanner.nextMember(closer: .closeBrace)
            return .object(members)
        case .openBracket:
            var elements: [JSONValue] = []
            guard try scanner.beginArray() else { return .array([]) }
            repeat {
                elements.append(try value(&scanner, depth: depth + 1))
            } while try scanner.nextMember(closer: .closeBracket)
            return .array(elements)
        case .quote:
            return .string(scanner.string(try scanner.scanString()))
        case .minus, .zero...UInt8(ascii: "9"):
            let number = try scanner.scanNumber()
            if number.isInteger, let integer = Int64(scanner.text(number)) { return .integer(integer) }
            return .number(scanner.double(number))
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            try scanner.scanLiteral()
            return next == UInt8(ascii: "n") ? .null : .bool(next == UInt8(ascii: "t"))
        default:
            throw scanner.unexpected("expected a value")
        }
    }

    /// The member `name` of an object; nil for a missing member or a value that is not an object.
    package subscript(member name: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }

    package var integerValue: Int64? {
        if case let .integer(value) = self { value } else { nil }
    }

    /// A number, written with a fraction or without one (`180` as much as `179.5`).
    package var doubleValue: Double? {
        switch self {
        case let .integer(value): Double(value)
        case let .number(value): value
        default: nil
        }
    }

    package var stringValue: String? {
        if case let .string(value) = self { value } else { nil }
    }

    package var boolValue: Bool? {
        if case let .bool(value) = self { value } else { nil }
    }

    package var arrayValue: [JSONValue]? {
        if case let .array(value) = self { value } else { nil }
    }
}
