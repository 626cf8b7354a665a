import Foundation
import Testing

@testable import QuakesCore
@testable import QuakesPictures

/// The packed country outlines: what the committed file holds, and that it is the committed
/// GeoJSON's. How fast it loads is `make geodata`'s to say, not a test's.
@Suite struct CountryOutlinesTests {
    static let resources = Fixtures.repository + "/Sources/QuakesData"

    static func committed(_ name: String) throws -> [UInt8] {
        try Fixtures.contents(of: resources + "/" + name)
    }

    @Test func theCommittedFileIsWhatThePackerMakesOfTheCommittedGeoJSON() throws {
        let packed = try CountryOutlines.pack(geoJSON: Self.committed("countries-110m.geojson"))
        #expect(packed == (try Self.committed(CountryOutlines.fileName)), "run `make geodata` and commit the result")
    }

    @Test func itHoldsEveryCountryWithItsRingsAndBoundingBoxes() throws {
        let outlines = try CountryOutlines(packed: Self.committed(CountryOutlines.fileName))
        #expect(outlines.countries.count == 177)
        #expect(outlines.countries.map(\.rings.count).reduce(0, +) == 288)
        let japan = try #require(outlines.countries.first { $0.name == "Japan" })
        #expect(japan.rings.count == 3)
        #expect(japan.rings.map(\.points.count).reduce(0, +) == 65)
        #expect(japan.rings.map(\.minimum.longitude).min() == 129.408)
        #expect(japan.rings.map(\.minimum.latitude).min() == 31.03)
        #expect(japan.rings.map(\.maximum.longitude).max() == 145.543)
        #expect(japan.rings.map(\.maximum.latitude).max() == 45.551)
        for ring in outlines.countries.flatMap(\.rings) {
            #expect(ring.points.first == ring.points.last)
            #expect(ring.points.allSatisfy { $0.longitude >= ring.minimum.longitude })
            #expect(ring.points.allSatisfy { $0.latitude <= ring.maximum.latitude })
        }
        // Lesotho is a hole in South Africa; Fiji is cut at the antimeridian.
        let southAfrica = try #require(outlines.countries.first { $0.name == "South Africa" })
        #expect(southAfrica.rings.map(\.isHole) == [false, true])
        let fiji = try #require(outlines.countries.first { $0.name == "Fiji" })
        #expect(fiji.rings.contains { $0.maximum.longitude == 180 })
        #expect(fiji.rings.contains { $0.minimum.longitude == -180 })
        let pacific = fiji.rings.filter {
            $0.meets(minimum: GeoPoint(latitude: -20, longitude: 170), maximum: GeoPoint(latitude: 0, longitude: 180))
        }
        #expect(pacific.count == 2)
    }

    @Test func theGeoJSONsCoordinatesComeBackExactly() throws {
        let outlines = try CountryOutlines(packed: Self.committed(CountryOutlines.fileName))
        let fiji = try #require(outlines.countries.first)
        #expect(fiji.name == "Fiji")
        #expect(
            fiji.rings[0].points.prefix(3) == [
                GeoPoint(latitude: -16.067, longitude: 180.0), GeoPoint(latitude: -16.555, longitude: 180.0),
                GeoPoint(latitude: -16.801, longitude: 179.364),
            ])
    }

    @Test func aDamagedFileIsAnErrorNotACrash() throws {
        let packed = try Self.committed(CountryOutlines.fileName)
        // A header whose counts promise billions of countries, and a ring whose deltas leave the
        // Earth (and Int64): damage, not an allocation of gigabytes or an overflow.
        let header = Array(packed.prefix(8))
        let countless = header + [0xFF, 0xFF, 0xFF, 0xFF]
        let ring: [UInt8] = [0, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
        let huge = header + [1, 0, 0, 0, 1, 0, 0x41, 1, 0] + ring + [UInt8](repeating: 0xFE, count: 9) + [0x01, 0]
        for damaged in [
            [], Array(packed.prefix(1000)), packed + [0], [UInt8]("QKOX".utf8) + packed.dropFirst(4), countless, huge,
        ] {
            #expect {
                _ = try CountryOutlines(packed: damaged)
            } throws: { error in
                guard let error = error as? SharedDataError, case .damaged = error.problem else { return false }
                return ExitStatus(for: error) == .osFile
            }
        }
    }

    @Test func theBuildPutsTheDataFilesBesideTheBinary() throws {
        let outlines = try CountryOutlines.load(from: SharedData(variables: [:]))
        #expect(outlines.countries.count == 177)
        #expect(try PopulatedPlaces.load(from: SharedData(variables: [:])).places.count == 243)
    }
}
