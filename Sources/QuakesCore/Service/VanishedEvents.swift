/// Stored events that a summary feed should list and no longer does: USGS drops a deleted event
/// from its feeds without notice, and an event whose magnitude was lowered below a feed's threshold
/// leaves it too. Only asking the service tells the two apart (`VanishedConfirmation`).
enum VanishedEvents {
    /// How far inside a feed's time range an event must be to count as missing: the feed is cut at
    /// `generated` minus its length, and an event on that edge may have just left it.
    static let edge: Int64 = 10 * 60_000

    /// What a summary feed covers, from its URL and its `metadata.generated`: the stored events it
    /// must list (by time and magnitude). Nil for any other source, for `significant_*` feeds
    /// (no fixed threshold) and for a feed without `generated`.
    static func coverage(of source: FeedSource, generated: Int64?) -> QuakeFilter? {
        guard let generated, let threshold = FeedSource.threshold(ofSummaryFeed: source.url),
            let period = FeedSource.summaryFeed(of: source.url)?.period,
            let length = ["hour": Int64(3_600_000), "day": 86_400_000, "week": 604_800_000, "month": 2_592_000_000][
                period]
        else { return nil }
        var filter = QuakeFilter()
        filter.earliest = generated - length + edge
        filter.latest = generated
        filter.minimumMagnitude = threshold
        return filter
    }

    /// The ids of the stored events in the feed's coverage that the feed did not name, sorted.
    static func find(after report: IngestReport, in database: any DatabaseWriter) async throws -> [String] {
        guard report.status == .ok, let coverage = coverage(of: report.source, generated: report.generated) else {
            return []
        }
        let named = report.namedIDs
        return try await database.readingAsWriter { reader in
            var missing: [String] = []
            try reader.forEachQuake(coverage, in: nil, sort: .time, origin: nil, limit: nil) { quake in
                if !named.contains(quake.id) { missing.append(quake.id) }
                return true
            }
            return missing.sorted()
        }
    }

    /// What a fetch reports of one source's vanished events.
    struct Report: Sendable {
        var ids: [String] = []
        /// The service's answers, with `--confirm-vanished`.
        var confirmations: [VanishedConfirmation.Outcome] = []
    }

    /// Finds the vanished events of every source a fetch stored, records them with each feed (for
    /// `sync` to confirm), and confirms them at once when `confirmation` is given. Runs in the
    /// fetch's writer lock.
    static func check(
        _ outcomes: [Result<IngestReport, IngestFailure>], database: any DatabaseWriter, store: any QuakeWriting,
        confirmation: VanishedConfirmation?
    ) async throws -> [Int: Report] {
        var reports: [Int: Report] = [:]
        for (position, outcome) in outcomes.enumerated() {
            guard case let .success(ingest) = outcome, coverage(of: ingest.source, generated: ingest.generated) != nil
            else { continue }
            var report = Report(ids: try await find(after: ingest, in: database))
            if let confirmation, !report.ids.isEmpty {
                report.confirmations = try await confirmation.confirm(report.ids)
            }
            let open = report.ids.filter { id in
                !report.confirmations.contains { $0.id == id && $0.kind != .failed }
            }
            if var state = try await store.feedState(for: ingest.source.url), state.progress != progress(open) {
                state.progress = progress(open)
                try await store.save(state)
            }
            reports[position] = report
        }
        return reports
    }

    /// Confirms every vanished event the feeds recorded that is still stored, and forgets those
    /// the service answered for: what `sync` does after its passes.
    static func confirmRecorded(by confirmation: VanishedConfirmation) async throws -> [VanishedConfirmation.Outcome] {
        let sources = try await confirmation.database.readingAsWriter { try $0.status().sources }
        var outcomes: [VanishedConfirmation.Outcome] = []
        for var state in sources {
            let ids = recorded(in: state)
            guard !ids.isEmpty else { continue }
            // Those no longer stored were settled already (by this sync's passes, or a fetch).
            let stored = try await confirmation.database.readingAsWriter { reader in
                try ids.filter { try reader.storedQuake(id: $0) != nil }
            }
            let answered = try await confirmation.confirm(stored.filter { id in !outcomes.contains { $0.id == id } })
            outcomes += answered
            state.progress = progress(answered.filter { $0.kind == .failed }.map(\.id))
            try await confirmation.store.save(state)
        }
        return outcomes
    }

    /// The progress a feed's `FeedState` keeps of its vanished events, for `sync` to confirm later.
    static func progress(_ ids: [String]) -> String? {
        ids.isEmpty ? nil : JSONValue.object([("vanished", .array(ids.map(JSONValue.string)))]).serialized()
    }

    /// The vanished ids a feed's `FeedState` keeps.
    static func recorded(in state: FeedState) -> [String] {
        guard let progress = state.progress, let value = try? JSONValue(parsing: progress) else { return [] }
        return value[member: "vanished"]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}
