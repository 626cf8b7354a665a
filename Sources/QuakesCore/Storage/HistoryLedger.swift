/// The net changes of one write, per event id, as the persistent history records them: what every
/// engine records, the same way.
///
/// The first change of an id says whether the event existed before the write, the last whether it
/// remains after it, so an event inserted then updated in one fetch is one insert, and one inserted
/// then deleted leaves no trace.
///
/// A fetch of a million events changes a million ids, more than memory should hold: after each
/// batch the engine takes the batch's entries out (`spill(into:mayHaveEarlier:)`) and keeps them in
/// its database, in the write's own transaction, until it commits.
///
/// `mayHaveEarlier` rests on what the identity rules guarantee: every id whose change they record
/// is one the batch's features name, and they give it an identity row in the same write, which
/// nothing in an ingest removes; so an id an earlier batch changed has an owner when the next
/// begins (on PostgreSQL, where the batch before may still be being written, through its decided
/// owners laid over the stored ones).
package struct HistoryLedger: Sendable {
    /// What happened to one id in the write so far.
    package struct Entry: Sendable, Equatable {
        package var id: String
        package var existed: Bool
        package var remains: Bool
        /// For an event that does not remain: the event that absorbed it, when it was re-identified.
        package var mergedInto: String?
        /// For an update, the fields it changed; for a deletion, the deleted event's tombstone
        /// (`FieldChange.tombstone(of:)`); nil for an insert, or when the values were not known.
        package var fields: [FieldChange]?

        package init(id: String, existed: Bool, remains: Bool, mergedInto: String?, fields: [FieldChange]? = nil) {
            self.id = id
            self.existed = existed
            self.remains = remains
            self.mergedInto = mergedInto
            self.fields = fields
        }

        /// The net change, nil when the event neither existed before nor remains.
        package var change: HistoryChange.Kind? {
            switch (existed, remains) {
            case (false, false): nil
            case (false, true): .insert
            case (true, true): .update
            case (true, false): .delete
            }
        }

        /// The event that absorbed this one as the history records it: only for a deletion.
        package var recordedMergedInto: String? {
            change == .delete ? mergedInto : nil
        }

        /// The fields the engines keep of the entry while the write is open: an update's changes or
        /// a deletion's tombstone, for a later batch to follow; an insert has none.
        package var storedFields: [FieldChange]? {
            existed ? fields : nil
        }

        /// This entry, then `later`, a change of the same id recorded after it.
        package func followed(by later: Entry) -> Entry {
            var entry = self
            entry.follow(with: later)
            return entry
        }

        /// Makes this entry what it is followed by `later`, a change of the same id recorded after
        /// it; an entry followed by itself is itself.
        mutating func follow(with later: Entry) {
            // Inserts, most entries of a load, have no fields: nothing to compare.
            if fields != nil || later.fields != nil { followFields(of: later) }
            remains = later.remains
            mergedInto = later.mergedInto
        }

        /// The fields of this entry followed by `later`: an update after an update is one, from the
        /// first old values to the last new ones; a deletion's are its tombstone, the last values.
        /// An event deleted and brought back within the write has none: what it was before the
        /// write is not kept once it is deleted (a tombstone holds a few fields), so its update's
        /// fields are not known. (An entry followed by itself holds the same array: equal at once,
        /// and kept.)
        private mutating func followFields(of later: Entry) {
            if remains && later.remains && later.existed {
                if fields != later.fields {
                    fields = fields.flatMap { earlier in later.fields.map { FieldChange.composed(earlier, $0) } }
                }
            } else if !remains && later.remains {
                fields = nil
            } else {
                fields = later.fields
            }
        }
    }

    private var entries: [String: Entry] = [:]

    package init() {}

    /// Notes a change of event `id`: whether it existed before the change, and remains after it,
    /// the event it was merged into, and the fields it changed (or the tombstone it left).
    package mutating func record(
        _ id: String, existed: Bool, remains: Bool, mergedInto: String? = nil, fields: [FieldChange]? = nil
    ) {
        let entry = Entry(id: id, existed: existed, remains: remains, mergedInto: mergedInto, fields: fields)
        // A first change is stored as the default, then followed by itself, which leaves it as
        // it is.
        entries[id, default: entry].follow(with: entry)
    }

    /// The entries recorded so far, for a store that keeps a whole write in memory.
    package var entriesSoFar: [Entry] {
        Array(entries.values)
    }

    /// Moves the entries recorded so far into `pending`, where the engine keeps those of earlier
    /// batches, each following the entry `pending` holds for its id; `mayHaveEarlier` says which
    /// ids an earlier batch may have changed (those that were stored when the batch began), so that
    /// an ingest of new events never looks.
    package mutating func spill(into pending: some PendingHistory, mayHaveEarlier: (String) -> Bool) throws {
        guard !entries.isEmpty else { return }
        let batch = Array(entries.values)
        entries = [:]
        let candidates = batch.lazy.map(\.id).filter(mayHaveEarlier)
        let earlier = candidates.isEmpty ? [:] : try pending.entries(for: Array(candidates))
        try pending.save(
            earlier.isEmpty ? batch : batch.map { entry in earlier[entry.id].map { $0.followed(by: entry) } ?? entry },
            replacing: Set(earlier.keys))
    }
}

/// Where an engine keeps the ledger entries of a write still open, in its transaction.
package protocol PendingHistory {
    /// The entries held for `ids`, for those that have one.
    func entries(for ids: [String]) throws -> [String: HistoryLedger.Entry]
    /// Holds `entries`, in place of those held for the ids in `replacing`.
    func save(_ entries: [HistoryLedger.Entry], replacing: Set<String>) throws
}
