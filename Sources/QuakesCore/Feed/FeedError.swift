/// A document that is not a usable feed.
public struct FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source as the user named it.
    public var source: String
    /// The byte offset in the document where reading stopped.
    public var offset: Int64
    /// What was wrong there.
    public var reason: String

    public var description: String {
        "\(source): not a valid GeoJSON feed: \(reason) (at byte \(offset))"
    }
}
