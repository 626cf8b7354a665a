/// A value to bind to a statement parameter, for SQL built from parts whose parameters are not
/// known until run time (a query's filters, say).
public enum SQLValue: Sendable, Equatable, CustomStringConvertible {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    public var description: String {
        switch self {
        case .null: "NULL"
        case let .integer(value): String(value)
        case let .real(value): String(value)
        case let .text(value):
            "'" + value.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "''") + "'"
        }
    }
}

extension Statement {
    /// Binds `value` to parameter `index`.
    public func bind(_ value: SQLValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .null: try bindNull(at: index)
        case let .integer(value): try bind(value, at: index)
        case let .real(value): try bind(value, at: index)
        case let .text(value): try bind(value, at: index)
        }
    }

    /// Binds `values` to parameters 1, 2, 3….
    public func bind(_ values: [SQLValue]) throws(SQLiteError) {
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }
}
