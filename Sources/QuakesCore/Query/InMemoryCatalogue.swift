/// Events held in memory, answering the query questions of `QuakeReading` by `QuerySemantics`: the
/// part of a reader that an engine without SQL (a GeoJSON file, read whole) needs, and the
/// reference the differential tests hold the SQL engines' answers to.
///
/// Every question scans the events: for the catalogues such an engine is for (up to about 100,000
/// events), a scan and a sort take milliseconds, and no index needs keeping.
package struct InMemoryCatalogue: Sendable {
    package let quakes: [Quake]

    package init(_ quakes: [Quake]) {
        self.quakes = quakes
    }

    package func count(_ filter: QuakeFilter) -> Int {
        quakes.reduce(0) { $0 + (QuerySemantics.matches($1, filter) ? 1 : 0) }
    }

    package func sectionCounts(_ key: SectionKey, _ filter: QuakeFilter, zone: DisplayZone) -> [SectionValue: Int] {
        var counts: [SectionValue: Int] = [:]
        for quake in quakes where QuerySemantics.matches(quake, filter) {
            counts[key.value(of: quake, zone: zone), default: 0] += 1
        }
        return counts
    }

    package func forEachQuake(
        _ filter: QuakeFilter, in rows: (key: SectionKey, rows: SectionKey.Rows)?, zone: DisplayZone, sort: SortSpec,
        origin: GeoPoint?, limit: Int?, _ body: (Quake) throws -> Bool
    ) rethrows {
        let selected = quakes.indices.filter { index in
            QuerySemantics.matches(quakes[index], filter)
                && (rows.map { QuerySemantics.isIn(quakes[index], key: $0.key, rows: $0.rows, zone: zone) } ?? true)
        }
        let ordered = QuerySemantics.order(selected.lazy.map { quakes[$0] }, sort: sort, origin: origin).map {
            selected[$0]
        }
        for index in ordered.prefix(limit ?? Int.max) where try !body(quakes[index]) { return }
    }
}
