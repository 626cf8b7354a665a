import Locking

/// What flows from a download to the ingest: chunks of features, then the document's outline.
enum FeedPart: Sendable {
    case chunk(FeatureChunk)
    case outline(FeedOutline)
}

/// The download's end of an ingest: splits the body into chunks as it arrives and sends them on,
/// blocking the download whenever the decoders and the store fall behind.
final class FeedSink: ByteSink {
    private let splitter: Locked<FeedSplitter>
    private let channel: BlockingChannel<FeedPart>
    private let progress: ProgressDisplay.Handle?

    init(chunkSize: Int, channel: BlockingChannel<FeedPart>, progress: ProgressDisplay.Handle? = nil) {
        splitter = Locked(FeedSplitter(chunkSize: chunkSize))
        self.channel = channel
        self.progress = progress
    }

    func transferProgress(received: Int64, expected: Int64?) {
        progress?.transfer(received: received, expected: expected)
    }

    func receive(_ bytes: UnsafeRawBufferPointer) throws {
        // Only the download thread calls in; the lock is never contended.
        try splitter.withLock { splitter in
            try splitter.consume(bytes) { chunk in try channel.send(.chunk(chunk)) }
        }
    }

    func finish() throws {
        let outline = try splitter.withLock { splitter in try splitter.finish() }
        try channel.send(.outline(outline))
        channel.finish()
    }
}
