/// Fetches several sources at once into one store, each in its own transaction, stored in the order
/// given (`SourceTurns`) so that each source's counts are the same whatever the run, and reports on
/// each in that order: what `quakes fetch` and every pass of `quakes watch` do.
struct Fetch {
    var sources: [FeedSource]
    var settings: FetchSettings
    var store: any QuakeWriting
    var downloader: any Downloader
    /// The progress line, when one is drawn.
    var progress: ProgressDisplay?

    func run() async -> [Result<IngestReport, IngestFailure>] {
        let turns = SourceTurns()
        return await withTaskGroup(of: (Int, Result<IngestReport, IngestFailure>).self) { group in
            for (position, source) in sources.enumerated() {
                var ingest = FeedIngest(
                    source: source, settings: settings, store: store, downloader: downloader,
                    progress: progress?.handle(for: source.label))
                // A summary feed's ids, to find the stored events it no longer lists.
                ingest.collectsIDs = FeedSource.threshold(ofSummaryFeed: source.url) != nil
                ingest.awaitTurn = { await turns.wait(for: position) }
                group.addTask {
                    defer { ingest.progress?.finished() }
                    let outcome: Result<IngestReport, IngestFailure>
                    do throws(IngestFailure) {
                        outcome = .success(try await ingest.run())
                    } catch {
                        outcome = .failure(error)
                    }
                    await turns.end(position)
                    return (position, outcome)
                }
            }
            var outcomes = [Result<IngestReport, IngestFailure>?](repeating: nil, count: sources.count)
            for await (position, outcome) in group { outcomes[position] = outcome }
            return outcomes.compactMap { $0 }
        }
    }
}
