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

    /// `mag 5.7`: the field's value before the change, as a tombstone shows it.
    package var oldText: String {
        field.name + " " + Self.text(old, field)
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

// MARK: - In the history

extension FieldChange {
    /// The fields a deletion keeps of the event it deleted (its tombstone), each as `[last, null]`.
    /// In the listings' order, as every list of changes is.
    package static let tombstoneFields = fields.filter {
        [.time, .magnitude, .place, .longitude, .latitude, .depth].contains($0)
    }

    /// The tombstone of `quake`: its last values of `tombstoneFields`.
    package static func tombstone(of quake: Quake) -> [FieldChange] {
        tombstoneFields.map { FieldChange(field: $0, old: $0.value(of: quake), new: nil) }
    }

    /// `earlier` then `later`, two changes of the same event in one write, as one: each field from
    /// its first old value to its last new value, and a field that came back to where it was, none.
    package static func composed(_ earlier: [FieldChange], _ later: [FieldChange]) -> [FieldChange] {
        var byField: [QuakeField: FieldChange] = [:]
        for change in earlier { byField[change.field] = change }
        for change in later { byField[change.field, default: change].new = change.new }
        return fields.compactMap { field in byField[field].flatMap { $0.old == $0.new ? nil : $0 } }
    }

    /// The changes as the engines store them: `{"mag":[5.7,5.4]}`, each value as its column holds it
    /// (times in milliseconds, `extra` as its text), so that it reads back exactly (`stored(_:)`).
    /// Written straight into bytes, as listings are: an ingest that revises many events writes one
    /// for each.
    package static func storageText(_ changes: [FieldChange]) -> String {
        var buffer = JSONBuffer(capacity: 256)
        buffer.raw("{")
        for (index, change) in changes.enumerated() {
            if index > 0 { buffer.raw(",") }
            buffer.string(change.field.name)
            buffer.raw(":[")
            write(change.old, to: &buffer)
            buffer.raw(",")
            write(change.new, to: &buffer)
            buffer.raw("]")
        }
        buffer.raw("}")
        return buffer.string
    }

    private static func write(_ value: QuakeField.Value?, to buffer: inout JSONBuffer) {
        switch value {
        case nil: buffer.raw("null")
        case let .text(text)?: buffer.string(text)
        case let .integer(number)?: buffer.integer(number)
        case let .real(number)?: buffer.number(number)
        }
    }

    /// The changes `storageText` wrote, in the listings' order; nil when the text is not theirs.
    package static func stored(_ text: String) -> [FieldChange]? {
        guard case let .object(members)? = try? JSONValue(parsing: text) else { return nil }
        var changes: [FieldChange] = []
        for field in fields {
            guard case let .array(pair)? = JSONValue.object(members)[member: field.name], pair.count == 2 else {
                continue
            }
            changes.append(FieldChange(field: field, old: value(pair[0], field), new: value(pair[1], field)))
        }
        return changes.count == members.count ? changes : nil
    }

    private static func value(_ stored: JSONValue, _ field: QuakeField) -> QuakeField.Value? {
        switch field.kind {
        case .text: stored.stringValue.map(QuakeField.Value.text)
        case .integer: stored.integerValue.map(QuakeField.Value.integer)
        case .real: stored.doubleValue.map(QuakeField.Value.real)
        }
    }

    /// The numeric change, new minus old, when both are numbers.
    package var difference: Double? {
        switch (old, new) {
        case let (.real(a)?, .real(b)?): b - a
        case let (.integer(a)?, .integer(b)?): Double(b - a)
        default: nil
        }
    }
}
