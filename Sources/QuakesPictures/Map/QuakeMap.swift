import QuakesCore

/// A map of events over country outlines, as a drawing: a title band with the query, the time
/// range, the zone and the count; the map, fitted to the events or to an extent; a legend of
/// magnitudes and depths under it.
struct QuakeMap {
    var content: MapContent
    var width: Double
    var height: Double

    private static let titleBand = 54.0
    private static let legendBand = 44.0

    /// The projection of the map part of the picture.
    var projection: MapProjection {
        content.projection(
            into: Drawing.Rectangle(
                x: 10, y: Self.titleBand, width: width - 20, height: max(height - Self.titleBand - Self.legendBand, 20))
        )
    }

    func drawing() -> Drawing {
        let projection = projection
        let area = projection.mapArea
        var map: [Drawing.Item] = [.rectangle(area, .filled(MapStyle.sea))]
        map.append(.path(content.projectedRings(projection, coastline: false), closed: true, .filled(MapStyle.land)))
        map.append(
            .path(
                content.projectedRings(projection, coastline: true), closed: false,
                .stroked(MapStyle.border, width: 0.6)))
        let scale = min(width, height) / 700
        // The circle of `--radius` under the events.
        if let circle = content.near?.projectedCircle(projection) {
            map.append(
                .classed(
                    "radius",
                    [.path(circle.rings, closed: circle.closed, .stroked(NearCircle.colour, width: 1.5 * scale))]))
        }
        // Small events first, so the strongest are drawn over them.
        for quake in content.eventsInDrawingOrder {
            let depth = MapStyle.depthClass(quake.depth)
            map.append(
                .circle(
                    centre: projection.point(longitude: quake.longitude, latitude: quake.latitude),
                    radius: MapStyle.radius(magnitude: quake.magnitude, scale: scale),
                    Drawing.Style(
                        fill: depth.colour.withAlpha(0.72), stroke: MapStyle.ink.withAlpha(0.8), lineWidth: 0.5),
                    mark: Drawing.Mark(id: quake.id, tooltip: tooltip(quake))))
        }
        // The point of `--near` over them.
        if let near = content.near {
            let centre = projection.point(longitude: near.centre.longitude, latitude: near.centre.latitude)
            map.append(.classed("near", Self.cross(at: centre, size: 6 * max(scale, 0.5))))
        }
        var items: [Drawing.Item] = [
            .text(
                content.title(outside: content.outside(projection)), at: .init(x: 12, y: 24), size: 16, anchor: .start,
                colour: MapStyle.ink, bold: true),
            .text(
                content.subtitle, at: .init(x: 12, y: 44), size: 12, anchor: .start, colour: MapStyle.faint, bold: false
            ),
            .clipped(area, map),
            .rectangle(area, .stroked(MapStyle.faint, width: 0.8)),
        ]
        items += legend(below: area, scale: scale)
        return Drawing(width: width, height: height, background: .white, title: content.title, items: items)
    }

    /// The mark of the point of `--near`: a cross in the circle's colour on a white one, seen over
    /// land, sea and events alike.
    private static func cross(at centre: Drawing.Point, size: Double) -> [Drawing.Item] {
        let strokes = [
            [Drawing.Point(x: centre.x - size, y: centre.y), Drawing.Point(x: centre.x + size, y: centre.y)],
            [Drawing.Point(x: centre.x, y: centre.y - size), Drawing.Point(x: centre.x, y: centre.y + size)],
        ]
        return [
            .path(strokes, closed: false, .stroked(.white, width: size / 2 + 2)),
            .path(strokes, closed: false, .stroked(NearCircle.colour, width: size / 2)),
        ]
    }

    /// What the page shows over an event: its time, magnitude, place and id.
    private func tooltip(_ quake: Quake) -> String {
        let magnitude = quake.magnitude.map { "M " + FieldText.magnitude($0) } ?? "M ?"
        let depth = quake.depth.map { FieldText.depth($0) + " deep" } ?? "depth unknown"
        return
            "\(content.zone.dateAndTime(quake.time)) \(content.zone.name)\n\(magnitude), \(depth)\n\(quake.place ?? "")\n\(quake.id)"
    }

    /// Circles of whole magnitudes that the events span, and the depth colours.
    private func legend(below area: Drawing.Rectangle, scale: Double) -> [Drawing.Item] {
        let y = min(area.y + area.height + 26, height - 14)
        var items: [Drawing.Item] = []
        var x = 12.0
        // Whole magnitudes from the smallest event's to the strongest's, at most six of them; a
        // feed's magnitude may be any number, so they are taken within what circles can show.
        let magnitudes = content.events.compactMap(\.magnitude).filter(\.isFinite).map { min(max($0, -2), 10) }
        if let low = magnitudes.min().map({ Int($0.rounded(.down)) }),
            let high = magnitudes.max().map({ Int($0.rounded(.down)) })
        {
            let step = (high - low) / 6 + 1
            for magnitude in Set(Array(stride(from: low, to: high, by: step)) + [high]).sorted() {
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
        for depth in MapStyle.legendClasses(content.events) {
            items.append(
                .rectangle(.init(x: x, y: y - 10, width: 12, height: 12), .filled(depth.colour.withAlpha(0.72))))
            items.append(
                .text(
                    depth.label, at: .init(x: x + 16, y: y), size: 11, anchor: .start, colour: MapStyle.ink, bold: false
                ))
            x += 86
        }
        if let near = content.near {
            x += 8
            items.append(.classed("near", Self.cross(at: .init(x: x + 6, y: y - 4), size: 6)))
            items.append(
                .text(
                    near.legend, at: .init(x: x + 16, y: y), size: 11, anchor: .start, colour: MapStyle.ink,
                    bold: false))
        }
        items.append(
            .text(
                "Made with Natural Earth", at: .init(x: width - 12, y: height - 6), size: 9, anchor: .end,
                colour: MapStyle.faint, bold: false))
        return items
    }
}
