import Foundation

extension BenchmarkSuite {
    /// The GeoJSON-file store, read whole by every command: a fetch into it, and a query that loads
    /// the file and answers (the target: under 100 ms for 10,000 events), at 10,000 events and at
    /// the 100,000 named as its limit.
    mutating func geoJSONStore() throws {
        for size in quick ? [10_000] : [10_000, 100_000] {
            let label = "\(size / 1000)k"
            let feed = try generate(size)
            let database = work.appendingPathComponent("quakes-\(size).geojson").path
            let fetches = try (0..<(quick ? 1 : 3)).map { _ in
                remove(database)
                return try Runner.measure(
                    [quakes, "fetch", "-q", "--db", database, "file://" + feed], errors: log("geojson-fetch"))
            }
            results.append(
                Result(
                    name: "GeoJSON file: fresh ingest, \(label) features", summary: Summary(runs: fetches), items: size)
            )
            let cases: [(String, [String])] = [
                ("count --min-magnitude 4", ["count", "--min-magnitude", "4"]),
                (
                    "list --sort magnitude --limit 100",
                    ["list", "--sort", "magnitude", "--limit", "100", "--format", "ndjson"]
                ),
            ]
            for (name, arguments) in cases {
                let runs = try (0..<(quick ? 1 : 10)).map { _ in
                    try Runner.measure([quakes] + arguments + ["--db", database], errors: log("geojson-query"))
                }
                results.append(
                    Result(name: "GeoJSON file, \(label) events: load and \(name)", summary: Summary(runs: runs)))
            }
        }
    }
}
