import Glibc
import QuakesCore

/// The point of `--near` and the circle of `--radius` around it, as a map draws them: the circle
/// is the filter's own, every point `radius` kilometres from the centre along a great circle,
/// projected as the outlines are (not a circle on the screen).
struct NearCircle: Sendable, Equatable {
    var centre: GeoPoint
    /// `--radius` in kilometres; nil when only `--near` was given.
    var radius: Double?
    /// The point as it was given: a place's name (`tokyo`) or `LAT,LON`.
    var name: String

    /// The colour of the point and the circle, apart from the depths' red, green and blue.
    static let colour = Colour(hex: 0x7B3294)
    /// The colour of the point and the circle in a terminal (magenta).
    static let terminalColour = 35

    /// What the legend says: `tokyo`, or `within 300 km of tokyo`.
    var legend: String {
        guard let radius else { return name }
        let kilometres =
            radius == radius.rounded() && radius < 1e15
            ? TerminalText.grouped(Int(radius)) : FDSNService.number(radius)
        return "within \(kilometres) km of \(name)"
    }

    /// The circle as points every 2° of bearing (the last the first again), its longitudes running
    /// on from the centre's without a jump at the date line (so they may pass ±180), and whether it
    /// closes: around a pole it runs once round the Earth from west to east instead. Nil without a
    /// radius, and for a radius of half the Earth's circumference or more, which keeps every event.
    var circle: (points: [GeoPoint], closed: Bool)? {
        guard let radius else { return nil }
        let angle = radius / Geodesy.earthRadius
        guard angle < .pi else { return nil }
        let radians = Double.pi / 180
        let (latitude, longitude) = (centre.latitude * radians, centre.longitude * radians)
        var points: [GeoPoint] = []
        for step in 0...180 {
            let bearing = Double(step) * 2 * radians
            let end = asin(sin(latitude) * cos(angle) + cos(latitude) * sin(angle) * cos(bearing))
            let turn = atan2(sin(bearing) * sin(angle) * cos(latitude), cos(angle) - sin(latitude) * sin(end))
            var east = (longitude + turn) / radians
            if let previous = points.last?.longitude {
                east -= ((east - previous) / 360).rounded() * 360
            }
            points.append(GeoPoint(latitude: end / radians, longitude: east))
        }
        let closed = abs(points[points.count - 1].longitude - points[0].longitude) < 180
        return (points, closed)
    }

    /// The points a map fitted to its events must hold as well: the centre, and the circle's, with
    /// longitudes in -180...180.
    var extentPoints: [GeoPoint] {
        ([centre] + (circle?.points ?? [])).map { point in
            GeoPoint(latitude: point.latitude, longitude: point.longitude - ((point.longitude / 360).rounded() * 360))
        }
    }

    /// The circle as it shows through `projection`, moved by the turns of the Earth it shows in.
    func projectedCircle(_ projection: MapProjection) -> (rings: [[Drawing.Point]], closed: Bool)? {
        guard let circle else { return nil }
        let longitudes = circle.points.map(\.longitude)
        let turns = projection.turns(west: longitudes.min()!, east: longitudes.max()!)
        let rings = turns.map { turn in
            circle.points.map { projection.place(longitude: $0.longitude + turn, latitude: $0.latitude) }
        }
        return (rings, circle.closed)
    }
}
