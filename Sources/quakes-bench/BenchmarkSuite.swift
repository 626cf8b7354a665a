import Foundation
import SQLite

/// The benchmark cases of `make bench`, each run several times beside its baseline: the Python
/// script of `Benchmarks/baseline.py`, the `sqlite3` tool on the same SQL, or the store code alone;
/// and, beside the fresh ingests and the full export, their floors: SQLite alone (`quakes-floor`).
///
/// The cases are extensions by concern, a file each: `+Ingest`, `+Floors`, `+Queries`,
/// `+PostgreSQL`, `+GeoJSONStore`, `+LocalServer` (the backfill and the 304) and `+Startup`.
struct BenchmarkSuite {
    /// The `quakes` binary under test.
    var quakes: String
    /// The repository: `Fixtures/` and `Benchmarks/` are in it.
    var root: URL
    /// Where feeds, databases and logs go.
    var work: URL
    /// A small run, to check the suite works: `make bench-quick`.
    var quick: Bool
    /// A PostgreSQL server to measure that engine on (`--postgres URI`, which `make bench` gives
    /// through scripts/with-postgres); its cases are left out without one.
    var postgres: String?
    var python = Runner.find("python3")
    var sqlite3 = Runner.find("sqlite3")
    var psql = Runner.find("psql")

    /// The report's lines, in the order the cases ran; each case's extension appends its own.
    var results: [Result] = []

    /// One line of the report.
    struct Result {
        var name: String
        var summary: Summary
        /// Features or rows per run, for a rate.
        var items: Int?
        /// The case it is compared with, and the ratio is this case's time over that one's.
        var baseline: String?
    }

    private var sizes: [Int] { quick ? [20_000] : [200_000, 1_000_000] }

    func runs(_ size: Int) -> Int {
        quick ? 1 : (size >= 1_000_000 ? 3 : 5)
    }

    var fixtures: URL { root.appendingPathComponent("Fixtures") }

    mutating func run() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        for size in sizes {
            try ingest(try generate(size), size: size)
        }
        try queries(database: database(sizes.last!))
        if postgres != nil {
            try postgresQueries(feed: try generate(sizes.last!), size: sizes.last!)
            try postgresWatch()
        }
        try geoJSONStore()
        try backfill()
        try notModified()
        try startup()
    }

    /// Only the backfill case: `quakes-bench run --backfill-only`, for work on the FDSN client.
    mutating func runBackfill() throws {
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try backfill()
    }

    // MARK: - Helpers

    /// The feed of `size` features, written once and then reused; with `generated`, the same features
    /// in a feed of that time.
    func generate(_ size: Int, generated: Int64? = nil) throws -> String {
        let name = generated.map { "feed-\(size)-\($0).geojson" } ?? "feed-\(size).geojson"
        let path = work.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: path) { return path }
        var generator = try FeedGenerator(fixtures: fixtures, seed: 2021)
        try generator.write(count: size, generated: generated ?? 1_700_000_000_000, to: path + ".partial")
        try FileManager.default.moveItem(atPath: path + ".partial", toPath: path)
        return path
    }

    func database(_ size: Int) -> String {
        work.appendingPathComponent("quakes-\(size).sqlite").path
    }

    func log(_ name: String) -> String {
        work.appendingPathComponent("\(name).log").path
    }

    func remove(_ database: String) {
        for suffix in ["", "-wal", "-shm", ".lock", ".tmp"] {
            try? FileManager.default.removeItem(atPath: database + suffix)
        }
    }

    func rowCount(_ database: String) throws -> Int {
        let connection = try Connection(path: database, mode: .readOnly)
        let statement = try connection.prepare("SELECT count(*) FROM quake")
        _ = try statement.step()
        return statement.int(at: 0) ?? 0
    }

    func newestTime(_ database: String) throws -> Int64 {
        let connection = try Connection(path: database, mode: .readOnly)
        let statement = try connection.prepare("SELECT max(time) FROM quake")
        _ = try statement.step()
        return statement.int64(at: 0) ?? 0
    }
}
