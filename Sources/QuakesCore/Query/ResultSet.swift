/// The events a query returns, in output order, each with its section and its place in it: what a
/// fetched-results controller holds, and what `quakes watch` compares pass after pass.
struct ResultSet: Sendable, Equatable {
    /// One event of the result set.
    struct Entry: Sendable, Equatable {
        var quake: Quake
        /// The section's id, or nil when unsectioned.
        var section: String?
        /// The position in its section (or in the whole set when unsectioned), from 0.
        var index: Int
    }

    private(set) var entries: [Entry] = []
    private var positions: [String: Int] = [:]

    init() {}

    /// Reads the result set of `query`.
    init(_ query: QuakeQuery, reader: any QuakeReading) throws {
        let sections = try reader.sections(query)
        var index = 0
        var current: String?
        try reader.forEachQuake(query, sections: sections) { quake, section in
            if section?.id != current {
                current = section?.id
                index = 0
            }
            positions[quake.id] = entries.count
            entries.append(Entry(quake: quake, section: section?.id, index: index))
            index += 1
            return true
        }
    }

    func entry(for id: String) -> Entry? {
        positions[id].map { entries[$0] }
    }

    /// How to go from `previous` to this result set, as a fetched-results controller's delegate
    /// would hear it: deletes (with their old positions), inserts, moves (changed events whose
    /// section or position changed) and updates (changed events that stayed where they were),
    /// these two with the fields that changed. Events that did not change but shifted because
    /// others came or went are not reported. Why events came and went is for the caller to say
    /// (`WatchPass`): inserts and deletes have no reason yet.
    func changes(since previous: ResultSet) -> [ResultChange] {
        var deletes: [ResultChange] = []
        for old in previous.entries where positions[old.quake.id] == nil {
            deletes.append(
                ResultChange(
                    kind: .delete, quake: old.quake, section: old.section, index: nil,
                    oldSection: old.section, oldIndex: old.index))
        }
        var inserts: [ResultChange] = []
        var moves: [ResultChange] = []
        var updates: [ResultChange] = []
        for new in entries {
            guard let old = previous.entry(for: new.quake.id) else {
                inserts.append(
                    ResultChange(
                        kind: .insert, quake: new.quake, section: new.section, index: new.index,
                        oldSection: nil, oldIndex: nil))
                continue
            }
            // A later feed carrying the same version moves only `generated`: not a change of the event.
            guard old.quake.withoutFeedTime != new.quake.withoutFeedTime else { continue }
            let moved = old.section != new.section || old.index != new.index
            let change = ResultChange(
                kind: moved ? .move : .update, quake: new.quake, section: new.section,
                index: new.index, oldSection: old.section, oldIndex: old.index,
                fields: FieldChange.between(old.quake, new.quake))
            if moved { moves.append(change) } else { updates.append(change) }
        }
        return deletes + inserts + moves + updates
    }
}

/// One change of a result set.
struct ResultChange: Sendable, Equatable {
    enum Kind: String, Sendable {
        case insert, update, delete, move
    }

    /// Why an event entered or left the result set.
    enum Reason: Sendable, Equatable {
        /// An insert of the first pass: the result set as the watch found it.
        case initial
        /// An insert of an event new to the catalogue.
        case new
        /// An insert of an event that was stored before but did not match the query.
        case entered
        /// A delete of an event no longer in the catalogue (pruned, or deleted by a sync).
        case deleted
        /// A delete of an event that another absorbed when it was re-identified.
        case merged(into: String)
        /// A delete of an event still stored that no longer matches the query (or falls beyond
        /// its limits).
        case left

        /// As the ndjson output names it.
        var name: String {
            switch self {
            case .initial: "initial"
            case .new: "new"
            case .entered: "entered"
            case .deleted: "deleted"
            case .merged: "merged"
            case .left: "left"
            }
        }
    }

    var kind: Kind
    /// The event: as it is now, or as it was for a delete.
    var quake: Quake
    /// The section it is in now (for a delete, the one it was in).
    var section: String?
    /// Its position now; nil for a delete.
    var index: Int?
    var oldSection: String?
    /// Its position before; nil for an insert.
    var oldIndex: Int?
    /// Why it entered or left: for inserts and deletes, nil for updates and moves.
    var reason: Reason?
    /// What changed of the event, field by field: for updates and moves, and for an event that
    /// left or entered the query when its versions before and after are known; nil otherwise.
    var fields: [FieldChange]?
}
