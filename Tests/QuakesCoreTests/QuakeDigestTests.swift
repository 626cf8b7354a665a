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
}
