/// A JSON value for the tool's machine-readable output, with object keys kept in the order given,
/// so that output is stable and reads in a sensible order.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// JSON text written as it is: a value that is already valid JSON, such as a stored `extra`.
    case raw(String)

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        lhs.serialized() == rhs.serialized()
    }

    /// The value as compact JSON text.
    public func serialized() -> String {
        var text = ""
        write(to: &text)
        return text
    }

    /// Appends the value as compact JSON text.
    public func write(to text: inout String) {
        switch self {
        case .null: text += "null"
        case let .bool(value): text += value ? "true" : "false"
        case let .integer(value): text += String(value)
        case let .number(value): text += Self.number(value)
        case let .string(value): Self.quote(value, into: &text)
        case let .raw(json): text += json
        case let .array(values):
            text += "["
            // By index, not `enumerated()`: see `QuakeFormats.writeJSONObject`.
            for index in values.indices {
                let value = values[index]
                if index > 0 { text += "," }
                value.write(to: &text)
            }
            text += "]"
        case let .object(members):
            text += "{"
            for index in members.indices {
                let (key, value) = members[index]
                if index > 0 { text += "," }
                Self.quote(key, into: &text)
                text += ":"
                value.write(to: &text)
            }
            text += "}"
        }
    }

    /// The shortest text that reads back as the same Double; integers without ".0"; null when not finite.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// Appends `string` in quotes, escaped as RFC 8259 requires (quotes, backslashes, control characters).
    public static func quote(_ string: String, into text: inout String) {
        var buffer = JSONBuffer(capacity: string.utf8.count + 2)
        buffer.string(string)
        text += buffer.string
    }
}

extension JSONValue {
    /// A string, or null for nil.
    package static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    /// An integer, or null for nil.
    package static func integer(_ value: Int?) -> JSONValue { value.map { .integer(Int64($0)) } ?? .null }
    /// An integer, or null for nil.
    package static func integer(_ value: Int64?) -> JSONValue { value.map { .integer($0) } ?? .null }
    /// A number, or null for nil.
    package static func number(_ value: Double?) -> JSONValue { value.map(JSONValue.number) ?? .null }
}
