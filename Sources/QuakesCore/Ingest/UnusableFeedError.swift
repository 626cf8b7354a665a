/// A document with features of which not one could be stored: a feed that became unreadable, which
/// a cron job must hear of even with `--quiet`.
public struct UnusableFeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source as the user named it.
    public var source: String
    /// How many features the document had.
    public var features: Int
    /// The first few, and why each was skipped.
    public var problems: [FeatureProblem]

    public var description: String {
        "\(source): none of its \(features) features could be stored"
            + (problems.first.map { " (\($0)" + (features > 1 ? "; …)" : ")") } ?? "")
    }
}
