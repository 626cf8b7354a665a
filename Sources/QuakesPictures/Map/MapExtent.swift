import QuakesCore

/// What part of the Earth a map shows (`--extent`): fitted to the events, the whole world, or a
/// box, which crosses the date line when its west is east of its east, as `--bbox`.
enum MapExtent: Sendable, Equatable {
    case auto
    case world
    case box(QuakeFilter.Box)

    /// A region in degrees: `east` is greater than `west` and may pass 180, so a region across the
    /// date line is one interval.
    struct Region: Sendable, Equatable {
        var west: Double
        var east: Double
        var south: Double
        var north: Double

        static let world = Region(west: -180, east: 180, south: -90, north: 90)

        /// `longitude` moved by whole turns into `west ..< west + 360`.
        func unwrapped(_ longitude: Double) -> Double {
            let turns = ((longitude - west) / 360).rounded(.down)
            return longitude - turns * 360
        }
    }

    /// The region a map of these points shows, before it is fitted to the picture's shape.
    func region(of points: [GeoPoint]) -> Region {
        switch self {
        case .world: return .world
        case let .box(box):
            let east = box.maximumLongitude < box.minimumLongitude ? box.maximumLongitude + 360 : box.maximumLongitude
            // A box of no width or height (one point, or from 180 to -180) is a degree around it.
            let (middleX, middleY) = (
                (box.minimumLongitude + east) / 2, (box.minimumLatitude + box.maximumLatitude) / 2
            )
            let (width, height) = (
                max(east - box.minimumLongitude, 1), max(box.maximumLatitude - box.minimumLatitude, 1)
            )
            return Region(
                west: middleX - width / 2, east: middleX + width / 2, south: max(middleY - height / 2, -90),
                north: min(middleY + height / 2, 90))
        case .auto:
            guard !points.isEmpty else { return .world }
            // The shortest arc of longitude holding every point: the circle less its widest empty gap,
            // so that events on both sides of the date line make one small map, not a world map.
            let longitudes = points.map { $0.longitude < 180 ? $0.longitude : $0.longitude - 360 }.sorted()
            var gap = longitudes[0] + 360 - longitudes[longitudes.count - 1]
            var west = longitudes[0]
            for index in 1..<longitudes.count where longitudes[index] - longitudes[index - 1] > gap {
                gap = longitudes[index] - longitudes[index - 1]
                west = longitudes[index]
            }
            let span = 360 - gap
            let latitudes = points.map(\.latitude)
            let (south, north) = (latitudes.min()!, latitudes.max()!)
            // A margin of a tenth on each side, and at least a degree: a lone event is not a dot
            // in the corner.
            let margin = (lon: max(span * 0.1, 1), lat: max((north - south) * 0.1, 1))
            let width = min(span + 2 * margin.lon, 360)
            let centre = west + span / 2
            return Region(
                west: centre - width / 2, east: centre + width / 2, south: max(south - margin.lat, -90),
                north: min(north + margin.lat, 90))
        }
    }
}
