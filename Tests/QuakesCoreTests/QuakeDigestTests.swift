import Testing

@testable import QuakesCore

/// Every engine stores each owner's digest, so what it computes is a file format: were it to change,
/// every stored version would look changed when it came again, until a migration computed them anew.
/// It is computed as the JSON is written, through no buffer; these hold it to its definition.
@Suite struct QuakeDigestTests {
    /// The definition: FNV-1a over the JSON object a listing writes of the quake, a zero byte, then
    /// `extra`.
    private func defined(_ quake: Quake) -> Int64 {
        var json = JSONBuffer()
        QuakeFormats.writeJSONObject(quake, to: &json)
        var bytes = json.bytes + [0]
        if let extra = quake.extra { bytes += Array(extra.utf8) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return Int64(bitPattern: hash)
    }

    @Test(arguments: Fixtures.geojsonFiles) func isTheDefinition(file: String) throws {
        for quake in try DecodedDocument(Fixtures.bytes(file)).quakes {
            #expect(QuakeDigest.of(quake) == defined(quake), "\(file): \(quake.id)")
        }
    }

    /// Digests that the release before this way of computing them (c6997c9) stored, read from its
    /// database after fetching these files: one quake with `extra` (a detail file's products), one
    /// without.
    @Test func agreesWithDigestsStoredByEarlierVersions() throws {
        let stored: [(file: String, id: String, digest: Int64)] = [
            (Fixtures.prettyPrinted, "nc72621175", 6_712_142_359_376_172_782),
            (Fixtures.detail, "us1000chhc", -2_503_612_008_442_835_791),
        ]
        for (file, id, digest) in stored {
            let quake = try #require(try DecodedDocument(Fixtures.bytes(file)).quakes.first { $0.id == id })
            #expect(QuakeDigest.of(quake) == digest, "\(id)")
        }
    }

    /// What no fixture has, with its digest as c6997c9 stored it: every optional field set, text
    /// with quotes, backslashes, control characters and non-ASCII, a time past the year 9999 and one
    /// before 1970, numbers the fast path leaves to `description`, and unknown properties (`extra`).
    @Test func agreesOnTextNumbersAndTimesNoFixtureHas() throws {
        let document = #"""
            {"type":"FeatureCollection","metadata":{"generated":1700000000000,"count":1},"features":[{"type":"Feature","properties":{"mag":4.35,"place":"12 km \"N\" of C:\\Temp\nline\ttab\u0001 \u00d1u\u00f1oa \u2014 \u6771\u4eac","time":253402300800123,"updated":-86400001,"tz":-480,"url":"https://example.org/a?b=c&d=\u00e9","detail":"https://example.org/d.geojson","felt":12,"cdi":3.4,"mmi":4.123,"alert":"green","status":"reviewed","tsunami":1,"sig":300,"net":"us","code":"7000abcd","ids":",us7000abcd,at00abc,","sources":",us,at,","types":",origin,shakemap,","nst":33,"dmin":0.000123,"rms":1e-7,"gap":123.456789,"magType":"mww","type":"earthquake","title":"M 4.4 \u2013 \"quoted\" \\ title","custom":{"a":[1,2.50,"x"],"b":null}},"geometry":{"type":"Point","coordinates":[-179.9999,-89.5,-3.25]},"id":"us7000abcd"}]}
            """#
        let quake = try #require(try DecodedDocument(document).quakes.first)
        #expect(quake.extra != nil && quake.rms != nil && quake.place?.contains("\u{1}") == true)
        #expect(QuakeDigest.of(quake) == -6_081_076_366_375_694_479)
        #expect(QuakeDigest.of(quake) == defined(quake))
    }
}
