import QuakesCore

/// The countries' outlines that maps are drawn over: Natural Earth's 1:110m admin-0 countries,
/// read from the packed file quakes ships (`countries-110m.outlines`), which a release build loads
/// in under a tenth of a millisecond, thirty times sooner than it parses the GeoJSON it is made from.
///
/// The packed form, little-endian throughout, is made by `CountryOutlines.pack(geoJSON:)`:
///
///     "QKOL", version (UInt32), country count (UInt32)
///     per country: name length (UInt16), name (UTF-8), ring count (UInt16)
///     per ring:    hole (UInt8, 1 for a polygon's hole), point count (UInt32),
///                  bounding box (Int32 millidegrees: west, south, east, north),
///                  points (longitude then latitude, each the zigzag varint of its difference in
///                  millidegrees from the ring's previous point, the first from 0)
///
/// Coordinates come to 3 decimals, so millidegrees keep them exactly; differences between
/// neighbouring points mostly fit one or two bytes, which makes the file a quarter of the GeoJSON.
package struct CountryOutlines: Sendable {
    /// One country: its name (Natural Earth's `name`, such as "United States of America") and the
    /// rings of its polygons, every polygon's outer ring followed by its holes.
    package struct Country: Sendable, Equatable {
        package var name: String
        package var rings: [Ring]
    }

    /// A closed ring of points (the last repeats the first, as in GeoJSON), with its bounding box,
    /// so that a map can skip the rings outside its extent without reading their points. Rings
    /// never cross the antimeridian: Natural Earth cuts them there.
    package struct Ring: Sendable, Equatable {
        package var points: [GeoPoint]
        /// The box's south-west corner: the smallest latitude and longitude of `points`.
        package var minimum: GeoPoint
        /// The box's north-east corner: the largest latitude and longitude of `points`.
        package var maximum: GeoPoint
        /// True for a hole in the polygon whose outer ring comes before it (Lesotho in South Africa).
        package var isHole: Bool

        /// True when the ring's bounding box meets the box from `minimum` to `maximum` (which
        /// must not cross the antimeridian: a map that does asks for each side).
        package func meets(minimum other: GeoPoint, maximum otherMaximum: GeoPoint) -> Bool {
            minimum.longitude <= otherMaximum.longitude && maximum.longitude >= other.longitude
                && minimum.latitude <= otherMaximum.latitude && maximum.latitude >= other.latitude
        }
    }

    /// The name of the packed file among the data files quakes ships.
    package static let fileName = "countries-110m.outlines"
    static let magic = Array("QKOL".utf8)
    static let version: UInt32 = 1

    package var countries: [Country]

    /// The outlines of the packed file that `data` finds.
    package static func load(from data: SharedData) throws(SharedDataError) -> CountryOutlines {
        try CountryOutlines(packed: data.contents(of: fileName))
    }

    /// The outlines of a packed file's bytes.
    package init(packed bytes: [UInt8]) throws(SharedDataError) {
        let decoded = bytes.withUnsafeBytes { buffer in
            Result { () throws(PackedReader.Truncated) in try Self.decode(PackedReader(buffer)) }
        }
        switch decoded {
        case .success(let countries?): self.countries = countries
        case .success(nil):
            throw SharedDataError(file: Self.fileName, problem: .damaged(reason: "not packed outlines of version 1"))
        case .failure:
            throw SharedDataError(file: Self.fileName, problem: .damaged(reason: "it ends too soon"))
        }
    }

    private static func decode(_ reader: PackedReader) throws(PackedReader.Truncated) -> [Country]? {
        var reader = reader
        guard try reader.bytes(4).elementsEqual(magic), try reader.integer(UInt32.self) == version else { return nil }
        let countryCount = Int(try reader.integer(UInt32.self))
        var countries: [Country] = []
        // A damaged count must not reserve gigabytes: every country takes at least four bytes.
        countries.reserveCapacity(min(countryCount, reader.remaining / 4))
        for _ in 0..<countryCount {
            let name = String(decoding: try reader.bytes(Int(try reader.integer(UInt16.self))), as: UTF8.self)
            let ringCount = Int(try reader.integer(UInt16.self))
            var rings: [Ring] = []
            rings.reserveCapacity(min(ringCount, reader.remaining / 21))
            for _ in 0..<ringCount {
                let isHole = try reader.integer(UInt8.self) == 1
                let pointCount = Int(try reader.integer(UInt32.self))
                let west = try reader.integer(Int32.self)
                let south = try reader.integer(Int32.self)
                let east = try reader.integer(Int32.self)
                let north = try reader.integer(Int32.self)
                var points: [GeoPoint] = []
                points.reserveCapacity(min(pointCount, reader.remaining / 2))
                var longitude: Int64 = 0
                var latitude: Int64 = 0
                for _ in 0..<pointCount {
                    // Deltas that leave the Earth (or Int64) are damage, not a place.
                    let east = longitude.addingReportingOverflow(try reader.zigzag())
                    let north = latitude.addingReportingOverflow(try reader.zigzag())
                    guard !east.overflow, !north.overflow, abs(east.partialValue) <= 180_000,
                        abs(north.partialValue) <= 90_000
                    else { return nil }
                    (longitude, latitude) = (east.partialValue, north.partialValue)
                    points.append(GeoPoint(latitude: degrees(latitude), longitude: degrees(longitude)))
                }
                rings.append(
                    Ring(
                        points: points,
                        minimum: GeoPoint(latitude: degrees(Int64(south)), longitude: degrees(Int64(west))),
                        maximum: GeoPoint(latitude: degrees(Int64(north)), longitude: degrees(Int64(east))),
                        isHole: isHole))
            }
            countries.append(Country(name: name, rings: rings))
        }
        return reader.isAtEnd ? countries : nil
    }

    /// Millidegrees as degrees: 35687 is 35.687, exactly as the GeoJSON's `35.687` reads.
    @inline(__always)
    static func degrees(_ millidegrees: Int64) -> Double {
        Double(millidegrees) / 1000
    }
}
