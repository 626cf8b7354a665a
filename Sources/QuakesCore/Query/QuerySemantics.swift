/// What the query values mean, written plainly in Swift over `Quake` values: which events a filter
/// keeps, the order a sort gives, which events a section holds.
///
/// This is the reference that every engine's SQL answers to. An engine that keeps its events in
/// memory (a GeoJSON file) evaluates queries with it, and the differential tests hold the SQL
/// engines to it on random queries: two independent readings of the same rules, so that a
/// mistake in either shows. It follows the documented rules (docs/commands.md), not any engine's
/// SQL: missing values never match a bound and come last in either direction; text compares
/// case-blind (ASCII, for types, statuses and alerts) or case- and accent-blind (places); ties go
/// to the newest, then to the id in byte order.
package enum QuerySemantics {
    /// True when `quake` passes every condition of `filter`.
    package static func matches(_ quake: Quake, _ filter: QuakeFilter) -> Bool {
        if let earliest = filter.earliest, quake.time < earliest { return false }
        if let before = filter.before, quake.time >= before { return false }
        if let latest = filter.latest, quake.time > latest { return false }
        if let minimum = filter.minimumMagnitude, !(quake.magnitude.map { $0 >= minimum } ?? false) { return false }
        if let maximum = filter.maximumMagnitude, !(quake.magnitude.map { $0 <= maximum } ?? false) { return false }
        if let minimum = filter.minimumDepth, !(quake.depth.map { $0 >= minimum } ?? false) { return false }
        if let maximum = filter.maximumDepth, !(quake.depth.map { $0 <= maximum } ?? false) { return false }
        if let eventType = filter.eventType, !equalIgnoringASCIICase(quake.eventType, eventType) { return false }
        if let status = filter.status, !equalIgnoringASCIICase(quake.status, status) { return false }
        if let alert = filter.alert, !equalIgnoringASCIICase(quake.alert, alert) { return false }
        if filter.tsunamiOnly, quake.tsunami != 1 { return false }
        if let box = filter.box {
            guard (box.minimumLatitude...box.maximumLatitude).contains(quake.latitude) else { return false }
            let longitude = quake.longitude
            // A box whose west edge is east of its east edge crosses the antimeridian.
            let inside =
                box.minimumLongitude <= box.maximumLongitude
                ? box.minimumLongitude <= longitude && longitude <= box.maximumLongitude
                : longitude >= box.minimumLongitude || longitude <= box.maximumLongitude
            guard inside else { return false }
        }
        if let circle = filter.circle {
            guard GeoPoint(latitude: circle.latitude, longitude: circle.longitude).distance(to: quake) <= circle.radius
            else { return false }
        }
        if let needle = filter.placeContains {
            guard var place = quake.place else { return false }
            var folded = TextFolding.fold(needle)
            let found = place.withUTF8 { haystack in
                folded.withUTF8 { TextFolding.contains(UnsafeRawBufferPointer(haystack), foldedNeedle: .init($0)) }
            }
            guard found else { return false }
        }
        return true
    }

    /// True when `left` comes before `right` in the order of `sort`, distances measured from
    /// `origin`: each key in its direction with missing values last, then the newest first (unless
    /// time is a key), then the id.
    package static func precedes(_ left: Quake, _ right: Quake, sort: SortSpec, origin: GeoPoint?) -> Bool {
        precedes(SortRow(left, sort: sort, origin: origin), SortRow(right, sort: sort, origin: origin), sort: sort)
    }

    /// The positions of `quakes` in the order of `sort` (see `precedes`). The values each
    /// comparison needs are taken out of the events once: comparing rows of a few values is cheaper
    /// than lending whole events to every comparison.
    package static func order(_ quakes: some Collection<Quake>, sort: SortSpec, origin: GeoPoint?) -> [Int] {
        let rows = quakes.map { SortRow($0, sort: sort, origin: origin) }
        return rows.withUnsafeBufferPointer { rows in
            rows.indices.sorted { precedes(rows[$0], rows[$1], sort: sort) }
        }
    }

    /// What the order of `sort` looks at in one event: its keys' values, its time and its id.
    private struct SortRow {
        var values: [SortValue]
        var time: Int64
        var id: String

        init(_ quake: Quake, sort: SortSpec, origin: GeoPoint?) {
            values = sort.terms.map { term in
                switch term.key {
                case .time: .integer(quake.time)
                case .magnitude: .real(quake.magnitude)
                case .depth: .real(quake.depth)
                case .significance: .integer(quake.significance.map(Int64.init))
                case .distance: .real((origin ?? GeoPoint(latitude: 0, longitude: 0)).distance(to: quake))
                case .place: .text(quake.place)
                }
            }
            time = quake.time
            id = quake.id
        }
    }

    /// One key's value: missing values compare last in either direction.
    private enum SortValue {
        case integer(Int64?)
        case real(Double?)
        case text(String?)
    }

    private static func precedes(_ left: SortRow, _ right: SortRow, sort: SortSpec) -> Bool {
        for (index, term) in sort.terms.enumerated() {
            switch order(left.values[index], right.values[index]) {
            case .same: continue
            case .missingFirst: return false
            case .missingSecond: return true
            case .ascending: return term.ascending
            case .descending: return !term.ascending
            }
        }
        if !sort.terms.contains(where: { $0.key == .time }), left.time != right.time { return left.time > right.time }
        return left.id.utf8.lexicographicallyPrecedes(right.id.utf8)
    }

    /// True when `quake` is in the section of `key` that `rows` describes, in `zone`.
    package static func isIn(_ quake: Quake, key: SectionKey, rows: SectionKey.Rows, zone: DisplayZone) -> Bool {
        switch rows {
        case .missing: key.value(of: quake, zone: zone) == .none
        case let .times(range): range.contains(quake.time)
        case let .magnitudes(range): quake.magnitude.map(range.contains) ?? false
        case let .text(text):
            // Bytes, as SQL compares them: Swift's == would take NFC and NFD text as equal.
            if case let .text(value) = key.value(of: quake, zone: zone) {
                value.utf8.elementsEqual(text.utf8)
            } else {
                false
            }
        }
    }

    /// How two events compare on one key.
    private enum Order {
        case same, ascending, descending, missingFirst, missingSecond
    }

    private static func order(_ left: SortValue, _ right: SortValue) -> Order {
        switch (left, right) {
        case let (.integer(a), .integer(b)): compare(a, b)
        case let (.real(a), .real(b)): compare(a, b)
        case (.text(nil), .text(nil)): .same
        case (.text(nil), _): .missingFirst
        case (_, .text(nil)): .missingSecond
        case (.text(var a?), .text(var b?)):
            a.withUTF8 { a in
                b.withUTF8 { b in
                    let result = TextFolding.compare(UnsafeRawBufferPointer(a), UnsafeRawBufferPointer(b))
                    return result == 0 ? .same : result < 0 ? .ascending : .descending
                }
            }
        default: .same  // One key gives values of one kind.
        }
    }

    private static func compare<Value: Comparable>(_ left: Value?, _ right: Value?) -> Order {
        switch (left, right) {
        case (nil, nil): .same
        case (nil, _): .missingFirst
        case (_, nil): .missingSecond
        case let (a?, b?): a == b ? .same : a < b ? .ascending : .descending
        }
    }

    /// SQL's `= … COLLATE NOCASE`: equal once ASCII capitals are lowered; nothing equals a missing value.
    private static func equalIgnoringASCIICase(_ value: String?, _ wanted: String) -> Bool {
        guard let value else { return false }
        return TextFolding.asciiLowercased(value).utf8.elementsEqual(TextFolding.asciiLowercased(wanted).utf8)
    }
}
