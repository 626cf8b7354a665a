import Glibc
import Locking
import Synchronization

/// What ingesting one source did.
public struct IngestReport: Sendable {
    public enum Status: String, Sendable {
        /// The source was downloaded and stored.
        case ok
        /// The server answered 304 Not Modified: nothing changed since the last fetch.
        case notModified = "not-modified"
    }

    /// The source, as the user named it.
    public var source: FeedSource
    public var status = Status.ok
    /// How many usable features changed an event, and how many did not.
    public var counts = IngestCounts()
    /// How many features were skipped as unusable.
    public var skipped = 0
    /// The first few skipped features and why; `skipped` counts them all.
    public var problems: [FeatureProblem] = []
    /// The URL the body came from, after redirects.
    public var url: String
    /// The body's size after decompression.
    public var bodyBytes: Int64 = 0
    /// How long the ingest took, download and retries included.
    public var seconds: Double = 0
    /// How many downloads it took.
    public var attempts = 1
    /// The history transaction it recorded, if it changed anything.
    public var commit: StoreCommit?
    /// Features of the document that `FeedIngest.selection` left out, not counted elsewhere.
    public var leftOut = 0
    /// Every id the stored features named, their own and their `ids`, when asked for.
    public var namedIDs: Set<String> = []
    /// The feed's `metadata.generated`, when it had one.
    public var generated: Int64?

    /// Every feature of the document.
    public var features: Int { counts.total + skipped }
}

/// Ingests one source in one transaction: the download, the splitter, several decoders at once and
/// the store all work at the same time, each on its own part of the document.
///
/// The download thread cuts the body into chunks (`FeedSink`); up to `decodersInFlight` chunks are
/// decoded at once on the cooperative pool; decoded batches go to the store in document order, so
/// the result is exactly that of a sequential ingest. Every stage holds a bounded number of chunks,
/// so memory does not grow with the document. Any failure rolls the whole source back; transient
/// ones (a timeout, a dropped connection, HTTP 429 or 5xx) are tried again, from the start.
struct FeedIngest {
    var source: FeedSource
    var settings: FetchSettings
    var store: any QuakeWriting
    var downloader: any Downloader
    var progress: ProgressDisplay.Handle?
    /// Which of a batch's features are stored, for a source that answers more than its own part (a
    /// backfill window's shared boundary second, a sync's margin); nil stores them all. Those left
    /// out are not counted.
    var selection: (@Sendable ([Quake]) async throws -> [Bool])?
    /// What is recorded of the source with its events instead of its URL's validators (where a
    /// backfill stands), made from the finished report just before the commit; throwing rolls the
    /// source back.
    var record: (@Sendable (IngestReport) throws -> FeedState)?
    /// True to keep every id the document names in the report (`IngestReport.namedIDs`), to find
    /// the stored events a feed no longer lists.
    var collectsIDs = false
    /// Returns when this source may begin its transaction (`SourceTurns`): the sources of one fetch
    /// store in the order given. Nil: at once.
    var awaitTurn: (@Sendable () async -> Void)?
    /// About how many bytes of features each decoder task takes at a time.
    var chunkSize = Self.defaultChunkSize
    /// `chunkSize` unless set otherwise; tests read it to place a feature in a given batch.
    static let defaultChunkSize = 256 * 1024
    /// How many chunks may be decoding at once: twice the cores, so that decoders never wait for
    /// the task that hands their batches to the store.
    var decodersInFlight = 2 * Processors.available
    /// How many chunks the download may get ahead of the decoders.
    var channelCapacity = 8
    /// How many skipped features are reported in full.
    static let problemsReported = 5

    func run() async throws(IngestFailure) -> IngestReport {
        let started = ContinuousClock.now
        var attempt = 0
        while true {
            attempt += 1
            do {
                var report = try await attemptOnce()
                report.attempts = attempt
                report.seconds = (ContinuousClock.now - started).seconds
                return report
            } catch {
                let reported = Self.describe(error, source: source)
                guard attempt <= settings.retries, let download = reported as? DownloadError, download.isTransient,
                    let delay = retryDelay(after: attempt, retryAfter: download.retryAfter)
                else { throw IngestFailure(error: reported, attempts: attempt) }
                progress?.retrying(in: delay)
                do {
                    try await Task.sleep(for: .milliseconds(Int64(delay * 1000)))
                } catch {
                    throw IngestFailure(error: error, attempts: attempt)
                }
            }
        }
    }

    /// One download and ingest, in one transaction.
    private func attemptOnce() async throws -> IngestReport {
        let isHTTP = source.isHTTP
        let validators = isHTTP && !settings.force && record == nil ? try await store.feedState(for: source.url) : nil
        var headers: [String] = []
        if let etag = validators?.etag { headers.append("If-None-Match: \(etag)") }
        if let lastModified = validators?.lastModified { headers.append("If-Modified-Since: \(lastModified)") }
        let request = DownloadRequest(
            url: source.url, timeout: settings.timeout, maximumBytes: settings.maximumBytes,
            userAgent: settings.userAgent, headers: headers, caBundle: settings.caBundle, caPath: settings.caPath)

        let writer = BatchWriter(
            store: store, settings: settings, source: source, progress: progress, selection: selection,
            collectsIDs: collectsIDs, awaitTurn: awaitTurn)
        do {
            try source.checkLocalFile()
            let channel = BlockingChannel<FeedPart>(capacity: channelCapacity)
            let sink = GzipDecodingSink(
                next: FeedSink(chunkSize: chunkSize, channel: channel, progress: progress), url: source.label,
                maximumBytes: settings.maximumBytes)
            let downloader: any Downloader = source.isStandardInput ? StandardInputReader() : downloader
            let response = try await withThrowingTaskGroup(of: DownloadResponse.self) { group in
                group.addTask { [downloader] in
                    do {
                        let response = try await downloader.download(request, into: sink)
                        channel.finish()  // Already done for a body; a 304 has none.
                        return response
                    } catch {
                        channel.finish(throwing: error)  // The consumer's next read throws it.
                        throw error
                    }
                }
                do {
                    try await decodeAndStore(from: channel, into: writer)
                } catch {
                    // Wake and stop the download, which the group waits for before it returns.
                    channel.abandon(with: error)
                    group.cancelAll()
                    throw error
                }
                return try await group.next()!
            }
            var report = writer.report
            report.url = response.url
            report.bodyBytes = response.bodyBytes
            let now = settings.clock()
            if response.isNotModified {
                // Only when it was checked is recorded, for `quakes status --fresh-within`.
                report.status = .notModified
                try await store.save(
                    FeedState(
                        url: source.url, etag: validators?.etag, lastModified: validators?.lastModified,
                        fetched: validators?.fetched ?? now, checked: now, outcome: report.status.rawValue))
                return report
            }
            // A document with features of which none could be stored is a feed gone wrong, not news.
            if report.features > 0, report.counts.total == 0 {
                throw UnusableFeedError(source: source.label, features: report.features, problems: report.problems)
            }
            // Standard input is no source to follow: what came through it is not recorded.
            let state: FeedState? =
                if let record { try record(report) } else if source.isStandardInput { nil } else {
                    FeedState(
                        url: source.url, etag: isHTTP ? response.etag : nil,
                        lastModified: isHTTP ? response.lastModified : nil, fetched: now, checked: now,
                        outcome: report.status.rawValue)
                }
            report.commit = try await writer.commit(feedState: state)
            return report
        } catch {
            await writer.rollback()
            throw error
        }
    }

    /// How long to wait before attempt `attempt + 1`: the server's `Retry-After` when it sent one
    /// (nil, giving up, when that is more than ten minutes away), else exponential backoff with jitter.
    private func retryDelay(after attempt: Int, retryAfter: String?) -> Double? {
        if let retryAfter, let seconds = RetryAfter.seconds(retryAfter, now: settings.clock()) {
            return seconds <= 600 ? seconds : nil
        }
        let backoff = min(60, settings.retryDelay * pow(2, Double(attempt - 1)))
        return backoff * Double.random(in: 0.5...1.5)
    }

    /// Decodes chunks from `channel` on up to `decodersInFlight` tasks and stores them in order.
    ///
    /// While most features are versions the store holds already (a re-ingest), the decoders only
    /// skim them and the store decodes the few it does not hold; while most are not (a first
    /// ingest), they decode them all, in parallel. Which it is is learnt from each stored batch
    /// (`BatchWriter.skimming`), so a wrong guess costs a few chunks. A selection needs every
    /// quake, so it never skims.
    ///
    /// The loop that hands batches on runs on the store's queue, between its jobs
    /// (`QuakeWriting.companionExecutor`), the decoders on the cooperative pool. On the pool, with
    /// every thread of it decoding, the loop would wait for a decode to end before it could give the
    /// store its next batch, and cores would sit idle meanwhile; on a queue of its own, each batch
    /// handed over and each answer would wake another thread.
    private func decodeAndStore(from channel: BlockingChannel<FeedPart>, into writer: BatchWriter) async throws {
        try await withTaskExecutorPreference(store.companionExecutor) {
            try await decodeAndStoreInOrder(from: channel, into: writer)
        }
    }

    private func decodeAndStoreInOrder(from channel: BlockingChannel<FeedPart>, into writer: BatchWriter) async throws {
        try await withThrowingTaskGroup(of: (Int, IngestBatch).self) { decoders in
            var submitted = 0
            var stored = 0
            var decoded: [Int: IngestBatch] = [:]
            // The batch last stored, for the next decoder task to free before it decodes: freeing
            // every text of its quakes here would hold the store up, between two batches it waits
            // for. Emptied first thing by the task, so no decode holds a stored batch in memory.
            var lastStored: IngestBatch?
            var inputEnded = false
            let preparation = store.eventPreparation
            while true {
                try Task.checkCancellation()
                while !inputEnded, submitted - stored < decodersInFlight {
                    guard let chunk = try await Self.nextChunk(from: channel, writer: writer) else {
                        inputEnded = true
                        break
                    }
                    let position = submitted
                    let skimming = writer.skimming.load(ordering: .relaxed)
                    let finished = Locked(lastStored)
                    lastStored = nil
                    decoders.addTask(executorPreference: globalConcurrentExecutor) {
                        finished.withLock { $0 = nil }
                        return (position, try chunk.prepare(skimming: skimming, preparation: preparation))
                    }
                    submitted += 1
                }
                guard stored < submitted else { return }
                // Batches finish in any order; they are stored in the document's.
                while decoded[stored] == nil {
                    guard let (position, batch) = try await decoders.next() else { return }
                    decoded[position] = batch
                }
                let batch = decoded.removeValue(forKey: stored)!
                try await writer.write(batch)
                lastStored = batch
                stored += 1
            }
        }
    }

    /// The next chunk to decode: streamed chunks, then any features left in the outline.
    private static func nextChunk(from channel: BlockingChannel<FeedPart>, writer: BatchWriter) async throws
        -> FeatureChunk?
    {
        while let part = try await channel.next() {
            switch part {
            case let .chunk(chunk): return chunk
            case let .outline(outline):
                writer.report.generated = outline.generated
                if let remaining = outline.remainingFeatures { return remaining }
            }
        }
        return nil
    }

    /// The error to report for `error`, naming the source.
    static func describe(_ error: any Error, source: FeedSource) -> any Error {
        switch error {
        case let error as JSONSyntaxError:
            return FeedError(source: source.label, offset: error.offset, reason: error.reason)
        case let DownloadError.unreadableFile(_, reason) where source.localPath != nil:
            return DownloadError.unreadableFile(path: source.label, reason: reason)
        default:
            return error
        }
    }
}

/// The store's end of one ingest: opens the transaction with the first batch and keeps the counts.
///
/// Used by one task only, the ingest's; not `Sendable`.
private final class BatchWriter {
    let store: any QuakeWriting
    let settings: FetchSettings
    let source: FeedSource
    let progress: ProgressDisplay.Handle?
    let selection: (@Sendable ([Quake]) async throws -> [Bool])?
    let collectsIDs: Bool
    let awaitTurn: (@Sendable () async -> Void)?
    var report: IngestReport
    /// Whether the decoders should skim the next chunks rather than decode them: true while the
    /// store recognises most features of a batch. Starts false: the first chunks are decoded in
    /// parallel whatever the feed, which costs a re-ingest a few of its hundreds of chunks, where
    /// starting true would make the store decode, alone and after a skim, every feature of a first
    /// ingest's first chunks and of every small new feed.
    let skimming: Atomic<Bool>
    private var ticket: IngestTicket?

    init(
        store: any QuakeWriting, settings: FetchSettings, source: FeedSource, progress: ProgressDisplay.Handle?,
        selection: (@Sendable ([Quake]) async throws -> [Bool])?, collectsIDs: Bool,
        awaitTurn: (@Sendable () async -> Void)?
    ) {
        self.store = store
        self.settings = settings
        self.source = source
        self.progress = progress
        self.selection = selection
        self.collectsIDs = collectsIDs
        self.awaitTurn = awaitTurn
        report = IngestReport(source: source, url: source.url)
        skimming = Atomic(false)
    }

    func write(_ batch: IngestBatch) async throws {
        var batch = batch
        if let selection {
            // Never skimmed (`skimming`): every feature is decoded.
            let selected = try await selection(batch.quakes)
            report.leftOut += selected.count - selected.count { $0 }
            batch.keepFeatures(selected)
        }
        if collectsIDs { report.namedIDs.formUnion(batch.namedIDs) }
        if ticket == nil {
            await awaitTurn?()
            ticket = try await store.beginIngest(author: settings.author, source: source.url)
        }
        let outcome = try await store.ingest(batch, for: ticket!)
        report.counts += outcome.counts
        if selection == nil, !collectsIDs {
            skimming.store(outcome.recognised * 2 >= batch.features.count, ordering: .relaxed)
        }
        // The features the decoders found unusable and those the store did come in document order.
        let problems = (batch.problems + outcome.problems).sorted { $0.index < $1.index }
        report.skipped += problems.count
        report.problems += problems.prefix(max(0, FeedIngest.problemsReported - report.problems.count))
        progress?.stored(report.features)
    }

    /// Commits what was written (with `feedState`), or, when nothing was, saves `feedState` alone.
    func commit(feedState: FeedState?) async throws -> StoreCommit? {
        guard let ticket else {
            if let feedState { try await store.save(feedState) }
            return nil
        }
        let commit = try await store.commit(ticket, timestamp: settings.clock(), feedState: feedState)
        self.ticket = nil
        return commit
    }

    func rollback() async {
        guard let ticket else { return }
        await store.rollback(ticket)
        self.ticket = nil
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
