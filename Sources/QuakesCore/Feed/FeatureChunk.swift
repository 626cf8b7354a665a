/// A run of whole features cut from a document, with where each one lies in `bytes`.
///
/// Chunks are what the concurrent decoders work on: each is self-contained, so any task can decode
/// it, and `firstIndex` and `origin` let errors name the feature and the document offset.
struct FeatureChunk: Sendable {
    /// The chunk's bytes, features and the separators between them.
    var bytes: [UInt8]
    /// Where each feature lies in `bytes`, without the separators.
    var elements: [Range<Int>]
    /// The position of `elements[0]` among the document's features, counting from 0.
    var firstIndex: Int
    /// The document offset of `bytes[0]`.
    var origin: Int64
    /// The document's `metadata.generated`, when it came before the features.
    var feedGenerated: Int64?
}
