import Foundation
import Testing

@testable import QuakesCore

/// A database holding several real fixtures, built once for the query tests, and what it should
/// hold, computed independently from the files by the reference decoder.
actor QueryUniverse {
    static let shared = QueryUniverse()

    /// Fixtures that share no event, but for five that the FDSN query of 2022 has in common with the
    /// two all_day feeds: the newest version of each is kept.
    static let files = [
        "all_week-2021-07-22T2039Z.geojson", "all_day-2020-10-28T2257Z.geojson", "all_day-2014-04-14T1152Z.geojson",
        "fdsn_query-2022-05-20T1306Z.geojson", "significant_month-2023-10-11T2016Z.geojson",
        "2.5_week-2016-04-12T2150Z.geojson", "detail-us1000chhc-updated-2018-02-20.geojson",
    ]

    /// The moment the 2021 weekly feed was generated: "now" for queries over it.
    static let now = "2021-07-22T20:39:44Z"
    static let nowMilliseconds: Int64 = 1_626_986_384_000

    private var building: Task<(TemporaryDirectory, [Quake]), any Error>?

    /// The database's path and the quakes it should hold; built by the first caller, awaited by the rest.
    func database() async throws -> (path: String, quakes: [Quake]) {
        if building == nil { building = Task { try await Self.build() } }
        let (folder, quakes) = try await building!.value
        return (folder.file("universe.sqlite"), quakes)
    }

    private static func build() async throws -> (TemporaryDirectory, [Quake]) {
        let folder = try TemporaryDirectory()
        let run = await QuakesRun.fetch(files.map(Fixtures.path), database: folder.file("universe.sqlite"))
        guard run.status == .success else {
            Issue.record("the universe's fetch failed (\(run.status)): \(run.standardError)")
            throw CocoaError(.fileReadCorruptFile)
        }
        // The reference decoding, seconds of work (a minute under ThreadSanitizer), on a thread of
        // its own rather than one of the cooperative pool's two.
        let decoded = try await Blocking.run {
            try files.map { try ReferenceDecoder.decode(try Fixtures.data($0)).quakes }
        }
        var newest: [String: Quake] = [:]
        for quakes in decoded {
            for quake in quakes {
                if let kept = newest[quake.id],
                    (kept.updated ?? .min, kept.feedGenerated ?? .min) >= (
                        quake.updated ?? .min, quake.feedGenerated ?? .min
                    )
                {
                    continue
                }
                newest[quake.id] = quake
            }
        }
        return (folder, newest.values.sorted { $0.id < $1.id })
    }
}

/// Expectations computed in Swift, by the rules docs/commands.md states, without the tool's SQL.
enum Expected {
    /// `quakes` in the order `--sort` specifies: each key in its direction, missing values last, then
    /// time (newest first), then id.
    static func sorted(_ quakes: [Quake], by keys: [(String, Bool)]) -> [Quake] {
        // Each place folded once, not at every comparison: Foundation's folding was most of the
        // sorting suites' time under ThreadSanitizer.
        var foldedPlaces: [String: [UInt32]] = [:]
        if keys.contains(where: { $0.0 == "place" }) {
            for place in quakes.compactMap(\.place) where foldedPlaces[place] == nil {
                foldedPlaces[place] = folded(place).unicodeScalars.map(\.value)
            }
        }
        return quakes.sorted { left, right in
            for (key, ascending) in keys + (keys.contains { $0.0 == "time" } ? [] : [("time", false)]) {
                let order = compare(left, right, key: key, foldedPlaces: foldedPlaces)
                guard let order else { continue }
                switch order {
                case .missingLeft: return false
                case .missingRight: return true
                case let .values(result) where result != .orderedSame:
                    return (result == .orderedAscending) == ascending
                default: continue
                }
            }
            return left.id < right.id
        }
    }

    private enum Order {
        case missingLeft, missingRight
        case values(ComparisonResult)
    }

    private static func compare(_ left: Quake, _ right: Quake, key: String, foldedPlaces: [String: [UInt32]]) -> Order?
    {
        func numbers(_ a: Double?, _ b: Double?) -> Order? {
            switch (a, b) {
            case (nil, nil): nil
            case (nil, _): .missingLeft
            case (_, nil): .missingRight
            case let (a?, b?): .values(a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame)
            }
        }
        switch key {
        case "time": return numbers(Double(left.time), Double(right.time))
        case "magnitude": return numbers(left.magnitude, right.magnitude)
        case "depth": return numbers(left.depth, right.depth)
        case "significance": return numbers(left.significance.map(Double.init), right.significance.map(Double.init))
        case "place":
            switch (left.place, right.place) {
            case (nil, nil): return nil
            case (nil, _): return .missingLeft
            case (_, nil): return .missingRight
            case let (a?, b?):
                // Places equal but for case and accents are equal: the tie-breakers decide.
                let foldedA = foldedPlaces[a]!
                let foldedB = foldedPlaces[b]!
                if foldedA == foldedB { return .values(.orderedSame) }
                return .values(foldedA.lexicographicallyPrecedes(foldedB) ? .orderedAscending : .orderedDescending)
            }
        default: fatalError("unknown key \(key)")
        }
    }

    /// `text` without case or accents, by Foundation's own folding: the reference `--place` and
    /// `--sort place` are held to.
    static func folded(_ text: String?) -> String {
        (text ?? "").folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// The local date of a moment in `zone`, by Foundation's calendar.
    static func localDate(_ milliseconds: Int64, zone: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let parts = calendar.dateComponents(
            [.year, .month, .day], from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    /// The great-circle distance in kilometres, by the haversine formula.
    static func haversine(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double)
        -> Double
    {
        let r = 6371.0088
        let p1 = latitude1 * .pi / 180
        let p2 = latitude2 * .pi / 180
        let dp = p2 - p1
        let dl = (longitude2 - longitude1) * .pi / 180
        let h = sin(dp / 2) * sin(dp / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * r * atan2(h.squareRoot(), (1 - h).squareRoot())
    }

    /// The whole-number magnitude band, or "unknown".
    static func band(_ magnitude: Double?) -> String {
        magnitude.map { String(Int(floor($0))) } ?? "unknown"
    }
}

/// The rows of an ndjson listing, as dictionaries.
func ndjsonRows(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw CocoaError(.coderReadCorrupt)
        }
        return object
    }
}

func ndjsonIDs(_ text: String) throws -> [String] {
    try ndjsonRows(text).map { $0["id"] as? String ?? "?" }
}
