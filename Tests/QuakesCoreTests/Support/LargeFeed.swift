import Foundation

@testable import QuakesCore

/// Large feeds for the tests that need an ingest to last: real features of a fixture, written out
/// again under new ids.
enum LargeFeed {
    /// Writes a FeatureCollection of `count` features to `path`.
    static func write(count: Int, to path: String) throws {
        let templates = try ReferenceDecoder.decode(try Fixtures.data(Fixtures.weekAfter)).quakes
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        try file.write(
            contentsOf: Data(#"{"type":"FeatureCollection","metadata":{"generated":1700000000000},"features":["#.utf8))
        var text = ""
        for index in 0..<count {
            var quake = templates[index % templates.count]
            quake.id = "big\(index)"
            quake.ids = ",big\(index),"
            quake.time += Int64(index)
            quake.feedGenerated = nil
            text += (index == 0 ? "\n" : ",\n") + QuakeFormats.geoJSONFeature(quake)
            if text.utf8.count > 1 << 20 {
                try file.write(contentsOf: Data(text.utf8))
                text = ""
            }
        }
        try file.write(contentsOf: Data((text + "]}\n").utf8))
    }
}
