/// One field of an event that a new version changed, with its value before and after: what the
/// history records of an update and `watch` reports of one. The fields are `QuakeField`'s, named
/// as the USGS properties are; `updated` (which every revision moves) and the feed time (which
/// every feed moves) are not changes of what USGS says of the event, and are left out.
package struct FieldChange: Sendable, Equatable {
    package var field: QuakeField
    package var old: QuakeField.Value?
    package var new: QuakeField.Value?

    package init(field: QuakeField, old: QuakeField.Value?, new: QuakeField.Value?) {
        self.field = field
        self.old = old
        self.new = new
    }

    /// The fields that can change between two versions of an event, in the listings' order.
    package static let fields = QuakeField.listed.filter { $0 != .id && $0 != .updated } + [.extra]

    /// What `new` changed of `old`, field by field, in the listings' order; empty when nothing did.
    package static func between(_ old: Quake, _ new: Quake) -> [FieldChange] {
        fields.compactMap { field in
            let before = field.value(of: old)
            let after = field.value(of: new)
            return before == after ? nil : FieldChange(field: field, old: before, new: after)
        }
    }

    /// `"mag":[5.7,5.4]`: the field's name and its values before and after, as JSON.
    package var json: (String, JSONValue) {
        (field.name, .array([Self.json(old, field), Self.json(new, field)]))
    }

    /// `mag 5.7→5.4`, `place "A"→"B"`, as a table shows it (the text made safe for a terminal).
    package var text: String {
        field.name + " " + Self.text(old, field) + "→" + Self.text(new, field)
    }

    private static func json(_ value: QuakeField.Value?, _ field: QuakeField) -> JSONValue {
        switch value {
        case nil: .null
        case let .text(text)?: field == .extra ? .raw(text) : .string(text)
        case let .integer(number)?: field.isTime ? .string(CivilTime.iso8601(number)) : .integer(number)
        case let .real(number)?: .number(number)
        }
    }

    private static func text(_ value: QuakeField.Value?, _ field: QuakeField) -> String {
        switch value {
        case nil: "null"
        case let .text(text)?: field == .extra ? "{…}" : "\"" + TerminalText.escaped(text) + "\""
        case let .integer(number)?: field.isTime ? CivilTime.iso8601(number) : String(number)
        case let .real(number)?: JSONValue.number(number).serialized()
        }
    }
}
