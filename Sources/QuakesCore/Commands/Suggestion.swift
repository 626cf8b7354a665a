/// The closest of a few known words to one the user mistyped: `lst` → `list`, `mag` → `magnitude`,
/// `--limt` → `--limit`, for the "did you mean" of usage errors.
enum Suggestion {
    /// The word of `candidates` that `word` most likely meant: the only one it begins, else the
    /// nearest by edit distance (transpositions count as one edit) when that is near enough to be a
    /// typo; nil when none is.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let typed = word.lowercased()
        guard !typed.isEmpty else { return nil }
        let prefixed = candidates.filter { $0.lowercased().hasPrefix(typed) }
        if typed.count >= 2, prefixed.count == 1 { return prefixed[0] }
        let limit = max(1, min(3, typed.count / 3))
        let scored = candidates.map { ($0, distance(typed, $0.lowercased())) }.filter { $0.1 <= limit }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        // Two candidates equally near: no guess is better than a wrong one.
        return scored.filter { $0.1 == best.1 }.count == 1 ? best.0 : nil
    }

    /// `; did you mean 'list'?`, or nothing.
    static func hint(for word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Up to `count` words of `candidates` near `word`, compared by `key` (`word` must be a key
    /// already), nearest first: those that contain it, then those a few edits away, ties in the
    /// candidates' order; when none is that near, the `count` nearest all the same. For a list of
    /// names to choose from, where one guess would be too few.
    static func nearest(
        to word: String, among candidates: [String], count: Int, by key: (String) -> String = { $0.lowercased() }
    ) -> [String] {
        guard !word.isEmpty else { return [] }
        let scored = candidates.enumerated().map { index, candidate in
            let keyed = key(candidate)
            return (candidate: candidate, score: keyed.contains(word) ? 0 : distance(word, keyed), index: index)
        }.sorted { ($0.score, $0.index) < ($1.score, $1.index) }
        let limit = max(2, word.count / 3)
        let near = scored.prefix { $0.score <= limit }
        return (near.isEmpty ? scored[...] : near).prefix(count).map(\.candidate)
    }

    /// The optimal string alignment distance between two words.
    static func distance(_ left: String, _ right: String) -> Int {
        let a = Array(left)
        let b = Array(right)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
