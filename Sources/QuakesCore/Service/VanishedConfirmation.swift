/// Asks the FDSN service about each vanished event by its id and records the truth: ComCat answers
/// a deleted event (asked with `includedeleted=true`) with it, `status: deleted`; an id merged into
/// another event with that event, which names the old id in its `ids`; a revised event with its new
/// values; an id it does not know with 404. Each answer is stored by the usual rules, so a
/// deletion leaves a tombstone, a merge absorbs the old event, a revision updates it; an unknown id
/// gets a tombstone made here.
struct VanishedConfirmation {
    var service: FDSNService
    var settings: FetchSettings
    var store: any QuakeWriting
    var database: any DatabaseWriter
    var downloader: any Downloader

    /// What the service said of one vanished event.
    struct Outcome: Sendable, Equatable {
        enum Kind: String, Sendable {
            /// Deleted at the service (a tombstone is recorded).
            case deleted
            /// Now part of another event, `into`.
            case merged
            /// Still there, changed (a magnitude lowered below the feed's threshold).
            case revised
            /// Still there, as stored already (a sync brought the revision first).
            case current
            /// Unknown to the service: removed as if deleted.
            case unknown
            /// The question failed (see the error); nothing was recorded.
            case failed
        }

        var id: String
        var kind: Kind
        var into: String?
        var error: String?

        /// `vanished us7000abcd: merged into us7000abce`, as the summaries' lines say it.
        var text: String {
            "vanished \(id): \(kind.rawValue)" + (into.map { " into \($0)" } ?? "") + (error.map { ": \($0)" } ?? "")
        }

        /// `{"id":…,"outcome":"merged","into":…,"error":null}`, as the summaries write it.
        var json: JSONValue {
            .object([
                ("id", .string(id)), ("outcome", .string(kind.rawValue)), ("into", .string(into)),
                ("error", .string(error)),
            ])
        }
    }

    func confirm(_ ids: [String]) async throws -> [Outcome] {
        var outcomes: [Outcome] = []
        for id in ids {
            try Task.checkCancellation()
            outcomes.append(await confirm(id))
        }
        return outcomes
    }

    private func confirm(_ id: String) async -> Outcome {
        let stored = try? await database.readingAsWriter { try $0.storedQuake(id: id) }
        guard let stored else { return Outcome(id: id, kind: .current) }
        var ingest = FeedIngest(
            source: FeedSource(service: service.eventURL(id: id)), settings: settings, store: store,
            downloader: downloader)
        ingest.collectsIDs = true
        do {
            let report = try await ingest.run()
            let after = try? await database.readingAsWriter { try $0.quake(withID: id) }
            if let after, after.id != id { return Outcome(id: id, kind: .merged, into: after.id) }
            if after == nil { return Outcome(id: id, kind: .deleted) }
            return Outcome(id: id, kind: (report.commit?.updated ?? 0) > 0 ? .revised : .current)
        } catch {
            if case let .httpStatus(_, status, _, _)? = error.error as? DownloadError, status == 404 || status == 409 {
                // Gone from the service: a deletion newer than any version seen.
                var deletion = stored
                deletion.status = "deleted"
                deletion.updated = max((stored.updated ?? 0) + 1, settings.clock())
                do {
                    let ticket = try await store.beginIngest(author: settings.author, source: service.eventURL(id: id))
                    do {
                        _ = try await store.ingest([deletion], for: ticket)
                        _ = try await store.commit(ticket, timestamp: settings.clock(), feedState: nil)
                    } catch {
                        await store.rollback(ticket)
                        throw error
                    }
                    return Outcome(id: id, kind: status == 404 ? .unknown : .deleted)
                } catch {
                    return Outcome(id: id, kind: .failed, error: String(describing: error))
                }
            }
            return Outcome(id: id, kind: .failed, error: String(describing: error.error))
        }
    }
}
