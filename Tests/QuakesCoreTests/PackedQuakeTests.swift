import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// A `PackedQuake` is what the SQLite engine writes in place of the `Quake` its decoder read: a
/// field it lost, misplaced or cut would be stored so, without a word.
@Suite struct PackedQuakeTests {
    /// Every feature of every fixture (and the oldest USGS formats, nulls, escapes and non-ASCII
    /// places among them) reads back field for field.
    @Test(arguments: Fixtures.geojsonFiles) func everyRealFeatureReadsBackWhole(name: String) throws {
        let quakes = try DecodedDocument(Fixtures.bytes(name)).quakes
        for quake in quakes {
            let packed = PackedQuake(quake)
            #expect(packed.quake == quake, "\(quake.id)")
            for field in QuakeField.allCases {
                #expect(
                    packed.text(field).map { String(decoding: $0, as: UTF8.self) } == quake.text(field),
                    "\(quake.id) \(field.name)")
            }
        }
    }

    /// The decoders pack every feature for the SQLite store, which prepares its events so, each the
    /// very quake decoded beside it, and none for a store that prepares none.
    @Test func theDecodersPackOnlyWhenTheStoreTakesThem() throws {
        let bytes = try Fixtures.bytes(Fixtures.weekBefore)
        for preparation in [PackedQuake.preparation, nil] {
            let packing = preparation != nil
            let features = try ReingestTests.batches(bytes, skimming: false, preparation: preparation).flatMap(
                \.features)
            #expect(features.count == 3098)
            for feature in features {
                guard case let .decoded(decoded) = feature else {
                    Issue.record("a feature not decoded")
                    continue
                }
                if packing {
                    #expect((decoded.prepared as? PackedQuake)?.quake == decoded.quake, "\(decoded.quake.id)")
                } else {
                    #expect(decoded.prepared == nil)
                }
            }
        }
    }

    /// Texts past the room first made for them, empty ones, and fields of each kind asked for as
    /// another kind.
    @Test func largeEmptyAndMissingValues() {
        var quake = Quake(id: "us7000abcd", time: 1_600_000_000_000, longitude: -117.5, latitude: 35.25)
        quake.place = String(repeating: "12 km NNE of Ridgecrest, CA — ", count: 40)
        quake.title = ""
        quake.extra = #"{"note":"\#(String(repeating: "é", count: 300))"}"#
        quake.magnitude = 0
        quake.tsunami = 0
        quake.updated = -1
        let packed = PackedQuake(quake)
        #expect(packed.quake == quake)
        #expect(packed.text(.place).map(Array.init) == Array(quake.place!.utf8))
        #expect(packed.text(.title)?.count == 0)
        #expect(packed.text(.url) == nil)
        #expect(packed.text(.time) == nil)
        #expect(packed.integer(.place) == nil)
        #expect(packed.real(.time) == nil)
        #expect(packed.integer(.tsunami) == 0)
        #expect(packed.integer(.updated) == -1)
        #expect(packed.real(.magnitude) == 0)
        #expect(packed.real(.depth) == nil)
    }
}
