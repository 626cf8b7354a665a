/// One batch of a feed's features on its way to the store, in document order: each decoded, or
/// only skimmed when the store likely holds that very version already (a re-ingest).
///
/// A skimmed feature keeps where it lies in its chunk, so the store decodes it after all when its
/// fingerprint turns out not to be the stored version's (`IdentityRules.apply(_:owners:to:)`): the
/// skim is only ever a shortcut, never a guess.
public struct IngestBatch: Sendable {
    /// A feature of the batch.
    package enum Feature: Sendable {
        case decoded(DecodedFeature)
        /// Checked as JSON and skimmed; `element` is its index among the chunk's features.
        case skimmed(FeatureSkim, element: Int)
    }

    /// A usable feature, decoded.
    package struct DecodedFeature: Sendable {
        package let quake: Quake
        /// Its `QuakeDigest`.
        package let digest: Int64
        /// The `FeatureFingerprint` of the bytes it came from, when it came from a feed.
        package let fingerprint: Int64?
        /// The store's own form of `quake` (`EventPreparation`), when the decoder made one: what the
        /// store may write in its place.
        package let prepared: (any AnyObject & Sendable)?

        package init(quake: Quake, digest: Int64, fingerprint: Int64?, prepared: (any AnyObject & Sendable)? = nil) {
            self.quake = quake
            self.digest = digest
            self.fingerprint = fingerprint
            self.prepared = prepared
        }
    }

    /// What decoding one feature gives.
    package enum Decoding: Sendable {
        case usable(DecodedFeature)
        case unusable(FeatureProblem)
    }

    package private(set) var features: [Feature] = []
    /// Every id the features name, their own and their `ids`: those whose owners an engine reads,
    /// in one query, before it applies the batch. Gathered as features are added, by the decoders:
    /// gathered by the store, each feature would be copied whole to read its ids.
    package private(set) var namedIDs: [String] = []
    /// Where each feature's ids begin in `namedIDs`, its own first: the others follow, up to the
    /// next feature's.
    package private(set) var namedIDStarts: [Int] = []
    /// The features the decoders found unusable.
    package var problems: [FeatureProblem] = []
    /// The chunk the skimmed features are in.
    private var chunk: FeatureChunk?

    /// A batch of decoded quakes, `digests` their `QuakeDigest`s when the caller computed them.
    package init(_ quakes: [Quake], digests: [Int64]? = nil) {
        reserveCapacity(quakes.count)
        for index in quakes.indices {
            append(
                DecodedFeature(
                    quake: quakes[index], digest: digests?[index] ?? QuakeDigest.of(quakes[index]), fingerprint: nil))
        }
    }

    init(chunk: FeatureChunk?) {
        self.chunk = chunk
    }

    mutating func reserveCapacity(_ count: Int) {
        features.reserveCapacity(count)
        namedIDs.reserveCapacity(count)
        namedIDStarts.reserveCapacity(count)
    }

    mutating func append(_ feature: DecodedFeature) {
        namedIDStarts.append(namedIDs.count)
        namedIDs.append(feature.quake.id)
        namedIDs += feature.quake.otherIDs
        features.append(.decoded(feature))
    }

    mutating func append(_ skim: FeatureSkim, element: Int) {
        namedIDStarts.append(namedIDs.count)
        namedIDs.append(skim.id)
        namedIDs += skim.otherIDs
        features.append(.skimmed(skim, element: element))
    }

    /// Keeps the features whose `kept` is true, in order.
    mutating func keepFeatures(_ kept: [Bool]) {
        let features = self.features
        self.features = []
        namedIDs = []
        namedIDStarts = []
        for (feature, kept) in zip(features, kept) where kept {
            switch feature {
            case let .decoded(decoded): append(decoded)
            case let .skimmed(skim, element): append(skim, element: element)
            }
        }
    }

    /// The decoded features' quakes.
    package var quakes: [Quake] {
        features.compactMap { feature in
            if case let .decoded(decoded) = feature { decoded.quake } else { nil }
        }
    }

    /// Decodes a skimmed feature: what the decoders would have made of it.
    package func decode(element: Int) throws -> Decoding {
        guard let chunk else { preconditionFailure("a skimmed feature without its chunk") }
        // Not prepared: the store prepares what it writes of these (few are), when it prepares at all.
        return try chunk.decode(element: element, digest: true, preparation: nil)
    }
}

/// What storing a batch did.
public struct IngestOutcome: Sendable, Equatable {
    public var counts = IngestCounts()
    /// Skimmed features that decoding found unusable.
    public var problems: [FeatureProblem] = []
    /// Features that were the very version the store held (their fingerprint matched): how the
    /// ingest sees that skimming will pay.
    public var recognised = 0

    public init() {}
}
