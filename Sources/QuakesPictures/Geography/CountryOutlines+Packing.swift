import QuakesCore

/// Making the packed outlines from Natural Earth's GeoJSON: what `make geodata` runs, and what a
/// test runs to check that the committed file is the committed GeoJSON's.
extension CountryOutlines {
    /// A GeoJSON document that is not a FeatureCollection of named Polygons and MultiPolygons.
    package struct PackingError: Error, CustomStringConvertible {
        package var description: String
    }

    /// The packed file of a GeoJSON FeatureCollection whose features have a `name` property and
    /// Polygon or MultiPolygon geometries, in the features' order.
    package static func pack(geoJSON bytes: [UInt8]) throws -> [UInt8] {
        let document = try bytes.withUnsafeBytes { buffer in try JSONValue(parsing: buffer) }
        guard let features = document[member: "features"]?.arrayValue else {
            throw PackingError(description: "not a FeatureCollection")
        }
        var packed = magic
        append(version, to: &packed)
        append(UInt32(features.count), to: &packed)
        for feature in features {
            guard let name = feature[member: "properties"]?[member: "name"]?.stringValue,
                let type = feature[member: "geometry"]?[member: "type"]?.stringValue,
                let coordinates = feature[member: "geometry"]?[member: "coordinates"]?.arrayValue
            else { throw PackingError(description: "a feature without a name, a geometry type or coordinates") }
            let polygons: [JSONValue]
            switch type {
            case "Polygon": polygons = [.array(coordinates)]
            case "MultiPolygon": polygons = coordinates
            default: throw PackingError(description: "\(name): a \(type), not a Polygon or MultiPolygon")
            }
            let rings = try polygons.flatMap { polygon in
                guard let rings = polygon.arrayValue else { throw PackingError(description: "\(name): not a polygon") }
                return try rings.enumerated().map { index, ring in
                    (isHole: index > 0, points: try millidegrees(ring, of: name))
                }
            }
            let utf8 = Array(name.utf8)
            append(UInt16(utf8.count), to: &packed)
            packed += utf8
            append(UInt16(rings.count), to: &packed)
            for ring in rings {
                packed.append(ring.isHole ? 1 : 0)
                append(UInt32(ring.points.count), to: &packed)
                for bound in [
                    ring.points.map(\.longitude).min(), ring.points.map(\.latitude).min(),
                    ring.points.map(\.longitude).max(), ring.points.map(\.latitude).max(),
                ] {
                    append(bound ?? 0, to: &packed)
                }
                var previous = (longitude: Int32(0), latitude: Int32(0))
                for point in ring.points {
                    appendZigzag(Int64(point.longitude) - Int64(previous.longitude), to: &packed)
                    appendZigzag(Int64(point.latitude) - Int64(previous.latitude), to: &packed)
                    previous = point
                }
            }
        }
        return packed
    }

    /// A ring's `[longitude, latitude]` pairs in millidegrees.
    private static func millidegrees(_ ring: JSONValue, of name: String) throws -> [(
        longitude: Int32, latitude: Int32
    )] {
        guard let positions = ring.arrayValue else { throw PackingError(description: "\(name): not a ring") }
        return try positions.map { position in
            guard let pair = position.arrayValue, pair.count >= 2, let longitude = pair[0].doubleValue,
                let latitude = pair[1].doubleValue, abs(longitude) <= 180, abs(latitude) <= 90
            else { throw PackingError(description: "\(name): a position that is not [longitude, latitude]") }
            return (Int32((longitude * 1000).rounded()), Int32((latitude * 1000).rounded()))
        }
    }

    private static func append<Value: FixedWidthInteger>(_ value: Value, to packed: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { packed += $0 }
    }

    private static func appendZigzag(_ value: Int64, to packed: inout [UInt8]) {
        var rest = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        while rest >= 0x80 {
            packed.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        packed.append(UInt8(rest))
    }
}
