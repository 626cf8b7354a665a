/// The decoded features of one chunk, in document order, ready for the store.
struct FeatureBatch: Sendable {
    /// The usable features.
    var quakes: [Quake] = []
    /// The `QuakeDigest` of each of `quakes`, computed here, by the decoders running in parallel,
    /// rather than by the store.
    var digests: [Int64] = []
    /// The features that were skipped, and why.
    var problems: [FeatureProblem] = []
}

/// A feature that was skipped because it is not a usable event, and why.
public struct FeatureProblem: Sendable, Equatable, CustomStringConvertible {
    /// The feature's position in the document's `features` array, counting from 0.
    public var index: Int
    /// The feature's id, when it had one.
    public var id: String?
    /// What was wrong, such as `properties.time is missing`.
    public var reason: String

    public var description: String {
        "feature \(index)\(id.map { " (\($0))" } ?? ""): \(reason)"
    }
}

extension FeatureChunk {
    /// Decodes every feature of the chunk, with their digests unless told not to; fails, with a
    /// `JSONSyntaxError`, only when the chunk is not valid JSON.
    func decode(digests: Bool = true) throws -> FeatureBatch {
        var batch = FeatureBatch()
        batch.quakes.reserveCapacity(elements.count)
        try bytes.withUnsafeBytes { buffer in
            for (position, range) in elements.enumerated() {
                let element = UnsafeRawBufferPointer(rebasing: buffer[range])
                switch try FeatureDecoder.decode(element, origin: origin + Int64(range.lowerBound)) {
                case var .quake(quake):
                    quake.feedGenerated = quake.feedGenerated ?? feedGenerated
                    batch.quakes.append(quake)
                    if digests { batch.digests.append(QuakeDigest.of(quake)) }
                case let .invalid(reason, id):
                    batch.problems.append(FeatureProblem(index: firstIndex + position, id: id, reason: reason))
                }
            }
        }
        return batch
    }
}
