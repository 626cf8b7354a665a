import Foundation

/// A map of events over country outlines, as a drawing: a title band with the query, the time
/// range, the zone and the count; the map, fitted to the events or to an extent; a legend of
/// magnitudes and depths under it.
struct QuakeMap {
    var events: [Quake]
    /// The rings of the countries' outlines; holes are drawn by the even-odd rule.
    var outlines: [CountryOutlines.Ring]
    var extent: MapExtent
    var width: Double
    var height: Double
    var title: String
    var subtitle: String
    var zone: DisplayZone

    private static let titleBand = 54.0
    private static let legendBand = 44.0

    /// The projection of the map part of the picture.
    var projection: MapProjection {
        let frame = Drawing.Rectangle(
            x: 10, y: Self.titleBand, width: width - 20, height: max(height - Self.titleBand - Self.legendBand, 20))
        let points = events.map { GeoPoint(latitude: $0.latitude, longitude: $0.longitude) }
        return MapProjection(fitting: extent.region(of: points), into: frame)
    }

    func drawing() -> Drawing {
        let projection = projection
        let area = projection.mapArea
        var map: [Drawing.Item] = [.rectangle(area, .filled(MapStyle.sea))]
        var land: [[Drawing.Point]] = []
        var borders: [[Drawing.Point]] = []
        for ring in outlines {
            for turn in projection.turns(west: ring.minimum.longitude, east: ring.maximum.longitude) {
                land.append(ring.points.map { projection.place(longitude: $0.longitude + turn, latitude: $0.latitude) })
                for piece in Self.coastline(ring.points) {
                    borders.append(
                        piece.map { projection.place(longitude: $0.longitude + turn, latitude: $0.latitude) })
                }
            }
        }
        map.append(.path(land, closed: true, .filled(MapStyle.land)))
        map.append(.path(borders, closed: false, .stroked(MapStyle.border, width: 0.6)))
        // Small events first, so the strongest are drawn over them.
        let scale = min(width, height) / 700
        for quake in events.sorted(by: { ($0.magnitude ?? -10) < ($1.magnitude ?? -10) }) {
            let depth = MapStyle.depthClass(quake.depth)
            map.append(
                .circle(
                    centre: projection.point(longitude: quake.longitude, latitude: quake.latitude),
                    radius: MapStyle.radius(magnitude: quake.magnitude, scale: scale),
                    Drawing.Style(
                        fill: depth.colour.withAlpha(0.72), stroke: MapStyle.ink.withAlpha(0.8), lineWidth: 0.5),
                    mark: Drawing.Mark(id: quake.id, tooltip: tooltip(quake))))
        }
        var items: [Drawing.Item] = [
            .text(title, at: .init(x: 12, y: 24), size: 16, anchor: .start, colour: MapStyle.ink, bold: true),
            .text(subtitle, at: .init(x: 12, y: 44), size: 12, anchor: .start, colour: MapStyle.faint, bold: false),
            .clipped(area, map),
            .rectangle(area, .stroked(MapStyle.faint, width: 0.8)),
        ]
        items += legend(below: area, scale: scale)
        return Drawing(width: width, height: height, background: .white, title: title, items: items)
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

    /// What the page shows over an event: its time, magnitude, place and id.
    private func tooltip(_ quake: Quake) -> String {
        let magnitude = quake.magnitude.map { "M " + String(format: "%.1f", $0) } ?? "M ?"
        let depth = quake.depth.map { String(format: "%.1f km deep", $0) } ?? "depth unknown"
        return "\(zone.dateAndTime(quake.time)) \(zone.name)\n\(magnitude), \(depth)\n\(quake.place ?? "")\n\(quake.id)"
    }

    /// Circles of whole magnitudes that the events span, and the depth colours.
    private func legend(below area: Drawing.Rectangle, scale: Double) -> [Drawing.Item] {
        let y = min(area.y + area.height + 26, height - 14)
        var items: [Drawing.Item] = []
        var x = 12.0
        let magnitudes = events.compactMap(\.magnitude).filter(\.isFinite)
        if let low = magnitudes.min(), let high = magnitudes.max() {
            let steps = Array(Int(low.rounded(.down))...max(Int(high.rounded(.down)), Int(low.rounded(.down))))
            for magnitude in steps.suffix(6) {
                let radius = MapStyle.radius(magnitude: Double(magnitude), scale: scale)
                items.append(
                    .circle(
                        centre: .init(x: x + radius, y: y - 4), radius: radius,
                        Drawing.Style(fill: Colour(hex: 0xFFFFFF), stroke: MapStyle.ink, lineWidth: 0.8), mark: nil))
                x += 2 * radius + 4
                items.append(
                    .text(
                        "M\(magnitude)", at: .init(x: x, y: y), size: 11, anchor: .start, colour: MapStyle.ink,
                        bold: false))
                x += 34
            }
        }
        x += 16
        for depth in MapStyle.depthClasses {
            items.append(
                .rectangle(.init(x: x, y: y - 10, width: 12, height: 12), .filled(depth.colour.withAlpha(0.72))))
            items.append(
                .text(
                    depth.label, at: .init(x: x + 16, y: y), size: 11, anchor: .start, colour: MapStyle.ink, bold: false
                ))
            x += 86
        }
        items.append(
            .text(
                "Made with Natural Earth", at: .init(x: width - 12, y: height - 6), size: 9, anchor: .end,
                colour: MapStyle.faint, bold: false))
        return items
    }
}
