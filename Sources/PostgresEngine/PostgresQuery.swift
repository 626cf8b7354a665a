import PostgreSQL
import QuakesCore

/// The PostgreSQL engine's SQL for the engine-neutral query values: filters, sorts and sections.
///
/// Every answer must be the SQLite engine's, byte for byte, whatever the server's collation and
/// locale: text columns compare bytewise (`COLLATE "C"` in the schema), case folding of types and
/// alerts is ASCII only, as SQLite's `lower()` and `NOCASE` are, place matching and ordering use
/// `place_folded`, which Swift computes on the way in, and distances follow `Geodesy.distance`
/// operation for operation, so that the same libm gives the same bits.
enum PostgresQuery {
    /// Folds ASCII capitals only, whatever the locale, as SQLite's `lower()` does.
    static func asciiLowercased(_ expression: String) -> String {
        "translate(\(expression), 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
    }

    /// The filter's conditions, to AND.
    static func conditions(_ filter: QuakeFilter, _ statement: inout PostgresStatement) -> [String] {
        var conditions: [String] = []
        if let earliest = filter.earliest { conditions.append("time >= \(statement.bind(earliest))") }
        if let before = filter.before { conditions.append("time < \(statement.bind(before))") }
        if let latest = filter.latest { conditions.append("time <= \(statement.bind(latest))") }
        if let minimum = filter.minimumMagnitude { conditions.append("mag >= \(statement.bind(minimum))") }
        if let maximum = filter.maximumMagnitude { conditions.append("mag <= \(statement.bind(maximum))") }
        if let minimum = filter.minimumDepth { conditions.append("depth >= \(statement.bind(minimum))") }
        if let maximum = filter.maximumDepth { conditions.append("depth <= \(statement.bind(maximum))") }
        for (column, value) in [("type", filter.eventType), ("status", filter.status), ("alert", filter.alert)] {
            guard let value else { continue }
            conditions.append(
                "\(asciiLowercased(column)) = \(statement.bind(TextFolding.asciiLowercased(value)))")
        }
        if filter.tsunamiOnly { conditions.append("tsunami = 1") }
        if let box = filter.box {
            conditions.append(
                "latitude BETWEEN \(statement.bind(box.minimumLatitude)) AND \(statement.bind(box.maximumLatitude))")
            if box.minimumLongitude <= box.maximumLongitude {
                conditions.append(
                    "longitude BETWEEN \(statement.bind(box.minimumLongitude)) AND \(statement.bind(box.maximumLongitude))"
                )
            } else {
                conditions.append(
                    "(longitude >= \(statement.bind(box.minimumLongitude)) OR longitude <= \(statement.bind(box.maximumLongitude)))"
                )
            }
        }
        if let circle = filter.circle {
            let band = circle.latitudeBand
            conditions.append(
                "latitude BETWEEN \(statement.bind(band.lowerBound)) AND \(statement.bind(band.upperBound))")
            let origin = GeoPoint(latitude: circle.latitude, longitude: circle.longitude)
            conditions.append("\(distance(from: origin, &statement)) <= \(statement.bind(circle.radius))")
        }
        if let placeContains = filter.placeContains {
            conditions.append("strpos(place_folded, \(statement.bind(TextFolding.fold(placeContains)))) > 0")
        }
        return conditions
    }

    /// `WHERE a AND b`, or nothing.
    static func whereClause(_ conditions: [String]) -> String {
        conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    }

    /// The great-circle distance in kilometres from `origin` to a row's epicentre, as
    /// `Geodesy.distance` computes it.
    static func distance(from origin: GeoPoint?, _ statement: inout PostgresStatement) -> String {
        let radians = statement.bind(Double.pi / 180)
        let latitude = statement.bind(origin?.latitude ?? 0)
        let longitude = statement.bind(origin?.longitude ?? 0)
        let radius = statement.bind(Geodesy.earthRadius)
        return """
            (2 * \(radius) * asin(least(1, sqrt(power(sin(((\(latitude) - latitude) * \(radians)) / 2), 2) \
            + cos(latitude * \(radians)) * cos(\(latitude) * \(radians)) \
            * power(sin(((\(longitude) - longitude) * \(radians)) / 2), 2)))))
            """
    }

    /// `ORDER BY …` with the tie-breakers, NULLs last in either direction (as SQLite has them).
    static func orderBy(_ sort: SortSpec, origin: GeoPoint?, _ statement: inout PostgresStatement) -> String {
        var parts = sort.terms.map { term in
            let column =
                switch term.key {
                case .time: "time"
                case .magnitude: "mag"
                case .depth: "depth"
                case .place: "place_folded"
                case .significance: "sig"
                case .distance: distance(from: origin, &statement)
                }
            return "\(column) \(term.ascending ? "ASC" : "DESC") NULLS LAST"
        }
        if !sort.terms.contains(where: { $0.key == .time }) { parts.append("time DESC") }
        parts.append("id ASC")
        return "ORDER BY " + parts.joined(separator: ", ")
    }

    /// The SQL expression whose value is a row's section, for the keys SQL computes as Swift does;
    /// nil for the calendar keys, whose local time Swift alone computes (see `DisplayZone`).
    static func sectionExpression(_ key: SectionKey) -> String? {
        switch key {
        case .hour, .day, .week, .month: nil
        case .magnitude:
            // greatest() and least() skip NULLs: a missing magnitude stays NULL only through CASE.
            "CASE WHEN mag IS NOT NULL THEN "
                + "least(greatest(floor(mag), -\(SectionKey.outermostBand)), \(SectionKey.outermostBand))::bigint END"
        case .type: asciiLowercased("type")
        case .network: "net"
        case .alert: asciiLowercased("alert")
        }
    }

    /// The rows of one section.
    static func sectionCondition(_ key: SectionKey, _ rows: SectionKey.Rows, _ statement: inout PostgresStatement)
        -> String
    {
        switch rows {
        case .missing: "\(PostgresColumns.quoted(key.field.name)) IS NULL"
        case let .times(range):
            "time >= \(statement.bind(range.lowerBound)) AND time < \(statement.bind(range.upperBound))"
        case let .magnitudes(range):
            "mag >= \(statement.bind(range.lowerBound)) AND mag < \(statement.bind(range.upperBound))"
        case let .text(text): "\(sectionExpression(key) ?? key.field.name) = \(statement.bind(text))"
        }
    }
}
