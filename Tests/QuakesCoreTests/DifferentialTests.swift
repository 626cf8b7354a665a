import Foundation
import LocalHTTPServer
import Testing

@testable import QuakesCore

/// The hand decoder against the independent reference decoder (Foundation's JSONDecoder plus the
/// feed rules) on documents no one wrote by hand: generated ones, with every field given values of
/// every JSON type, and real feeds damaged byte by byte. Both must agree on every feature, or both
/// refuse the document.
@Suite(.disabled(if: SuiteMode.isThreadSanitized, "one thread")) struct DifferentialTests {
    private static let seeds = Array(1...UInt64(SuiteMode.rounds(150, long: 2000, sanitized: 30)))

    /// A JSON value of a random kind, as text.
    private static func value(_ random: inout SplitMix64, depth: Int = 0) -> String {
        switch Int.random(in: 0..<(depth < 2 ? 11 : 8), using: &random) {
        case 0: return "null"
        case 1: return Bool.random(using: &random) ? "true" : "false"
        case 2: return String(Int64.random(in: -9_000_000_000_000...9_000_000_000_000, using: &random))
        case 3:
            return String(Int.random(in: -1000...1000, using: &random)) + "."
                + String(Int.random(in: 0...99_999, using: &random))
        // Numbers beyond a Double (1e400) are left out: the reference cannot represent them; the
        // bad-input tests cover them.
        case 4:
            return ["1E3", "2.5e-3", "-0", "0.0", "-0.0", "123456789012345678901234567890", "1e-5", "9007199254740993"]
                .randomElement(using: &random)!
        case 5: return #""plain text""#
        case 6:
            return [
                #""Ñuñoa, Chile""#, #""\u00e9\ud83c\udf0b""#, #""tab\there""#, #""quote \" and \\ backslash""#, #""""#,
            ]
            .randomElement(using: &random)!
        case 7: return #""2021-07-20T14:23:05Z""#
        case 8:
            return "["
                + (0..<Int.random(in: 0...3, using: &random)).map { _ in value(&random, depth: depth + 1) }.joined(
                    separator: ",") + "]"
        case 9:
            return "{"
                + (0..<Int.random(in: 0...3, using: &random)).map { "\"k\($0)\":" + value(&random, depth: depth + 1) }
                .joined(separator: ",") + "}"
        default: return String(Double.random(in: -200...200, using: &random))
        }
    }

    private static let propertyNames = [
        "mag", "place", "time", "updated", "tz", "url", "detail", "felt", "cdi", "mmi",
        "alert", "status", "tsunami", "sig", "net", "code", "ids", "sources", "types",
        "nst", "dmin", "rms", "gap", "magType", "type", "title", "unknownA", "unknownB",
    ]

    /// A feature whose every member is usually right and sometimes any value at all.
    private static func feature(_ random: inout SplitMix64, index: Int) -> String {
        func maybe(_ right: String) -> String {
            Int.random(in: 0..<4, using: &random) == 0 ? value(&random) : right
        }
        let properties = propertyNames.filter { _ in Int.random(in: 0..<5, using: &random) > 0 }.map { name -> String in
            let right =
                switch name {
                case "time", "updated": String(Int64.random(in: 0...1_700_000_000_000, using: &random))
                case "mag", "cdi", "mmi", "dmin", "rms", "gap":
                    String(Double(Int.random(in: -10...1000, using: &random)) / 10)
                case "tz", "felt", "tsunami", "sig", "nst": String(Int.random(in: -500...5000, using: &random))
                default: #""text \#(index)""#
                }
            return "\"\(name)\":" + maybe(right)
        }
        let coordinates = maybe(
            "["
                + [
                    String(Double.random(in: -180...180, using: &random)),
                    String(Double.random(in: -90...90, using: &random)),
                    maybe(String(Double.random(in: -5...700, using: &random))),
                ].joined(separator: ",") + "]")
        return #"{"type":"Feature","properties":{"# + properties.joined(separator: ",")
            + #"},"geometry":{"type":"Point","coordinates":"# + coordinates + #"},"id":"# + maybe("\"ev\(index)\"")
            + "}"
    }

    /// Runs both decoders on `bytes` and checks that they agree.
    private func expectAgreement(_ bytes: [UInt8], _ label: String) -> Bool {
        let ours = Result { try DecodedDocument(bytes, blockSize: 97, chunkSize: 300) }
        let reference = Result { try ReferenceDecoder.decode(Data(bytes)) }
        switch (ours, reference) {
        case let (.success(decoded), .success(expected)):
            // A feature with a duplicate key is skipped by ours, which will not guess which value is
            // meant; JSONDecoder keeps one of them. Those features are left out of the comparison.
            let duplicated = Set(decoded.problems.filter { $0.reason.hasPrefix("duplicate key") }.map(\.index))
            let total = expected.quakes.count + expected.skipped.count
            let referenceIndices = (0..<total).filter { !expected.skipped.contains($0) }
            let ours = decoded.quakes.map(Self.comparable)
            let theirs = zip(referenceIndices, expected.quakes).filter { !duplicated.contains($0.0) }.map {
                Self.comparable($0.1)
            }
            #expect(ours == theirs, "\(label): \(Self.difference(ours, theirs))")
            #expect(
                decoded.problems.map(\.index).filter { !duplicated.contains($0) }
                    == expected.skipped.filter { !duplicated.contains($0) }, "\(label): \(decoded.problems)")
            return true
        case (.failure, .failure):
            return false
        case let (.success, .failure(error)):
            // JSONDecoder cannot hold a number beyond a Double (such as 1e900) and refuses the whole
            // document; ours keeps such a number's text or skips its feature, as the bad-input tests check.
            guard !Self.holdsANumberBeyondADouble(bytes) else { return false }
            Issue.record("\(label): ours accepts, the reference refuses: \(error)")
        case let (.failure(error), .success):
            // JSONDecoder accepts a comma before a closing bracket, which RFC 8259 does not.
            if let syntax = error as? JSONSyntaxError, Self.followsATrailingComma(bytes, at: Int(syntax.offset)) {
                return false
            }
            Issue.record("\(label): ours refuses (\(error)), the reference accepts")
        }
        return false
    }

    /// The quake with `extra` rewritten so that equal JSON compares equal: the reference rebuilds
    /// `extra` from Doubles (`-0` becomes `0`, 20-digit integers are rounded), while ours keeps the
    /// feed's text, so numbers are compared as the Doubles they denote.
    private static func comparable(_ quake: Quake) -> Quake {
        var copy = quake
        if let extra = quake.extra,
            let value = try? JSONDecoder().decode(ReferenceDecoder.Value.self, from: Data(extra.utf8))
        {
            copy.extra = canonical(value)
        }
        return copy
    }

    private static func canonical(_ value: ReferenceDecoder.Value) -> String {
        switch value {
        case .null: "null"
        case let .bool(flag): flag ? "true" : "false"
        case let .number(number, _): number == 0 ? "0" : "\(number)"
        case let .string(text): "\"\(text)\""
        case let .array(values): "[" + values.map(canonical).joined(separator: ",") + "]"
        case let .object(members):
            "{" + members.keys.sorted().map { "\($0):" + canonical(members[$0]!) }.joined(separator: ",") + "}"
        }
    }

    /// True when the byte at `offset` closes an object or array right after a comma.
    private static func followsATrailingComma(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "}") || bytes[offset] == UInt8(ascii: "]") else {
            return false
        }
        let before = bytes[..<offset].last { ![0x20, 0x0A, 0x0D, 0x09].contains($0) }
        return before == UInt8(ascii: ",")
    }

    private static func holdsANumberBeyondADouble(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        let pattern = try! NSRegularExpression(pattern: #"-?[0-9]+(\.[0-9]+)?[eE][+-]?[0-9]+"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).contains { match in
            Double(String(text[Range(match.range, in: text)!]))?.isInfinite ?? false
        }
    }

    /// The first field in which two lists of quakes differ, for failure messages.
    private static func difference(_ ours: [Quake], _ theirs: [Quake]) -> String {
        guard ours.count == theirs.count else { return "\(ours.count) events against \(theirs.count)" }
        for (mine, reference) in zip(ours, theirs) where mine != reference {
            for (field, value) in zip(Mirror(reflecting: mine).children, Mirror(reflecting: reference).children)
            where "\(field.value)" != "\(value.value)" {
                return "\(mine.id): \(field.label ?? "?") is \(field.value), the reference has \(value.value)"
            }
        }
        return "no field differs"
    }

    @Test func generatedDocumentsDecodeAlike() {
        var accepted = 0
        var features = 0
        for seed in Self.seeds {
            var random = SplitMix64(seed: seed)
            let count = Int.random(in: 0...12, using: &random)
            let document =
                #"{"type":"FeatureCollection","metadata":{"generated":1700000000000},"features":["#
                + (0..<count).map { Self.feature(&random, index: $0) }.joined(separator: ",") + "]}"
            if expectAgreement(Array(document.utf8), "seed \(seed)") { accepted += 1 }
            features += count
        }
        #expect(accepted == Self.seeds.count)
        ReliabilityReport.record(
            "Differential", "generated feeds, every field sometimes of a random JSON type", runs: Self.seeds.count,
            "both decoders give the same events and skip the same features, \(features) features in all")
    }

    @Test func damagedRealFeedsDecodeAlikeOrAreRefusedByBoth() throws {
        let sources = try [
            "significant_month-2023-10-11T2016Z-2.geojson", "all_week-2021-07-20T1423Z-2.geojson",
            "fdsn_query-2022-05-20T1306Z-2.geojson", "detail-us1000chhc-trimmed.geojson",
        ]
        .map { try Fixtures.contents(of: Fixtures.repository + "/Fuzz/seeds/" + $0) }
        let tokens = ["{", "}", "[", "]", ",", ":", "\"", "\\", "\\u00", "null", "-", "e9", "0", "\u{7F}", "é"].map {
            Array($0.utf8)
        }
        var accepted = 0
        for seed in Self.seeds {
            var random = SplitMix64(seed: seed)
            var bytes = sources[Int(seed) % sources.count]
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(contentsOf: tokens.randomElement(using: &random)!, at: at)
                case 2: bytes[at] = UInt8.random(in: 0...255, using: &random)
                default:
                    let end = min(bytes.count, at + Int.random(in: 1...40, using: &random))
                    bytes.insert(contentsOf: bytes[at..<end], at: end)
                }
            }
            if expectAgreement(bytes, "seed \(seed)") { accepted += 1 }
        }
        ReliabilityReport.record(
            "Differential", "real feeds damaged by 1 to 3 random byte edits", runs: Self.seeds.count,
            "both decoders agree: \(accepted) still readable with identical events, the rest refused by both")
    }
}
