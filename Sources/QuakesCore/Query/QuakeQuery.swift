/// A listing's question: which events, in what order, divided into which sections, how many.
///
/// The command-line form of a sectioned, sorted and filtered fetch request.
public struct QuakeQuery: Sendable, Equatable {
    public var filter = QuakeFilter()
    public var sort = SortSpec.time
    public var section: SectionKey?
    /// The first N events in output order; sections keep only what remains.
    public var limit: Int?
    /// At most N events in each section.
    public var limitPerSection: Int?
    /// The point of `--near`: listings give each event's distance from it, and may sort by it.
    public var origin: GeoPoint?
    /// The zone that local sections (hour, day, week, month) follow.
    public var zone = DisplayZone.utc

    public init() {}

    /// What the table format prints, alone on a line, when a question matches no event (`list`,
    /// `count --section`, a watch's first pass, the pictures): machine formats write their empty
    /// shape instead.
    package static let nothingMatches = "No quakes match."

    /// True unless a limit of 0 asks for no event at all, which an empty listing then answers
    /// without saying that nothing matched.
    var asksForEvents: Bool {
        limit != 0 && limitPerSection != 0
    }

    /// True when sections come in the direction of the primary sort key: it is the section key's
    /// own (`--sort time:asc --section day` lists the oldest day first).
    var sectionsFollowSort: Bool {
        section?.sortKey == sort.primary.key
    }
}

/// One section of a listing.
public struct QuerySection: Sendable, Equatable {
    public var value: SectionValue
    /// `2021-07-20`, `4`, `unknown`.
    public var id: String
    /// `July 20, 2021`, `Magnitude 4`, `Unknown magnitude`.
    public var title: String
    /// Every event of the section that matches the filters, before any limit.
    public var count: Int
}
