import Foundation
import LocalHTTPServer
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// The reference semantics (`QuerySemantics`, evaluated in memory by `InMemoryCatalogue`) and the
/// SQLite engine's SQL answer random queries over the real fixtures alike: counts, section counts,
/// and the events of every section in order, under limits. Two independent readings of the rules;
/// a failure prints the seed that replays it (`QUAKES_QUERY_SEED`).
@Suite struct QuerySemanticsTests {
    @Test func randomQueriesAnswerAsTheReferenceSemanticsDo() async throws {
        let (path, quakes) = try await QueryUniverse.shared.database()
        let catalogue = InMemoryCatalogue(quakes)
        let database = SQLiteDatabase(path: path)
        let seeds: [UInt64] =
            ProcessInfo.processInfo.environment["QUAKES_QUERY_SEED"].flatMap(UInt64.init).map { [$0] }
            ?? Array(1...UInt64(SuiteMode.rounds(60, long: 1500, sanitized: 8)))
        // On a thread of its own: the SQLite reader blocks.
        let outcomes = try await Blocking.run {
            try seeds.map { seed in
                var random = SplitMix64(seed: seed)
                let query = Self.randomQuery(&random, quakes: quakes)
                return try database.read(zone: query.zone) { reader in
                    try Self.compare(query, reader: reader, catalogue: catalogue)
                }
            }
        }
        for (seed, outcome) in zip(seeds, outcomes) {
            #expect(outcome.differences.isEmpty, "seed \(seed): \(outcome.differences.joined(separator: "; "))")
        }
        // The queries were not all empty: the comparison saw events.
        #expect(outcomes.filter { $0.matched > 0 }.count > seeds.count / 3)
    }

    /// Compares one query's answers: what differed, and how many events matched.
    private static func compare(_ query: QuakeQuery, reader: any QuakeReading, catalogue: InMemoryCatalogue) throws
        -> (differences: [String], matched: Int)
    {
        var differences: [String] = []
        func check<Value: Equatable>(_ what: String, _ engine: Value, _ reference: Value) {
            if engine != reference { differences.append("\(what): SQLite \(engine), reference \(reference)") }
        }
        let count = try reader.count(query.filter)
        check("count", count, catalogue.count(query.filter))
        if let key = query.section {
            let counts = try reader.sectionCounts(key, query.filter, zone: query.zone)
            check("section counts", counts, catalogue.sectionCounts(key, query.filter, zone: query.zone))
            for value in counts.keys {
                let rows = (key, key.rows(of: value, zone: query.zone))
                check("section \(value)", try ids(reader, query, rows: rows), ids(catalogue, query, rows: rows))
            }
        } else {
            check("events", try ids(reader, query, rows: nil), ids(catalogue, query, rows: nil))
        }
        if !differences.isEmpty { differences.append("query \(query)") }
        return (differences, count)
    }

    private static func ids(
        _ reader: any QuakeReading, _ query: QuakeQuery, rows: (key: SectionKey, rows: SectionKey.Rows)?
    ) throws -> [String] {
        var ids: [String] = []
        try reader.forEachQuake(
            query.filter, in: rows, sort: query.sort, origin: query.origin, limit: query.limit
        ) { quake in
            ids.append(quake.id)
            return true
        }
        return ids
    }

    private static func ids(
        _ catalogue: InMemoryCatalogue, _ query: QuakeQuery, rows: (key: SectionKey, rows: SectionKey.Rows)?
    ) -> [String] {
        var ids: [String] = []
        catalogue.forEachQuake(
            query.filter, in: rows, zone: query.zone, sort: query.sort, origin: query.origin, limit: query.limit
        ) { quake in
            ids.append(quake.id)
            return true
        }
        return ids
    }

    /// A query of random conditions, bounds often taken from the events themselves (so that the
    /// edges, where `<` and `<=` differ, are hit), a random sort, section, zone and limit.
    static func randomQuery(_ random: inout SplitMix64, quakes: [Quake]) -> QuakeQuery {
        func some() -> Quake { quakes.randomElement(using: &random)! }
        func chance(_ odds: Double) -> Bool { Double.random(in: 0..<1, using: &random) < odds }
        func magnitude() -> Double {
            chance(0.5) ? (some().magnitude ?? 2) : Double(Int.random(in: -10...80, using: &random)) / 10
        }
        var filter = QuakeFilter()
        if chance(0.3) { filter.earliest = some().time }
        if chance(0.2) { filter.before = some().time }
        if chance(0.2) { filter.latest = some().time }
        if chance(0.3) { filter.minimumMagnitude = magnitude() }
        if chance(0.2) { filter.maximumMagnitude = magnitude() }
        if chance(0.2) { filter.minimumDepth = chance(0.5) ? some().depth : Double.random(in: -3...50, using: &random) }
        if chance(0.2) { filter.maximumDepth = chance(0.5) ? some().depth : Double.random(in: 0...300, using: &random) }
        if chance(0.15) {
            filter.eventType = ["earthquake", "EARTHQUAKE", "quarry blast", "Explosion", "ice quake"].randomElement(
                using: &random)
        }
        if chance(0.15) {
            filter.status = ["reviewed", "automatic", "AUTOMATIC", "deleted"].randomElement(using: &random)
        }
        if chance(0.1) { filter.alert = ["green", "Yellow", "orange", "red"].randomElement(using: &random) }
        if chance(0.1) { filter.tsunamiOnly = true }
        if chance(0.2) {
            let latitudes = [Double.random(in: -90...90, using: &random), Double.random(in: -90...90, using: &random)]
            let west = Double.random(in: -180...180, using: &random)
            let east = Double.random(in: -180...180, using: &random)  // West of `west`: across the antimeridian.
            filter.box = QuakeFilter.Box(
                minimumLongitude: west, minimumLatitude: latitudes.min()!, maximumLongitude: east,
                maximumLatitude: latitudes.max()!)
        }
        if chance(0.2) {
            let centre = some()
            filter.circle = QuakeFilter.Circle(
                latitude: centre.latitude, longitude: centre.longitude,
                radius: Double(Int.random(in: 1...3000, using: &random)))
        }
        if chance(0.2), let place = some().place, !place.isEmpty {
            let characters = Array(place)
            let start = Int.random(in: 0..<characters.count, using: &random)
            let end = Int.random(in: start...min(characters.count, start + 8), using: &random)
            let piece = String(characters[start..<end])
            filter.placeContains = chance(0.5) ? piece.uppercased() : piece
        }
        var query = QuakeQuery()
        query.filter = filter
        let keys = SortSpec.Key.allCases.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random))
        query.sort = SortSpec(
            keys.map { SortSpec.Term($0, ascending: [nil, true, false].randomElement(using: &random)!) })
        let origin = some()
        query.origin = GeoPoint(latitude: origin.latitude, longitude: origin.longitude)
        if chance(0.5) { query.section = SectionKey.allCases.randomElement(using: &random) }
        if chance(0.5) { query.limit = Int.random(in: 0...200, using: &random) }
        let zones = ["UTC", "Europe/London", "America/St_Johns", "Asia/Kathmandu", "Pacific/Chatham"]
        query.zone = DisplayZone(tz: zones.randomElement(using: &random)!)
        return query
    }
}
