import QuakesCore

/// What a map shows, as a picture or in a terminal: the events, the countries' outlines, the
/// extent, and the lines of its title.
struct MapContent: Sendable {
    var events: [Quake]
    /// The rings of the countries' outlines; holes are filled by the even-odd rule.
    var outlines: [CountryOutlines.Ring]
    var extent: MapExtent
    var title: String
    var subtitle: String
    var zone: DisplayZone
    /// The point of `--near` and the circle of `--radius`, when given.
    var near: NearCircle? = nil

    /// The projection of the extent (fitted to the events, and to the point and circle of `--near`,
    /// when automatic) into `frame`.
    func projection(into frame: Drawing.Rectangle) -> MapProjection {
        let points = events.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
        return MapProjection(fitting: extent.region(of: points + (near?.extentPoints ?? [])), into: frame)
    }

    /// How many events fall outside the map (a map of an `--extent` box shows only those inside).
    func outside(_ projection: MapProjection) -> Int {
        let area = projection.mapArea
        return events.count { !area.contains(projection.point(longitude: $0.longitude, latitude: $0.latitude)) }
    }

    /// The title, saying how many events the map leaves out, if any.
    func title(outside: Int) -> String {
        outside == 0 ? title : title + " (\(TerminalText.grouped(outside)) outside the map)"
    }

    /// The events weakest first, so that the strongest are drawn over them.
    var eventsInDrawingOrder: [Quake] {
        events.sorted { ($0.magnitude ?? -10) < ($1.magnitude ?? -10) }
    }

    /// Each ring as it shows through `projection`, moved by the turns of the Earth it shows in:
    /// whole (to fill), or as its coastline (to draw).
    func projectedRings(_ projection: MapProjection, coastline: Bool) -> [[Drawing.Point]] {
        var rings: [[Drawing.Point]] = []
        for ring in outlines {
            for turn in projection.turns(west: ring.minimum.longitude, east: ring.maximum.longitude) {
                for piece in coastline ? Self.coastline(ring.points) : [ring.points] {
                    rings.append(piece.map { projection.place(longitude: $0.longitude + turn, latitude: $0.latitude) })
                }
            }
        }
        return rings
    }

    /// A ring as the lines worth drawing: without its edges along the date line or the South Pole,
    /// where Natural Earth cuts countries (Russia, Fiji) and closes Antarctica, and where no coast is.
    static func coastline(_ ring: [GeoPoint]) -> [[GeoPoint]] {
        var pieces: [[GeoPoint]] = []
        var piece: [GeoPoint] = []
        for (index, point) in ring.enumerated() {
            if index > 0 {
                let previous = ring[index - 1]
                let onCut =
                    (abs(previous.longitude) == 180 && previous.longitude == point.longitude)
                    || (previous.latitude <= -89.9 && point.latitude <= -89.9)
                if onCut {
                    if piece.count > 1 { pieces.append(piece) }
                    piece = []
                }
            }
            piece.append(point)
        }
        if piece.count > 1 { pieces.append(piece) }
        return pieces
    }
}
