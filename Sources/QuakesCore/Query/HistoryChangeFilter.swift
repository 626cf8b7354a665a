/// Which changes of the history a reader wants: those of one event (under any of its ids), of one
/// field, by at least some amount. `quakes history --id/--field/--min-change` and
/// `quakes show --history` ask through it.
package struct HistoryChangeFilter: Sendable, Equatable {
    /// The ids of the event; a change of one of them, or merged into one, is the event's. Nil for
    /// every event.
    package var ids: Set<String>?
    /// Only updates that changed this field.
    package var field: QuakeField?
    /// Only changes of `field` by at least this much, either way (a numeric field).
    package var minimumChange: Double?

    package init(ids: Set<String>? = nil, field: QuakeField? = nil, minimumChange: Double? = nil) {
        self.ids = ids
        self.field = field
        self.minimumChange = minimumChange
    }

    /// True when it keeps every change.
    package var keepsEverything: Bool {
        ids == nil && field == nil && minimumChange == nil
    }

    package func matches(_ change: HistoryChange) -> Bool {
        if let ids, !ids.contains(change.id), !(change.mergedInto.map(ids.contains) ?? false) { return false }
        guard let field else { return true }
        guard change.kind == .update, let changed = change.fields?.first(where: { $0.field == field }) else {
            return false
        }
        guard let minimumChange else { return true }
        // As the numbers are written: 2.5→2.2 is a change of 0.3, though in binary it falls short
        // by a few units in the last place.
        let tolerance = 1e-9 * max(1, minimumChange)
        return changed.difference.map { abs($0) >= minimumChange - tolerance } ?? false
    }

    /// The fields `--field` can name: those an update records.
    package static var fieldNames: [String] {
        FieldChange.fields.map(\.name)
    }

    /// The field named `name`, as the history records it.
    package static func field(named name: String) -> QuakeField? {
        FieldChange.fields.first { $0.name == name }
    }

    /// Every id of the event `id` leads to in `reader` (its own, those in its `ids`), with `id`
    /// itself: a deleted event's, or one never stored, only that.
    package static func ids(ofEvent id: String, in reader: some QuakeReading) throws -> Set<String> {
        Set([id] + ((try reader.quake(withID: id))?.namedIDs ?? []))
    }
}
