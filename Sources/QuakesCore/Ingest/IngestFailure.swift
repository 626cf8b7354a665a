/// A source that could not be ingested, and how many attempts were made at it.
public struct IngestFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong the last time.
    public var error: any Error
    public var attempts: Int

    public var description: String {
        "\(error)" + (attempts > 1 ? " (gave up after \(attempts) attempts)" : "")
    }
}
