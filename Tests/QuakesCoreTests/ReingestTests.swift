import Foundation
import PostgreSQL
import SQLite
import Testing

@testable import QuakesCore

/// A re-ingest skims features and decodes only those that are not the stored version: the result is
/// exactly that of decoding every feature, on real feeds and on copies of one changed in the ways
/// that matter (the same document, a newer feed of the same events, a feature changed without a
/// change of `updated`, a feature with only `updated` changed).
@Suite struct ReingestTests {
    /// A second document, made from the first.
    struct Variant: Sendable, CustomTestStringConvertible {
        var name: String
        /// Features the store should recognise without decoding them.
        var recognised: Int
        var make: @Sendable ([UInt8]) -> [UInt8]

        var testDescription: String { name }
    }

    static let feed = Fixtures.weekBefore
    /// The week's features: 3,098.
    static let features = 3098

    static let variants: [Variant] = [
        Variant(name: "the same document", recognised: features) { $0 },
        Variant(name: "a newer feed of the same events", recognised: features) {
            replacing("\"generated\":1626791035000", with: "\"generated\":1626791095000", in: $0)
        },
        Variant(name: "a feature changed without a change of updated", recognised: features - 1) {
            replacing("\"place\":\"10km SW of Niland, CA\"", with: "\"place\":\"11km SW of Niland, CA\"", in: $0)
        },
        Variant(name: "a feature changed without a change of updated, in a newer feed", recognised: features - 1) {
            replacing(
                "\"place\":\"10km SW of Niland, CA\"", with: "\"place\":\"11km SW of Niland, CA\"",
                in: replacing("\"generated\":1626791035000", with: "\"generated\":1626791095000", in: $0))
        },
        Variant(name: "a feature with only updated changed", recognised: features - 1) {
            replacing("\"updated\":1626790706665", with: "\"updated\":1626790706666", in: $0)
        },
        Variant(name: "a feature with only updated changed back", recognised: features - 1) {
            replacing("\"updated\":1626790706665", with: "\"updated\":1626790706664", in: $0)
        },
    ]

    /// `text` replaced once by `replacement` in `bytes`; the text must be there.
    static func replacing(_ text: String, with replacement: String, in bytes: [UInt8]) -> [UInt8] {
        let document = String(decoding: bytes, as: UTF8.self)
        guard let range = document.range(of: text) else { preconditionFailure("no \(text) in the document") }
        return Array(document.replacingCharacters(in: range, with: replacement).utf8)
    }

    /// The document's features as a fetch hands them to the store, skimmed or decoded, and prepared
    /// by `preparation` when given.
    static func batches(_ bytes: [UInt8], skimming: Bool, preparation: (any EventPreparation)? = nil) throws
        -> [IngestBatch]
    {
        var splitter = FeedSplitter(chunkSize: 64 * 1024)
        var chunks: [FeatureChunk] = []
        try bytes.withUnsafeBytes { try splitter.consume($0) { chunks.append($0) } }
        if let remaining = try splitter.finish().remainingFeatures { chunks.append(remaining) }
        return try chunks.map { try $0.prepare(skimming: skimming, preparation: preparation) }
    }

    /// What applying `second` after `first` leaves in memory, and what applying `second` did: its
    /// changes, by id, and its outcome.
    static func apply(_ first: [UInt8], then second: [UInt8], skimming: Bool) throws -> (
        InMemoryIdentities, [HistoryLedger.Entry], IngestOutcome
    ) {
        var memory = InMemoryIdentities()
        for batch in try batches(first, skimming: false) { _ = try memory.apply(batch) }
        _ = memory.takeChanges()
        var total = IngestOutcome()
        for batch in try batches(second, skimming: skimming) {
            let outcome = try memory.apply(batch)
            total.counts += outcome.counts
            total.problems += batch.problems + outcome.problems
            total.recognised += outcome.recognised
        }
        return (memory, memory.takeChanges().sorted { $0.id < $1.id }, total)
    }

    @Test(.disabled(if: SuiteMode.isThreadSanitized, "one thread"), arguments: variants)
    func skimmingLeavesWhatDecodingEveryFeatureLeaves(variant: Variant) async throws {
        let first = try Fixtures.bytes(Self.feed)
        let second = variant.make(first)
        #expect(second != first || variant.recognised == Self.features)
        let (decoded, skimmed) = try await Blocking.run {
            (try Self.apply(first, then: second, skimming: false), try Self.apply(first, then: second, skimming: true))
        }
        #expect(skimmed.0.events == decoded.0.events)
        #expect(skimmed.0.owners == decoded.0.owners)
        #expect(skimmed.1 == decoded.1)
        #expect(skimmed.2.counts == decoded.2.counts)
        #expect(skimmed.2.problems == decoded.2.problems)
        #expect(skimmed.2.recognised == variant.recognised)
        #expect(skimmed.2.counts.total == Self.features)
    }

    /// Real overlapping feeds, in both orders: inserts, updates, deletions and merges, with most
    /// features the versions already stored.
    @Test(.disabled(if: SuiteMode.isThreadSanitized, "one thread"), arguments: [false, true])
    func skimmingLeavesWhatDecodingLeavesOnOverlappingFeeds(backward: Bool) async throws {
        var files = [try Fixtures.bytes(Fixtures.weekBefore), try Fixtures.bytes(Fixtures.weekAfter)]
        if backward { files.reverse() }
        let (decoded, skimmed) = try await Blocking.run { [files] in
            (
                try Self.apply(files[0], then: files[1], skimming: false),
                try Self.apply(files[0], then: files[1], skimming: true)
            )
        }
        #expect(skimmed.0.events == decoded.0.events)
        #expect(skimmed.0.owners == decoded.0.owners)
        #expect(skimmed.1 == decoded.1)
        #expect(skimmed.2.counts == decoded.2.counts)
        #expect(skimmed.2.problems == decoded.2.problems)
        #expect(skimmed.2.counts.changed > 0)
        #expect(skimmed.2.recognised > 0)
    }

    /// A fetch of each variant leaves, on every engine, the database a fetch that decodes every
    /// feature leaves: the same rows, history and identities; the reference forgets the
    /// fingerprints before its second fetch, so nothing can be recognised without decoding.
    /// Under ThreadSanitizer, two variants: the same document and a changed feature still take every
    /// path of the pipeline between threads.
    @Test(
        arguments: TestEngine.allCases,
        SuiteMode.isThreadSanitized
            ? [variants[0], variants[2]] : [variants[0], variants[1], variants[2], variants[4]])
    func aFetchLeavesWhatAFullDecodeLeaves(
        engine: TestEngine, variant: Variant
    ) async throws {
        let folder = try TemporaryDirectory()
        let first = try folder.write("first.geojson", try Fixtures.bytes(Self.feed))
        let second = try folder.write("second.geojson", variant.make(try Fixtures.bytes(Self.feed)))
        var contents: [DatabaseContent] = []
        var listings: [String] = []
        for forgetting in [false, true] {
            let store = try engine.newDatabase()
            for (index, path) in [first, second].enumerated() {
                if index == 1, forgetting { try Self.forgetFingerprints(store.location, engine: engine) }
                let run = await QuakesRun.run(
                    ["fetch", "--db", store.location, "--quiet", path], now: 1_626_800_000_000 + Int64(index))
                #expect(run.status == .success, "\(run.standardError)")
            }
            contents.append(try DatabaseContent.exceptFeedState(store.location))
            listings.append(
                await QuakesRun.run(["list", "--db", store.location, "--format", "geojson", "--sort", "time"])
                    .standardOutput)
        }
        #expect(contents[0] == contents[1])
        #expect(listings[0] == listings[1])
        #expect(listings[0].count > 1_000_000)
    }

    /// Drops what a store remembers of the bytes of its versions.
    static func forgetFingerprints(_ location: String, engine: TestEngine) throws {
        switch engine {
        case .sqlite: try Connection(path: location).execute("UPDATE identity SET fingerprint = NULL")
        case .postgresql: _ = try PostgresConnection(uri: location).execute("UPDATE identity SET fingerprint = NULL")
        case .geojson: break  // The file keeps none: every fetch decodes every feature.
        }
    }

    /// The skim reads a feature's ids and feed time exactly as the decoder does, whenever it reads
    /// them at all, on every feature of every fixture.
    @Test(.disabled(if: SuiteMode.isThreadSanitized, "one thread"), arguments: Fixtures.geojsonFiles)
    func theSkimReadsWhatTheDecoderReads(file: String) async throws {
        let bytes = try Fixtures.bytes(file)
        let (skimmed, decoded) = try await Blocking.run {
            (try Self.batches(bytes, skimming: true), try Self.batches(bytes, skimming: false))
        }
        var skims = 0
        for batch in skimmed {
            for feature in batch.features {
                guard case let .skimmed(skim, element) = feature else { continue }
                skims += 1
                guard case let .usable(feature) = try batch.decode(element: element) else { continue }
                #expect(skim.id == feature.quake.id)
                #expect(skim.otherIDs == feature.quake.otherIDs)
                #expect(skim.generated == feature.quake.feedGenerated)
                #expect(skim.fingerprint == feature.fingerprint)
            }
        }
        // Every usable feature of the real feeds is skimmed.
        #expect(skims == decoded.flatMap(\.quakes).count)
    }

    /// Features the skim cannot stand for are decoded by the decoders, which report their errors.
    @Test(arguments: [
        #"{"type":"Feature","properties":{"i\u0064s":",a,b,","time":1},"geometry":null,"id":"a"}"#,
        #"{"type":"Feature","properties":{"ids":7,"time":1},"geometry":null,"id":"a"}"#,
        #"{"type":"Feature","properties":{"ids":",a,","ids":",a,b,"},"geometry":null,"id":"a"}"#,
        #"{"type":"Feature","properties":{"i\u0064s":",a,"},"properties":{"ids":",a,"},"geometry":null,"id":"a"}"#,
        #"{"type":"Feature","properties":{},"geometry":null,"id":7}"#,
        #"{"type":"Feature","properties":{},"geometry":null,"id":""}"#,
        #"{"type":"Feature","properties":{},"geometry":null,"id":"a","id":"b"}"#,
        #"{"type":"Feature","properties":null,"geometry":null,"id":"a"}"#,
        #"{"type":"Feature","geometry":null,"id":"a"}"#,
        "{\"type\":\"Feature\",\"properties\":{\"place\":\"tab\tinside\"},\"id\":\"a\"}",
        #"[1,2]"#,
    ]) func theSkimLeavesToTheDecoderWhatItCannotReadAsTheDecoderDoes(feature: String) throws {
        let bytes = Array(feature.utf8)
        let skim = bytes.withUnsafeBytes { FeatureSkim.skim($0, feedGenerated: nil) }
        #expect(skim == nil)
    }

    @Test func theSkimReadsIdsAndTheFeedTime() throws {
        let feature = #"{"type":"Feature","properties":{"ids":",b,a,c,"},"generated":12,"geometry":null,"id":"a"} "#
        let skim = try #require(Array(feature.utf8).withUnsafeBytes { FeatureSkim.skim($0, feedGenerated: 5) })
        #expect(skim.id == "a")
        #expect(skim.otherIDs == ["b", "c"])
        #expect(skim.namedIDs == ["a", "b", "c"])
        #expect(skim.generated == 12)
        let other = #"{"type":"Feature","properties":{"ids":null},"geometry":null,"id":"a"}"#
        let plain = try #require(Array(other.utf8).withUnsafeBytes { FeatureSkim.skim($0, feedGenerated: 5) })
        #expect(plain.otherIDs == [])
        #expect(plain.generated == 5)
    }

    /// A list that names an id twice (USGS lists never do, a hand-made feed may) gives it once,
    /// skimmed or decoded: the owners read, the rules and a sync's look-ups see each id once.
    @Test func aRepeatedIdIsNamedOnce() throws {
        let feature = #"{"type":"Feature","properties":{"ids":",b,a,b,,c,a,c,"},"geometry":null,"id":"a"}"#
        let skim = try #require(Array(feature.utf8).withUnsafeBytes { FeatureSkim.skim($0, feedGenerated: nil) })
        #expect(skim.namedIDs == ["a", "b", "c"])
        var quake = Quake(id: "a", time: 0, longitude: 0, latitude: 0)
        quake.ids = ",b,a,b,,c,a,c,"
        #expect(quake.namedIDs == ["a", "b", "c"])
        quake.ids = ",a,"
        #expect(quake.namedIDs == ["a"])
    }
}
