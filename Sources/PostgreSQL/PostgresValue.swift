/// A value passed to PostgreSQL as a statement parameter or a COPY field.
///
/// Every value travels in PostgreSQL's text format, which the server parses according to the type
/// the statement gives the parameter or column; the cases only say how the Swift value is written.
/// A missing value (SQL NULL) is `nil` in the optional arrays that take these values.
public enum PostgresValue: Sendable, Equatable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)

    /// The text PostgreSQL parses back to this exact value.
    ///
    /// Doubles use Swift's `description`, the shortest text that reads back as the same Double
    /// ("0.1", "1e-300", "-0.0"), which `double precision` parses exactly. Swift writes infinities and
    /// NaN as "inf" and "nan"; they are spelt the way PostgreSQL writes them, which every numeric
    /// type of it accepts (`numeric` too, since PostgreSQL 14).
    var text: String {
        switch self {
        case .text(let text): text
        case .integer(let integer): String(integer)
        case .real(let real): Self.text(of: real)
        case .bool(let bool): bool ? "true" : "false"
        }
    }

    static func text(of real: Double) -> String {
        if real.isNaN { return "NaN" }
        if real.isInfinite { return real < 0 ? "-Infinity" : "Infinity" }
        return real.description
    }
}

extension PostgresValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
}

extension PostgresValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension PostgresValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension PostgresValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}
