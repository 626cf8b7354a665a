import Foundation
import Testing

@testable import QuakesCore

/// Whole documents through the splitter and the decoder, against the JSONDecoder-based reference.
@Suite(.disabled(if: SuiteMode.isThreadSanitized, "one thread")) struct FeedDocumentTests {
    @Test(arguments: Fixtures.geojsonFiles)
    func everyFixtureDecodesToWhatTheReferenceDecoderReads(name: String) throws {
        let bytes = try Fixtures.bytes(name)
        let reference = try ReferenceDecoder.decode(Data(bytes))
        let decoded = try DecodedDocument(bytes)
        #expect(decoded.problems.isEmpty)
        #expect(reference.skipped.isEmpty)
        #expect(decoded.quakes.count == reference.quakes.count)
        #expect(decoded.quakes.map(\.normalized) == reference.quakes.map(\.normalized))
    }

    @Test func theEscapedFeedDecodesToWhatTheReferenceDecoderReads() async throws {
        let bytes = try await Fixtures.gunzipped(Fixtures.escapedGzip)
        let decoded = try DecodedDocument(bytes)
        #expect(decoded.quakes.count == 4119)
        #expect(decoded.quakes == (try ReferenceDecoder.decode(Data(bytes))).quakes)
        #expect(decoded.quakes.first { $0.id == "us6000a92u" }?.place == "57 km SSW of Lithakiá, Greece")
    }

    @Test(arguments: [1, 2, 3, 7, 64, 1000, 4096, 65_536])
    func blockBoundariesAnywhereGiveTheSameResult(blockSize: Int) throws {
        for name in [Fixtures.prettyPrinted, Fixtures.alerts, Fixtures.detail, Fixtures.emptyFeed] {
            let bytes = try Fixtures.bytes(name)
            let whole = try DecodedDocument(bytes)
            let split = try DecodedDocument(bytes, blockSize: blockSize, chunkSize: 1 + blockSize * 3)
            #expect(split.quakes == whole.quakes, "\(name) in blocks of \(blockSize)")
        }
    }

    /// The one real feed with escapes (`\u` in place names), cut into blocks: the fixtures above
    /// hold no backslash.
    @Test(arguments: [7, 4096])
    func theEscapedFeedInBlocksGivesTheSameResult(blockSize: Int) async throws {
        let bytes = try await Fixtures.gunzipped(Fixtures.escapedGzip)
        let split = try DecodedDocument(bytes, blockSize: blockSize, chunkSize: 1 + blockSize * 3)
        #expect(split.quakes == (try DecodedDocument(bytes)).quakes)
        #expect(split.quakes.count == 4119)
    }

    /// Escapes, quotes and brackets inside strings, in nested values of the features and of the
    /// outline, with every byte a block's last.
    @Test func stringsInsideFeaturesAreFollowedAcrossEveryBlockBoundary() throws {
        let place = #"a \"quoted\" ]} place \\"#
        let features = (0..<3).map { index in
            #"{"type":"Feature","properties":{"time":\#(index),"place":"\#(place)","#
                + #""products":{"x":[{"k\"]":"\\\\"},["}",[]]]}},"#
                + #""geometry":{"type":"Point","coordinates":[1,2]},"id":"e\#(index)"}"#
        }
        let document =
            #"{"type":"FeatureCollection","metadata":{"a":{"b":["\"]}\\",{}]}},"#
            + #""features":[\#(features.joined(separator: ","))]}"#
        let whole = try DecodedDocument(document)
        #expect(whole.quakes.map(\.id) == ["e0", "e1", "e2"])
        #expect(whole.quakes.map(\.place) == Array(repeating: #"a "quoted" ]} place \"#, count: 3))
        for blockSize in 1...40 {
            let split = try DecodedDocument(Array(document.utf8), blockSize: blockSize, chunkSize: 1 + blockSize)
            #expect(split.quakes == whole.quakes, "blocks of \(blockSize)")
            #expect(split.problems.isEmpty, "blocks of \(blockSize)")
        }
    }

    @Test func largeDocumentsAreCutIntoManyChunks() throws {
        let decoded = try DecodedDocument(
            try Fixtures.bytes(Fixtures.weekAfter), blockSize: 16 * 1024,
            chunkSize: 64 * 1024)
        #expect(decoded.quakes.count == 3280)
        #expect(decoded.chunkCount >= 30)
    }

    @Test func aSingleFeatureDocumentIsOneEvent() throws {
        let decoded = try DecodedDocument(try Fixtures.bytes(Fixtures.detail))
        let quake = try #require(decoded.quakes.first)
        #expect(decoded.quakes.count == 1)
        #expect(quake.id == "us1000chhc")
        #expect(quake.magnitude == 6.4)
        #expect(quake.alert == "yellow")
        #expect(quake.detail == nil)
        let extra = try #require(quake.extra)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(extra.utf8)) as? [String: Any])
        #expect(object.keys.sorted() == ["products"])
    }

    @Test func invalidFeaturesAreSkippedAndCountedWithTheirPositions() throws {
        let document = """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"time":1},"geometry":{"type":"Point","coordinates":[0,0]},"id":"a"},
            {"type":"Feature","properties":{"time":1},"geometry":{"type":"Point","coordinates":[0,0]}},
            {"type":"Feature","properties":{"time":2},"geometry":{"type":"Point","coordinates":[0,91]},"id":"c"},
            {"type":"Feature","properties":{"time":3},"geometry":{"type":"Point","coordinates":[0,0]},"id":"d"}]}
            """
        let decoded = try DecodedDocument(document, blockSize: 5)
        #expect(decoded.quakes.map(\.id) == ["a", "d"])
        #expect(decoded.problems.map(\.index) == [1, 2])
        #expect(
            decoded.problems.map(\.description) == [
                "feature 1: id is missing",
                "feature 2 (c): geometry.coordinates[1] latitude 91.0 is outside [-90, 90]",
            ])
    }

    @Test func keysMayComeInAnyOrderAndTheFeaturesKeyMayBeEscaped() throws {
        let feature =
            #"{"id":"a","geometry":{"coordinates":[1,2],"type":"Point"},"properties":{"time":1},"type":"Feature"}"#
        let late = #"{"bbox":[1],"features":[\#(feature)],"metadata":{"count":1},"type":"FeatureCollection"}"#
        #expect(try DecodedDocument(late).quakes.map(\.id) == ["a"])
        let escaped = #"{"type":"FeatureCollection","feat\u0075res":[\#(feature)]}"#
        #expect(try DecodedDocument(escaped).quakes.map(\.id) == ["a"])
    }

    @Test func aByteOrderMarkIsIgnored() throws {
        let bytes = [0xEF, 0xBB, 0xBF] + (try Fixtures.bytes(Fixtures.alerts))
        #expect(try DecodedDocument(bytes, blockSize: 1).quakes.count == 18)
    }

    @Test(arguments: [
        ("", "the document is empty"),
        ("  \n ", "nothing but whitespace"),
        ("<!DOCTYPE html><html><body>502 Bad Gateway</body></html>", "looks like HTML"),
        (#"[{"type":"Feature"}]"#, "JSON array"),
        ("null", "not a JSON object"),
        (#"{"type":"FeatureCollection","features":[]} x"#, "after the end of the document"),
        (#"{"type":"FeatureCollection","features":[]}}"#, "after the end of the document"),
        (#"{"type":"FeatureCollection","features":{}}"#, "'features' is not an array"),
        (#"{"type":"FeatureCollection","features":null}"#, "'features' is not an array"),
        (#"{"type":"FeatureCollection"}"#, "no 'features' array"),
        (#"{"features":[]}"#, "no 'type'"),
        (#"{"type":"Point","coordinates":[0,0]}"#, "GeoJSON 'Point'"),
        (#"{"type":"FeatureCollection","features":[],"features":[]}"#, "two 'features'"),
        (#"{"type":"FeatureCollection","type":"Feature","features":[]}"#, "two 'type'"),
        (#"{"type":"Feature","features":[],"properties":{"time":1}}"#, "must not have a 'features'"),
        (#"{"type":"FeatureCollection","features":[,]}"#, "expected a feature"),
        (#"{"type":"FeatureCollection","features":[{"id":"a"},]}"#, "expected a feature after ','"),
        (#"{"type":"FeatureCollection","features":[{"id":"a"}}"#, "expected ',' or ']'"),
        (#"{"type":"FeatureCollection","features":[{"id":"a"} {"id":"b"}]}"#, "after a feature"),
        (#"{"type":"FeatureCollection" "features":[]}"#, "expected ',' or '}'"),
        (#"{"type":"FeatureCollection","features":[]]"#, "expected ',' or '}'"),
        (#"{"type":"FeatureCollection","metadata":{"count":NaN},"features":[]}"#, "expected a value"),
    ])
    func documentsThatAreNotFeedsFailWithAReason(text: String, reason: String) throws {
        for blockSize in [1, 4096] {
            let error = try #require(syntaxError(of: text, blockSize: blockSize))
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test func aDocumentCutShortAnywhereFails() throws {
        let bytes = try Fixtures.bytes(Fixtures.alerts)
        var end = bytes.count
        while end > 0, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[end - 1]) { end -= 1 }
        // Every cut in the outline and the first two features, then every 7th byte.
        let cuts = Array(0..<2_000) + Array(stride(from: 2_000, to: end, by: 7)) + [end - 1]
        let survivors = cuts.filter { syntaxError(of: Array(bytes[..<$0]), blockSize: 997) == nil }
        #expect(survivors.isEmpty)
        #expect(syntaxError(of: Array(bytes[..<end])) == nil)
    }

    @Test func errorOffsetsAreDocumentOffsets() throws {
        let prefix = #"{"type":"FeatureCollection","metadata":{},"features":["#
        let good =
            #"{"type":"Feature","properties":{"time":1},"geometry":{"type":"Point","coordinates":[0,0]},"id":"a"}"#
        let text = prefix + good + "," + good + "," + #"{"id":"b","properties":{"time":tru}}"# + "]}"
        let error = try #require(syntaxError(of: text, blockSize: 7))
        let expected = text.utf8.count - "tru}}]}".utf8.count
        #expect(error.offset == Int64(expected))
        let outline = #"{"type":"FeatureCollection","features":[],"bbox":[1,,2]}"#
        #expect(syntaxError(of: outline)?.offset == 52)
    }
}
