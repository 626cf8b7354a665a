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
        for element in elements.indices {
            switch try decode(element: element, digest: digests, preparation: nil) {
            case let .usable(decoded):
                batch.quakes.append(decoded.quake)
                if digests { batch.digests.append(decoded.digest) }
            case let .unusable(problem):
                batch.problems.append(problem)
            }
        }
        return batch
    }

    /// The features of the chunk for the store: skimmed when `skimming` (those the skim cannot
    /// stand for decoded at once), else decoded, each prepared by `preparation` when given (the
    /// store's `QuakeWriting.eventPreparation`). Fails, with a `JSONSyntaxError`, only when the
    /// chunk is not valid JSON.
    func prepare(skimming: Bool, preparation: (any EventPreparation)? = nil) throws -> IngestBatch {
        var batch = IngestBatch(chunk: skimming ? self : nil)
        batch.reserveCapacity(elements.count)
        try bytes.withUnsafeBytes { buffer in
            for (position, range) in elements.enumerated() {
                if skimming,
                    let skim = FeatureSkim.skim(
                        UnsafeRawBufferPointer(rebasing: buffer[range]), feedGenerated: feedGenerated)
                {
                    batch.append(skim, element: position)
                    continue
                }
                switch try decode(element: position, digest: true, preparation: preparation, in: buffer) {
                case let .usable(decoded): batch.append(decoded)
                case let .unusable(problem): batch.problems.append(problem)
                }
            }
        }
        return batch
    }

    /// Decodes the feature `elements[element]`, with its digest and fingerprint when `digest`, and
    /// prepared for the store by `preparation` when given.
    func decode(element: Int, digest: Bool, preparation: (any EventPreparation)?) throws -> IngestBatch.Decoding {
        try bytes.withUnsafeBytes { buffer in
            try decode(element: element, digest: digest, preparation: preparation, in: buffer)
        }
    }

    private func decode(
        element: Int, digest: Bool, preparation: (any EventPreparation)?, in buffer: UnsafeRawBufferPointer
    ) throws -> IngestBatch.Decoding {
        let range = elements[element]
        let bytes = UnsafeRawBufferPointer(rebasing: buffer[range])
        switch try FeatureDecoder.decode(bytes, origin: origin + Int64(range.lowerBound)) {
        case var .quake(quake):
            quake.feedGenerated = quake.feedGenerated ?? feedGenerated
            return .usable(
                IngestBatch.DecodedFeature(
                    quake: quake, digest: digest ? QuakeDigest.of(quake) : 0,
                    fingerprint: digest ? FeatureFingerprint.of(bytes) : nil, prepared: preparation?.prepare(quake))
            )
        case let .invalid(reason, id):
            return .unusable(FeatureProblem(index: firstIndex + element, id: id, reason: reason))
        }
    }
}
