import Dispatch
import Locking

/// A whole GeoJSON document already in memory, split and decoded as a fetch does it, its chunks
/// decoded in parallel: for a store that is one file, read whole, and for tests that split
/// documents at chosen points. It blocks its caller until every chunk is decoded.
package struct FeatureDocument {
    package var quakes: [Quake] = []
    package var problems: [FeatureProblem] = []
    /// How many chunks the splitter cut the features into.
    package var chunkCount = 0

    /// Decodes `bytes`, handed to the splitter in blocks of `blockSize` bytes, cut into chunks of
    /// about `chunkSize`; without `digests`, the features' digests are not computed (a reader of a
    /// store needs none).
    package init(
        _ bytes: UnsafeRawBufferPointer, blockSize: Int = 1 << 20, chunkSize: Int = 256 * 1024, digests: Bool = true
    ) throws {
        var splitter = FeedSplitter(chunkSize: chunkSize)
        var chunks: [FeatureChunk] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + blockSize, bytes.count)
            try splitter.consume(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) { chunks.append($0) }
            start = end
        }
        let outline = try splitter.finish()
        if let remaining = outline.remainingFeatures { chunks.append(remaining) }
        chunkCount = chunks.count
        let batches = Locked([Result<FeatureBatch, any Error>?](repeating: nil, count: chunks.count))
        DispatchQueue.concurrentPerform(iterations: chunks.count) { [chunks] index in
            let batch = Result { try chunks[index].decode(digests: digests) }
            batches.withLock { $0[index] = batch }
        }
        for batch in batches.withLock({ $0 }) {
            let batch = try batch!.get()
            quakes += batch.quakes
            problems += batch.problems
        }
    }
}
