/// The order of a listing: `--sort KEY[:asc|:desc][,KEY…]`, with ties broken by time (newest first),
/// then id, so the order is always fully determined.
public struct SortSpec: Sendable, Equatable {
    /// What events can be sorted by.
    public enum Key: String, Sendable, CaseIterable {
        case time, magnitude, depth, place, significance, distance

        /// The direction a key takes when none is given: time, magnitude and significance highest
        /// first, depth shallowest and distance nearest first, place A to Z.
        public var naturallyAscending: Bool {
            self == .depth || self == .place || self == .distance
        }
    }

    /// One key and its direction.
    public struct Term: Sendable, Equatable {
        public var key: Key
        public var ascending: Bool

        public init(_ key: Key, ascending: Bool? = nil) {
            self.key = key
            self.ascending = ascending ?? key.naturallyAscending
        }
    }

    public var terms: [Term]

    public init(_ terms: [Term]) {
        self.terms = terms
    }

    /// Newest first: the default.
    public static let time = SortSpec([Term(.time)])

    /// What `--sort` accepts, for messages.
    static let form =
        "KEY[:asc|:desc][,KEY…] with KEY one of " + Key.allCases.map(\.rawValue).concatenated(separator: ", ")

    /// The keys of a sort specification, for completion and suggestions.
    static let choices = Key.allCases.map(\.rawValue)

    /// Reads `time`, `magnitude:asc`, `magnitude,depth:desc`; nil when malformed or a key repeats.
    public init?(parsing text: String) {
        var terms: [Term] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            guard (1...2).contains(pieces.count), let key = Key(rawValue: pieces[0].lowercased()),
                !terms.contains(where: { $0.key == key })
            else { return nil }
            var ascending: Bool?
            if pieces.count == 2 {
                switch pieces[1].lowercased() {
                case "asc": ascending = true
                case "desc": ascending = false
                default: return nil
                }
            }
            terms.append(Term(key, ascending: ascending))
        }
        guard !terms.isEmpty else { return nil }
        self.terms = terms
    }

    /// The primary key.
    public var primary: Term { terms[0] }

    /// True when a key needs the point of `--near`.
    var needsOrigin: Bool {
        terms.contains { $0.key == .distance }
    }
}
