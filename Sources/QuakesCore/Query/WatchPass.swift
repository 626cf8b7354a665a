/// One pass of `quakes watch`: the query's result set read again, how it changed since the pass
/// before, and why each event came or went.
///
/// Why an event left is read from the snapshot the pass reads: still stored under its id, it left
/// the query; its id now leads to another event (the identity rules' owner), it was merged into
/// that one; neither, it was deleted. Why an event came is whether it was stored before the pass:
/// an engine that keeps history says so in its transactions since the previous pass's token (an
/// insert of that id: new, else it entered, with the fields its updates there changed); on one that
/// keeps none, the pass keeps the ids of every stored event for the next (read only when the store
/// changed), and an id among them entered.
struct WatchPass: Sendable {
    /// The result set, with the events' values, as the next pass compares it.
    var results: ResultSet
    /// The newest history token of the snapshot the pass read.
    var token: Int64
    /// The id of every stored event, on an engine that keeps no history; nil on others.
    var storedIDs: Set<String>?

    /// Reads the pass after `previous` (nil for the first) in `reader`'s snapshot, with the
    /// changes since it; nil when nothing can have changed (the same token, and a filter that
    /// does not move with the clock), which costs one read of the token.
    ///
    /// Beyond the query, a pass reads, on an engine that keeps history, each departed event by
    /// its id (and its owners), and when events arrived the history since the previous token;
    /// on one that keeps none, the whole catalogue when it changed, which that engine holds in
    /// memory anyway.
    static func read(
        _ query: QuakeQuery, reader: any QuakeReading, after previous: WatchPass?, keepsHistory: Bool,
        dependsOnNow: Bool
    ) throws -> (pass: WatchPass, changes: [ResultChange])? {
        let token = try reader.lastToken()
        if let previous, previous.token == token, !dependsOnNow { return nil }
        let results = try ResultSet(query, reader: reader)
        // Without history, the catalogue as it is now: its ids for the next pass, and its events
        // by id for this one's departures (a reader of such an engine finds an id by a scan).
        var catalogue: [String: Quake]?
        var storedIDs: Set<String>?
        if !keepsHistory {
            if let previous, previous.token == token, let ids = previous.storedIDs {
                storedIDs = ids
            } else {
                let quakes = try reader.allQuakes()
                catalogue = Dictionary(quakes.map { ($0.id, $0) }) { first, _ in first }
                storedIDs = Set(quakes.map(\.id))
            }
        }
        let pass = WatchPass(results: results, token: token, storedIDs: storedIDs)
        guard let previous else {
            let changes = results.changes(since: ResultSet()).map { change in
                var change = change
                change.reason = .initial
                return change
            }
            return (pass, changes)
        }
        var changes = results.changes(since: previous.results)
        let lookup = Lookup(reader: reader, catalogue: catalogue, storedIDs: storedIDs)
        let arrivals = Set(changes.lazy.filter { $0.kind == .insert }.map(\.quake.id))
        let (newIDs, revisions) = try newToTheCatalogue(
            arrivals, after: previous, reader: reader, keepsHistory: keepsHistory)
        for index in changes.indices {
            switch changes[index].kind {
            case .delete:
                (changes[index].reason, changes[index].fields) = try lookup.departure(of: changes[index].quake)
            case .insert:
                let id = changes[index].quake.id
                changes[index].reason = newIDs.contains(id) ? .new : .entered
                if !newIDs.contains(id) { changes[index].fields = revisions[id] ?? nil }
            case .update, .move:
                break
            }
        }
        return (pass, changes)
    }

    /// Which of `arrivals` (ids that entered the result set) were not stored at `previous`'s pass,
    /// and, on an engine that keeps history, what its updates since changed of each of the others
    /// (nil for one whose history has no fields).
    private static func newToTheCatalogue(
        _ arrivals: Set<String>, after previous: WatchPass, reader: any QuakeReading, keepsHistory: Bool
    ) throws -> (new: Set<String>, revisions: [String: [FieldChange]?]) {
        guard !arrivals.isEmpty else { return ([], [:]) }
        guard keepsHistory else { return (arrivals.subtracting(previous.storedIDs ?? []), [:]) }
        // Only what was written since the previous pass: each transaction's changes, one at a time.
        var inserted: Set<String> = []
        var revisions: [String: [FieldChange]?] = [:]
        try reader.forEachTransaction(after: previous.token, author: nil, withChanges: true, ofEvents: arrivals) {
            transaction in
            for change in transaction.changes ?? [] where arrivals.contains(change.id) {
                switch change.kind {
                case .insert: inserted.insert(change.id)
                case .update:
                    let earlier = revisions[change.id] ?? []
                    revisions[change.id] = earlier.flatMap { earlier in
                        change.fields.map { FieldChange.composed(earlier, $0) }
                    }
                case .delete: break
                }
            }
            return true
        }
        return (inserted, revisions)
    }

    /// Finds events of the pass's snapshot by id.
    private struct Lookup {
        let reader: any QuakeReading
        /// The whole catalogue by id, when the pass read it.
        let catalogue: [String: Quake]?
        /// Every stored id, on an engine that keeps no history.
        let storedIDs: Set<String>?

        /// The event stored under exactly `id`.
        func stored(_ id: String) throws -> Quake? {
            if let catalogue { return catalogue[id] }
            if let storedIDs, !storedIDs.contains(id) { return nil }
            return try reader.storedQuake(id: id)
        }

        /// Why `old`, an event of the previous result set, left it, and for one still stored, what
        /// changed of it.
        func departure(of old: Quake) throws -> (ResultChange.Reason, [FieldChange]?) {
            if let now = try stored(old.id) { return (.left, FieldChange.between(old, now)) }
            // Followed as `QuakeReading.quake(withID:)` does: an owner may itself have been absorbed.
            var visited: Set<String> = [old.id]
            var current = old.id
            while let owner = try reader.owner(of: current), visited.insert(owner).inserted {
                if let now = try stored(owner) { return (.merged(into: now.id), nil) }
                current = owner
            }
            return (.deleted, nil)
        }
    }
}
