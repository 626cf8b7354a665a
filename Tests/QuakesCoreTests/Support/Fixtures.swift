import Foundation

/// The real USGS files in `Fixtures/`, and what the tests need to know about them.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The repository's root folder.
    static let repository = directory.deletingLastPathComponent().path

    /// Every uncompressed fixture; under a sanitizer, only those under 600 KB (the weekly feeds
    /// still serve the tests that name them).
    static let geojsonFiles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { name in
            guard name.hasSuffix(".geojson") else { return false }
            guard SuiteMode.isSanitized else { return true }
            let size = (try? FileManager.default.attributesOfItem(atPath: path(name)))?[.size] as? Int ?? 0
            return size < 600_000
        }.sorted()
    }()

    static func path(_ name: String) -> String {
        directory.appendingPathComponent(name).path
    }

    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try data(name))
    }

    /// The bytes of any file, such as a database a test damaged.
    static func contents(of path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The bytes of a gzip file, decompressed by the system's `gzip` (an essential Debian package),
    /// which is independent of quakes' own decoding.
    static func gunzipped(_ name: String) async throws -> [UInt8] {
        let outcome = try await ChildProcess.run(URL(fileURLWithPath: "/bin/gzip"), ["-dc", path(name)])
        return [UInt8](outcome.outputData)
    }

    static let weekBefore = "all_week-2021-07-20T1423Z.geojson"
    static let weekAfter = "all_week-2021-07-22T2039Z.geojson"
    static let nullMagnitude = "all_day-2020-10-28T2257Z.geojson"
    static let nullPlaces = "fdsn_query-2022-05-20T1306Z.geojson"
    static let emptyFeed = "significant_hour-2018-06-21T1817Z.geojson"
    static let prettyPrinted = "2.5_week-2016-04-12T2150Z.geojson"
    static let detail = "detail-us1000chhc-updated-2018-02-20.geojson"
    static let upperCaseStatus = "all_day-2014-04-14T1152Z.geojson"
    static let alerts = "significant_month-2023-10-11T2016Z.geojson"
    static let fourFiveEarlier = "4.5_week-2021-07-22T2023Z.geojson"
    static let fourFiveLater = "4.5_week-2021-07-22T2040Z.geojson"
    /// The all_week feed whose non-ASCII places are written as \u escapes, gzipped.
    static let escapedGzip = "all_week-2020-06-10T0420Z.geojson.gz"
}

/// A folder that exists for the life of a test.
final class TemporaryDirectory: Sendable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "quakes-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func file(_ name: String) -> String {
        path + "/" + name
    }

    /// Writes `bytes` to a file in the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: some Sequence<UInt8>) throws -> String {
        let target = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: target))
        return target
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Array(text.utf8))
    }
}
