import QuakesCore
import SQLite

/// The SQL functions and the collation that queries use, registered on every reading connection.
///
/// They are deterministic and written once in Swift, so a section computed by SQL and the same
/// section computed for a row in Swift always agree.
enum SQLFunctionNames {
    /// `quakes_contains(text, folded)`: 1 when `text`, folded, contains `folded`.
    static let contains = "quakes_contains"
    /// `quakes_distance(lat1, lon1, lat2, lon2)`: the great-circle distance in kilometres.
    static let distance = "quakes_distance"
    /// `quakes_local(time, unit)`: the local hour (0), day (1), week (2) or month (3) number.
    static let local = "quakes_local"
    /// `quakes_band(mag)`: the whole-number magnitude band, floor(mag), or NULL.
    static let band = "quakes_band"
    /// `COLLATE quakes_nocase`: Unicode case-insensitive order, then byte order.
    static let caseInsensitive = "quakes_nocase"

    /// The units of `quakes_local`, by their number in SQL.
    static let localUnits: [DisplayZone.Unit] = [.hour, .day, .week, .month]

    /// Registers every function and the collation on `connection`, with `zone` for local time.
    static func register(on connection: Connection, zone: DisplayZone) throws {
        try connection.createFunction(contains, argumentCount: 2) { arguments in
            guard let text = arguments.text(0), let needle = arguments.text(1) else { return .null }
            return .integer(TextFolding.contains(text, foldedNeedle: needle) ? 1 : 0)
        }
        try connection.createFunction(distance, argumentCount: 4) { arguments in
            guard let latitude = arguments.double(0), let longitude = arguments.double(1),
                let toLatitude = arguments.double(2), let toLongitude = arguments.double(3)
            else { return .null }
            return .real(
                Geodesy.distance(
                    latitude: latitude, longitude: longitude, toLatitude: toLatitude,
                    toLongitude: toLongitude))
        }
        try connection.createFunction(local, argumentCount: 2) { arguments in
            guard let time = arguments.int64(0), let unit = arguments.int64(1), localUnits.indices.contains(Int(unit))
            else { return .null }
            return .integer(zone.number(time, in: localUnits[Int(unit)]))
        }
        try connection.createFunction(band, argumentCount: 1) { arguments in
            guard let magnitude = arguments.double(0), magnitude.isFinite else { return .null }
            return .integer(SectionKey.band(of: magnitude))
        }
        try connection.createCollation(caseInsensitive, TextFolding.compare)
    }
}
