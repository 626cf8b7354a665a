import Foundation
import SQLite

/// Which events a query keeps: the filters that `count`, `list` and `watch` share.
///
/// Every condition becomes SQL with bound parameters; nothing a user types is pasted into SQL.
public struct QuakeFilter: Sendable, Equatable {
    /// A circle on the globe: events within `radius` kilometres of a point, along great circles.
    public struct Circle: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var radius: Double
    }

    /// A longitude/latitude box; it crosses the date line when `minimumLongitude > maximumLongitude`.
    public struct Box: Sendable, Equatable {
        public var minimumLongitude: Double
        public var minimumLatitude: Double
        public var maximumLongitude: Double
        public var maximumLatitude: Double
    }

    /// Events at or after this moment (milliseconds since 1970).
    public var earliest: Int64?
    /// Events before this moment (exclusive).
    public var before: Int64?
    /// Events at or before this moment (inclusive): the "now" end of `--last`.
    public var latest: Int64?
    public var minimumMagnitude: Double?
    public var maximumMagnitude: Double?
    /// A case-insensitive substring of the place, compared by Unicode lower case.
    public var placeContains: String?
    public var eventType: String?
    public var status: String?
    public var alert: String?
    public var tsunamiOnly = false
    public var circle: Circle?
    public var box: Box?
    public var minimumDepth: Double?
    public var maximumDepth: Double?

    public init() {}

    /// The conditions, ANDed, as SQL over the `quake` table.
    var condition: SQLCondition {
        var condition = SQLCondition()
        if let earliest { condition.add("time >= ?", .integer(earliest)) }
        if let before { condition.add("time < ?", .integer(before)) }
        if let latest { condition.add("time <= ?", .integer(latest)) }
        if let minimumMagnitude { condition.add("mag >= ?", .real(minimumMagnitude)) }
        if let maximumMagnitude { condition.add("mag <= ?", .real(maximumMagnitude)) }
        if let minimumDepth { condition.add("depth >= ?", .real(minimumDepth)) }
        if let maximumDepth { condition.add("depth <= ?", .real(maximumDepth)) }
        if let eventType { condition.add("type = ? COLLATE NOCASE", .text(eventType)) }
        if let status { condition.add("status = ? COLLATE NOCASE", .text(status)) }
        if let alert { condition.add("alert = ? COLLATE NOCASE", .text(alert)) }
        if tsunamiOnly { condition.add("tsunami = 1") }
        if let box {
            condition.add("latitude BETWEEN ? AND ?", .real(box.minimumLatitude), .real(box.maximumLatitude))
            if box.minimumLongitude <= box.maximumLongitude {
                condition.add("longitude BETWEEN ? AND ?", .real(box.minimumLongitude), .real(box.maximumLongitude))
            } else {
                condition.add(
                    "(longitude >= ? OR longitude <= ?)", .real(box.minimumLongitude),
                    .real(box.maximumLongitude))
            }
        }
        if let circle {
            // A latitude band first: a cheap test that spares most rows the trigonometry.
            let degrees = circle.radius / Geodesy.kilometresPerDegreeOfLatitude + 1e-9
            condition.add(
                "latitude BETWEEN ? AND ?", .real(circle.latitude - degrees), .real(circle.latitude + degrees))
            condition.add(
                "\(SQLFunctionNames.distance)(latitude, longitude, ?, ?) <= ?", .real(circle.latitude),
                .real(circle.longitude), .real(circle.radius))
        }
        if let placeContains {
            condition.add("\(SQLFunctionNames.contains)(place, ?)", .text(TextFolding.fold(placeContains)))
        }
        return condition
    }
}

/// A point on the globe, in degrees.
public struct GeoPoint: Sendable, Equatable, Hashable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The great-circle distance to a quake's epicentre, in kilometres.
    func distance(to quake: Quake) -> Double {
        Geodesy.distance(
            latitude: latitude, longitude: longitude, toLatitude: quake.latitude, toLongitude: quake.longitude)
    }
}

/// A WHERE clause under construction: conditions to AND, with their parameters in order.
struct SQLCondition: Sendable {
    private(set) var clauses: [String] = []
    private(set) var values: [SQLValue] = []

    mutating func add(_ clause: String, _ values: SQLValue...) {
        clauses.append(clause)
        self.values += values
    }

    /// `WHERE a AND b`, or nothing.
    var whereClause: String {
        clauses.isEmpty ? "" : "WHERE " + clauses.joined(separator: " AND ")
    }

    /// This condition and `other`, ANDed.
    func and(_ other: SQLCondition) -> SQLCondition {
        var combined = self
        combined.clauses += other.clauses
        combined.values += other.values
        return combined
    }
}

/// Great-circle distances on a spherical Earth.
enum Geodesy {
    /// The mean Earth radius (IUGG), in kilometres.
    static let earthRadius = 6371.0088
    static let kilometresPerDegreeOfLatitude = earthRadius * Double.pi / 180

    /// The haversine distance between two points, in kilometres.
    static func distance(latitude: Double, longitude: Double, toLatitude: Double, toLongitude: Double) -> Double {
        let radians = Double.pi / 180
        let dLatitude = (toLatitude - latitude) * radians
        let dLongitude = (toLongitude - longitude) * radians
        let a =
            pow(sin(dLatitude / 2), 2)
            + cos(latitude * radians) * cos(toLatitude * radians) * pow(sin(dLongitude / 2), 2)
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }
}
