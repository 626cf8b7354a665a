import Glibc

/// Which events a query keeps: the filters that `count`, `list` and `watch` share.
///
/// Engine-neutral: each engine turns it into its own query, with bound parameters.
public struct QuakeFilter: Sendable, Equatable {
    /// A circle on the globe: events within `radius` kilometres of a point, along great circles.
    public struct Circle: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var radius: Double

        /// The latitudes the circle spans (with a hair to spare): a cheap first test that spares
        /// most rows the trigonometry.
        package var latitudeBand: ClosedRange<Double> {
            let degrees = radius / Geodesy.kilometresPerDegreeOfLatitude + 1e-9
            return (latitude - degrees)...(latitude + degrees)
        }
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

/// Great-circle distances on a spherical Earth.
package enum Geodesy {
    /// The mean Earth radius (IUGG), in kilometres.
    package static let earthRadius = 6371.0088
    static let kilometresPerDegreeOfLatitude = earthRadius * Double.pi / 180

    /// The haversine distance between two points, in kilometres.
    package static func distance(latitude: Double, longitude: Double, toLatitude: Double, toLongitude: Double) -> Double
    {
        let radians = Double.pi / 180
        let dLatitude = (toLatitude - latitude) * radians
        let dLongitude = (toLongitude - longitude) * radians
        let a =
            pow(sin(dLatitude / 2), 2)
            + cos(latitude * radians) * cos(toLatitude * radians) * pow(sin(dLongitude / 2), 2)
        return 2 * earthRadius * asin(min(1, a.squareRoot()))
    }
}
