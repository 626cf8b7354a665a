/// A whole GeoJSON document already in memory, split and decoded as a fetch does it, on the calling
/// thread: for a store that is one file, read whole, and for tests that split documents at chosen
/// points.
package struct FeatureDocument {
    package var quakes: [Quake] = []
    package var problems: [FeatureProblem] = []
    /// How many chunks the splitter cut the features into.
    package var chunkCount = 0

    /// Decodes `bytes`, handed to the splitter in blocks of `blockSize` bytes, cut into chunks of
    /// about `chunkSize`.
    package init(_ bytes: UnsafeRawBufferPointer, blockSize: Int = 1 << 20, chunkSize: Int = 256 * 1024) throws {
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
        for chunk in chunks {
            let batch = try chunk.decode()
            quakes += batch.quakes
            problems += batch.problems
        }
    }
}
