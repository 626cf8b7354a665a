import Foundation
import Testing

@testable import GeoJSONEngine
@testable import QuakesCore

/// The GeoJSON-file store's bytes: every event, owner and validator comes back as it went in, the
/// same content always gives the same bytes, and nothing but such a file is taken for one.
@Suite struct GeoJSONStoreFileTests {
    /// The universe's fixtures applied by the identity rules, with two feeds' validators; on a
    /// thread of its own, not one of the cooperative pool's two (seconds, a minute under a sanitizer).
    private static func store() async throws -> GeoJSONStoreFile {
        try await Blocking.run { try makeStore() }
    }

    private static func makeStore() throws -> GeoJSONStoreFile {
        var identities = InMemoryIdentities()
        for file in QueryUniverse.files {
            identities.apply(try DecodedDocument(Array(try Fixtures.data(file))).quakes)
        }
        // And a deletion, which leaves a tombstone among the owners.
        var deleted = try #require(identities.events.values.min { $0.id < $1.id })
        deleted.status = "deleted"
        deleted.updated = (deleted.updated ?? deleted.time) + 1
        identities.apply([deleted])
        var store = GeoJSONStoreFile()
        store.events = identities.events
        store.owners = identities.owners
        store.lastToken = 7
        store.feeds["https://example.org/all_day.geojson"] = FeedState(
            url: "https://example.org/all_day.geojson", etag: #""abc""#, lastModified: "Wed, 21 Oct 2015 07:28:00 GMT",
            fetched: 0)
        store.feeds["file:///tmp/a.geojson"] = FeedState(
            url: "file:///tmp/a.geojson", etag: nil, lastModified: nil, fetched: 0)
        return store
    }

    @Test func everyEventOwnerAndValidatorComesBackAndTheBytesAreStable() async throws {
        let store = try await Self.store()
        #expect(store.events.count == 4679)
        #expect(store.owners.values.contains { $0.isDeletion })
        let (bytes, read, again) = try await Blocking.run {
            let bytes = store.encoded()
            let read = try GeoJSONStoreFile.decode(bytes, name: "store.geojson")
            return (bytes, read, read.encoded())
        }
        #expect(read == store)
        #expect(again == bytes)
        // One feature a line, newest first: what a diff of two versions of the file shows.
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == store.events.count + 2)
        #expect(lines[1].hasPrefix(#"{"type":"Feature""#))
    }

    @Test func aChangedEventChangesItsOwnLineOnly() async throws {
        let store = try await Self.store()
        let id = try #require(store.events.keys.sorted().first)
        let (before, after) = try await Blocking.run {
            var changed = store
            changed.events[id]?.place = "somewhere else"
            return (
                String(decoding: store.encoded(), as: UTF8.self).split(separator: "\n"),
                String(decoding: changed.encoded(), as: UTF8.self).split(separator: "\n")
            )
        }
        #expect(before.count == after.count)
        #expect(zip(before, after).filter { $0 != $1 }.count == 1)
    }

    @Test(arguments: [
        ("a USGS feed", Array((try? Fixtures.data(Fixtures.weekBefore)) ?? Data())),
        ("an empty file", []),
        (
            "a listing",
            Array(#"{"type":"FeatureCollection","metadata":{"title":"quakes list"},"features":["#.utf8) + [10, 93, 125]
        ),
        ("not JSON", Array("name,mag\nx,1\n".utf8)),
    ])
    func anythingElseIsRefusedAsForeign(name: String, bytes: [UInt8]) {
        #expect(!bytes.isEmpty || name == "an empty file")
        let error = #expect(throws: StoreError.self) { try GeoJSONStoreFile.decode(bytes, name: "x.geojson") }
        guard case .foreign = error?.reason else {
            Issue.record("\(name): \(String(describing: error))")
            return
        }
    }

    @Test func aNewerSchemaIsRefusedWithItsVersion() {
        var text = String(decoding: GeoJSONStoreFile().encoded(), as: UTF8.self)
        text = text.replacing(#""schema":1"#, with: #""schema":2"#)
        let error = #expect(throws: StoreError.self) {
            try GeoJSONStoreFile.decode(Array(text.utf8), name: "x.geojson")
        }
        #expect(String(describing: error).contains("schema version 2"))
    }
}
