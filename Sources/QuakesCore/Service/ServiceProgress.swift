/// Where a paged read of an FDSN service stands, kept in the database with the events of each
/// window (as the `progress` of the plan's `FeedState`), so that a backfill or a sync interrupted
/// anyhow goes on where it stopped when run again.
///
/// A pass reads the events of `since ..< until` (event time) in windows, oldest first. Everything
/// in `since ..< done` is stored; with several windows in flight, later ones may finish first and
/// wait in `finished` until the ones before them are done.
struct ServiceProgress: Sendable, Equatable {
    enum Kind: String, Sendable {
        case backfill, sync
    }

    var kind: Kind
    /// What the service is asked, besides time: the plan's scope.
    var filter: FDSNFilter
    var since: Int64
    var until: Int64
    /// Everything before it (and from `since`) is stored.
    var done: Int64
    /// Windows stored beyond `done`, as `[start, end)` pairs in order.
    var finished: [Range<Int64>] = []
    /// The length of the last window the service answered, which the next starts from.
    var span: Int64
    /// Windows stored, requests made and refused (over the cap), and features stored, in all runs
    /// of this pass.
    var windows = 0
    var requests = 0
    var refused = 0
    var features = 0
    /// When the pass started, in milliseconds since 1970.
    var started: Int64
    var complete = false
    /// For a sync: the pass asks for events updated at or after this moment.
    var updatedAfter: Int64?
    /// For a sync: what the next pass asks for once this one is complete.
    var nextUpdatedAfter: Int64?

    init(kind: Kind, filter: FDSNFilter, since: Int64, until: Int64, started: Int64) {
        self.kind = kind
        self.filter = filter
        self.since = since
        self.until = until
        self.done = since
        self.span = max(1000, until - since)
        self.started = started
        self.complete = since >= until
    }

    /// Records the window `range` as stored.
    mutating func finish(_ range: Range<Int64>) {
        finished.append(range)
        finished.sort { $0.lowerBound < $1.lowerBound }
        while let first = finished.first, first.lowerBound <= done {
            done = max(done, first.upperBound)
            finished.removeFirst()
        }
        complete = done >= until
    }

    /// The parts of `since ..< until` not stored yet, oldest first, up to `limit` (where new
    /// windows begin).
    func gaps(before limit: Int64) -> [Range<Int64>] {
        var gaps: [Range<Int64>] = []
        var start = done
        for range in finished {
            if range.lowerBound > start { gaps.append(start..<min(range.lowerBound, limit)) }
            start = max(start, range.upperBound)
        }
        return gaps.filter { !$0.isEmpty }
    }

    /// Where windows that no gap covers begin.
    var frontier: Int64 { finished.last.map { max(done, $0.upperBound) } ?? done }

    // MARK: - Text

    /// The JSON text kept in the database.
    func encoded() -> String {
        var members: [(String, JSONValue)] = [
            ("kind", .string(kind.rawValue)),
            ("parameters", .array(filter.parameters.map { .array([.string($0.name), .string($0.value)]) })),
            ("since", .integer(since)), ("until", .integer(until)), ("done", .integer(done)),
            ("finished", .array(finished.map { .array([.integer($0.lowerBound), .integer($0.upperBound)]) })),
            ("span", .integer(span)), ("windows", .integer(windows)), ("requests", .integer(requests)),
            ("refused", .integer(refused)), ("features", .integer(features)), ("started", .integer(started)),
            ("complete", .bool(complete)),
        ]
        if let updatedAfter { members.append(("updatedAfter", .integer(updatedAfter))) }
        if let nextUpdatedAfter { members.append(("nextUpdatedAfter", .integer(nextUpdatedAfter))) }
        return JSONValue.object(members).serialized()
    }

    /// Reads the text back; nil for text that is not a progress this version wrote.
    init?(decoding text: String) {
        guard let value = try? JSONValue(parsing: text),
            let kind = value[member: "kind"]?.stringValue.flatMap(Kind.init(rawValue:)),
            let since = value[member: "since"]?.integerValue, let until = value[member: "until"]?.integerValue,
            let done = value[member: "done"]?.integerValue, let span = value[member: "span"]?.integerValue,
            let started = value[member: "started"]?.integerValue
        else { return nil }
        var parameters: [(name: String, value: String)] = []
        for case let .array(pair) in value[member: "parameters"]?.arrayValue ?? [] {
            guard pair.count == 2, let name = pair[0].stringValue, let text = pair[1].stringValue else { return nil }
            parameters.append((name, text))
        }
        guard let filter = FDSNFilter(parameters: parameters) else { return nil }
        self.init(kind: kind, filter: filter, since: since, until: until, started: started)
        self.done = done
        self.span = max(1000, span)
        for case let .array(pair) in value[member: "finished"]?.arrayValue ?? [] {
            guard pair.count == 2, let start = pair[0].integerValue, let end = pair[1].integerValue, start < end
            else { return nil }
            finished.append(start..<end)
        }
        windows = Int(value[member: "windows"]?.integerValue ?? 0)
        requests = Int(value[member: "requests"]?.integerValue ?? 0)
        refused = Int(value[member: "refused"]?.integerValue ?? 0)
        features = Int(value[member: "features"]?.integerValue ?? 0)
        complete = value[member: "complete"]?.boolValue ?? false
        updatedAfter = value[member: "updatedAfter"]?.integerValue
        nextUpdatedAfter = value[member: "nextUpdatedAfter"]?.integerValue
    }
}
