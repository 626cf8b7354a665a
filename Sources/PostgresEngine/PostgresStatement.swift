import PostgreSQL
import QuakesCore

/// A statement under construction: SQL text and the values of its `$1`, `$2`… parameters, each
/// placeholder written with an explicit cast so the server never guesses a type.
struct PostgresStatement {
    private(set) var parameters: [PostgresValue?] = []

    /// Adds a parameter and returns its placeholder, `$n::type`.
    mutating func bind(_ value: PostgresValue?, as type: String) -> String {
        parameters.append(value)
        return "$\(parameters.count)::\(type)"
    }

    mutating func bind(_ value: Int64) -> String { bind(.integer(value), as: "bigint") }
    mutating func bind(_ value: Double) -> String { bind(.real(value), as: "float8") }
    mutating func bind(_ value: String) -> String { bind(.text(value), as: "text") }

    /// A `text[]` parameter holding `values`.
    mutating func bind(array values: [String]) -> String {
        bind(.text(Self.arrayLiteral(values)), as: "text[]")
    }

    /// `{"a","b"}`: an array literal whose elements are quoted, with `"` and `\` escaped, so any
    /// text arrives as it was.
    static func arrayLiteral(_ values: [String]) -> String {
        // Built from UTF-8 bytes: `"` and `\` are ASCII, which no byte of a longer character can be.
        var literal: [UInt8] = [UInt8(ascii: "{")]
        literal.reserveCapacity(values.reduce(2) { $0 + $1.utf8.count + 3 })
        for (index, value) in values.enumerated() {
            if index > 0 { literal.append(UInt8(ascii: ",")) }
            literal.append(UInt8(ascii: "\""))
            for byte in value.utf8 {
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { literal.append(UInt8(ascii: "\\")) }
                literal.append(byte)
            }
            literal.append(UInt8(ascii: "\""))
        }
        literal.append(UInt8(ascii: "}"))
        return String(decoding: literal, as: UTF8.self)
    }
}
