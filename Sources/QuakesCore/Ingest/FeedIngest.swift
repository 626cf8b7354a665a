import Foundation

/// What ingesting one source did.
public struct IngestReport: Sendable {
    /// The source, as the user named it.
    public var source: FeedSource
    /// What became of the usable features.
    public var counts = IngestCounts()
    /// How many features were skipped as unusable.
    public var skipped = 0
    /// The first few skipped features and why; `skipped` counts them all.
    public var problems: [FeatureProblem] = []
    /// The URL the body came from, after redirects.
    public var url: String
    /// The body's size after decompression.
    public var bodyBytes: Int64 = 0
    /// How long the ingest took, download included.
    public var seconds: Double = 0

    /// Every feature of the document.
    public var features: Int { counts.total + skipped }
}

/// Ingests one source in one transaction: the download, the splitter, several decoders at once and
/// the store all work at the same time, each on its own part of the document.
///
/// The download thread cuts the body into chunks (`FeedSink`); up to `decodersInFlight` chunks are
/// decoded at once on the cooperative pool; decoded batches go to the store in document order, so
/// the result is exactly that of a sequential ingest. Every stage holds a bounded number of chunks,
/// so memory does not grow with the document. Any failure rolls the whole source back.
struct FeedIngest {
    var source: FeedSource
    var request: DownloadRequest
    var store: QuakeStore
    var downloader: any Downloader
    /// About how many bytes of features each decoder task takes at a time.
    var chunkSize = 256 * 1024
    /// How many chunks may be decoding at once.
    var decodersInFlight = max(2, ProcessInfo.processInfo.activeProcessorCount)
    /// How many chunks the download may get ahead of the decoders.
    var channelCapacity = 4
    /// How many skipped features are reported in full.
    static let problemsReported = 5

    func run() async throws -> IngestReport {
        let started = ContinuousClock.now
        let writer = BatchWriter(store: store, report: IngestReport(source: source, url: request.url))
        do {
            try source.checkLocalFile()
            let channel = BlockingChannel<FeedPart>(capacity: channelCapacity)
            let sink = FeedSink(chunkSize: chunkSize, channel: channel)
            let response = try await withThrowingTaskGroup(of: DownloadResponse.self) { group in
                group.addTask { [downloader, request] in
                    do {
                        return try await downloader.download(request, into: sink)
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
            try await writer.commit()
            var report = writer.report
            report.url = response.url
            report.bodyBytes = response.bodyBytes
            report.seconds = (ContinuousClock.now - started).seconds
            return report
        } catch {
            await writer.rollback()
            throw Self.describe(error, source: source)
        }
    }

    /// Decodes chunks from `channel` on up to `decodersInFlight` tasks and stores them in order.
    private func decodeAndStore(from channel: BlockingChannel<FeedPart>, into writer: BatchWriter) async throws {
        try await withThrowingTaskGroup(of: (Int, FeatureBatch).self) { decoders in
            var submitted = 0
            var stored = 0
            var decoded: [Int: FeatureBatch] = [:]
            var inputEnded = false
            while true {
                while !inputEnded, submitted - stored < decodersInFlight {
                    guard let chunk = try await Self.nextChunk(from: channel) else {
                        inputEnded = true
                        break
                    }
                    let position = submitted
                    decoders.addTask { (position, try chunk.decode()) }
                    submitted += 1
                }
                guard stored < submitted else { return }
                // Batches finish in any order; they are stored in the document's.
                while decoded[stored] == nil {
                    guard let (position, batch) = try await decoders.next() else { return }
                    decoded[position] = batch
                }
                try await writer.write(decoded.removeValue(forKey: stored)!)
                stored += 1
            }
        }
    }

    /// The next chunk to decode: streamed chunks, then any features left in the outline.
    private static func nextChunk(from channel: BlockingChannel<FeedPart>) async throws -> FeatureChunk? {
        while let part = try await channel.next() {
            switch part {
            case let .chunk(chunk): return chunk
            case let .outline(outline): if let remaining = outline.remainingFeatures { return remaining }
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
    let store: QuakeStore
    var report: IngestReport
    private var ticket: QuakeStore.IngestTicket?

    init(store: QuakeStore, report: IngestReport) {
        self.store = store
        self.report = report
    }

    func write(_ batch: FeatureBatch) async throws {
        if ticket == nil { ticket = try await store.beginIngest() }
        report.counts += try await store.ingest(batch.quakes, for: ticket!)
        report.skipped += batch.problems.count
        report.problems += batch.problems.prefix(max(0, FeedIngest.problemsReported - report.problems.count))
    }

    func commit() async throws {
        guard let ticket else { return }
        try await store.commit(ticket)
        self.ticket = nil
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
