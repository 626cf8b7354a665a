import Foundation
import LocalHTTPServer

/// Writes realistic USGS feeds of any size: real features of the fixtures, copied byte for byte,
/// with their id, code, ids, time, updated, magnitude and coordinates renewed.
///
/// Everything else (nulls, Unicode places, odd event types, escapes, URLs) keeps the frequencies the
/// real feeds have. The output depends only on the seed.
struct FeedGenerator {
    /// A real feature cut where the renewed values go.
    private struct Template {
        /// The text between the renewed values.
        var pieces: [[UInt8]]
        /// Which value follows each piece but the last.
        var slots: [Slot]
    }

    private enum Slot {
        case id, code, ids, time, updated, magnitude, coordinates
    }

    private let templates: [Template]
    private var random: SplitMix64

    /// Templates from the compact (one feature per line) fixtures in `fixtures`.
    init(fixtures: URL, seed: UInt64) throws {
        let files = [
            "all_week-2021-07-22T2039Z.geojson", "all_week-2021-07-20T1423Z.geojson",
            "fdsn_query-2022-05-20T1306Z.geojson", "all_day-2020-10-28T2257Z.geojson",
            "all_day-2014-04-14T1152Z.geojson", "significant_month-2023-10-11T2016Z.geojson",
        ]
        var templates: [Template] = []
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(file)))
            templates += Self.features(in: bytes).compactMap(Self.template)
        }
        guard !templates.isEmpty else { throw CocoaError(.fileReadCorruptFile) }
        self.templates = templates
        random = SplitMix64(seed: seed)
    }

    /// Writes a FeatureCollection of `count` features to `path`, generated at `generated`. A
    /// `repeated` share of them are later versions of events already written (the same id, a newer
    /// `updated`).
    mutating func write(count: Int, repeated: Double = 0, generated: Int64 = 1_700_000_000_000, to path: String)
        throws
    {
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        var out: [UInt8] = []
        out.reserveCapacity(5 << 20)
        out += Array(
            "{\"type\":\"FeatureCollection\",\"metadata\":{\"generated\":\(generated),\"url\":\"generated\",\"title\":\"Generated feed\",\"status\":200,\"api\":\"1.10.3\",\"count\":\(count)},\"features\":["
                .utf8)
        var recent: [(number: Int, updated: Int64)] = []
        let start: Int64 = 1_577_836_800_000  // 2020-01-01
        var number = 0
        for position in 0..<count {
            let event: (number: Int, time: Int64, updated: Int64)
            if !recent.isEmpty, random.uniformAboveZero() < repeated {
                let slot = Int(random.next() % UInt64(recent.count))
                let updated = recent[slot].updated + 60_000 + Int64(random.next() % 86_400_000)
                recent[slot].updated = updated
                event = (recent[slot].number, start + Int64(recent[slot].number) * 60_000, updated)
            } else {
                let time = start + Int64(number) * 60_000 + Int64(random.next() % 60_000)
                event = (number, time, time + 60_000 + Int64(random.next() % 172_800_000))
                if recent.count < 10_000 {
                    recent.append((number, event.updated))
                } else {
                    recent[Int(random.next() % 10_000)] = (number, event.updated)
                }
                number += 1
            }
            if position > 0 { out += [UInt8(ascii: ","), UInt8(ascii: "\n")] }
            emit(event, into: &out)
            if out.count > 4 << 20 {
                try file.write(contentsOf: out)
                out.removeAll(keepingCapacity: true)
            }
        }
        out += Array("],\"bbox\":[-180,-90,-3,180,90,700]}\n".utf8)
        try file.write(contentsOf: out)
    }

    private mutating func emit(_ event: (number: Int, time: Int64, updated: Int64), into out: inout [UInt8]) {
        let template = templates[Int(random.next() % UInt64(templates.count))]
        let code = String(event.number).leftPadded(to: 8)
        let id = "bm" + code
        for (index, piece) in template.pieces.enumerated() {
            out += piece
            guard index < template.slots.count else { break }
            switch template.slots[index] {
            case .id: out += Array(id.utf8)
            case .code: out += Array(code.utf8)
            case .ids: out += Array(",\(id),".utf8)
            case .time: out += Array(String(event.time).utf8)
            case .updated: out += Array(String(event.updated).utf8)
            case .magnitude:
                // Gutenberg–Richter: each unit of magnitude ten times rarer than the one below.
                let magnitude = min(9.1, -0.7 - log10(max(1e-12, random.uniformAboveZero())))
                out += Array(String(format: "%.2f", magnitude).utf8)
            case .coordinates:
                let longitude = random.uniformAboveZero() * 360 - 180
                let latitude = asin(random.uniformAboveZero() * 2 - 1) * 180 / .pi * 0.9
                let depth =
                    random.uniformAboveZero() < 0.75
                    ? random.uniformAboveZero() * 33 - 3 : 33 + random.uniformAboveZero() * 667
                out += Array(String(format: "%.4f,%.4f,%.2f", longitude, latitude, depth).utf8)
            }
        }
    }

    /// The features of a compact document: from each `{"type":"Feature"` to its closing brace.
    private static func features(in bytes: [UInt8]) -> [[UInt8]] {
        let marker = Array(#"{"type":"Feature""#.utf8)
        var features: [[UInt8]] = []
        var index = 1
        while index + marker.count < bytes.count {
            guard bytes[index] == UInt8(ascii: "{"), bytes[index..<(index + marker.count)].elementsEqual(marker) else {
                index += 1
                continue
            }
            var depth = 0
            var inString = false
            var end = index
            while end < bytes.count {
                let byte = bytes[end]
                if inString {
                    if byte == UInt8(ascii: "\\") { end += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 { break }
                }
                end += 1
            }
            features.append(Array(bytes[index...end]))
            index = end + 1
        }
        return features
    }

    /// Cuts a feature at its renewed values; nil when one is missing (such features are skipped).
    private static func template(_ feature: [UInt8]) -> Template? {
        let text = String(decoding: feature, as: UTF8.self)
        guard let idRange = text.range(of: "\"id\":\"", options: .backwards),
            let idEnd = text[idRange.upperBound...].firstIndex(of: "\"")
        else { return nil }
        var cuts: [(Range<String.Index>, Slot)] = [(idRange.upperBound..<idEnd, .id)]
        func value(after key: String, _ slot: Slot, quoted: Bool = false) -> Bool {
            guard let keyRange = text.range(of: "\"\(key)\":") else { return false }
            var start = keyRange.upperBound
            if quoted {
                guard text[start...].first == "\"" else { return false }
                start = text.index(after: start)
                guard let end = text[start...].firstIndex(of: "\"") else { return false }
                cuts.append((start..<end, slot))
            } else if slot == .coordinates {
                guard text[start...].first == "[", let end = text[start...].firstIndex(of: "]") else { return false }
                cuts.append((text.index(after: start)..<end, slot))
            } else {
                let end = text[start...].firstIndex { $0 == "," || $0 == "}" } ?? text.endIndex
                cuts.append((start..<end, slot))
            }
            return true
        }
        let hasMagnitude = !text.contains("\"mag\":null")
        guard value(after: "time", .time), value(after: "updated", .updated), value(after: "code", .code, quoted: true),
            value(after: "ids", .ids, quoted: true), value(after: "coordinates", .coordinates),
            !hasMagnitude || value(after: "mag", .magnitude)
        else { return nil }
        cuts.sort { $0.0.lowerBound < $1.0.lowerBound }
        var pieces: [[UInt8]] = []
        var from = text.startIndex
        // The URLs keep the template's id: they point at a real event, which is fine for a benchmark.
        for (range, _) in cuts {
            pieces.append(Array(text[from..<range.lowerBound].utf8))
            from = range.upperBound
        }
        pieces.append(Array(text[from...].utf8))
        return Template(pieces: pieces, slots: cuts.map(\.1))
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
