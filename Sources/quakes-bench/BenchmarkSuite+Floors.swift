import Foundation

extension BenchmarkSuite {
    /// An ingest floor that `quakes-floor` runs beside each fresh ingest: its mode, the name of its
    /// case at a size, and how the report's target of a fresh ingest names it.
    struct IngestFloor {
        let kind: String
        let name: String
        let target: String
    }

    /// The ingest floors at a size: one INSERT per table; the bulk load (multi-row INSERTs,
    /// secondary indexes built after the rows, a 32 MB cache), which the target for fresh ingests
    /// is set against; and the bulk load with every table's rows in the order a fetch
    /// writes them, which one that streams its feed under 64 MB cannot change.
    static func ingestFloors(_ label: String) -> [IngestFloor] {
        [
            IngestFloor(
                kind: "ingest",
                name: "ingest floor, \(label) features: C, the rows of that fetch, one INSERT per table",
                target: "the ingest floor (one INSERT per table)"),
            IngestFloor(
                kind: "bulk",
                name: "bulk floor, \(label) features: C, the same rows, multi-row INSERTs, indexes after the load",
                target: "the bulk floor"),
            IngestFloor(
                kind: "streamed",
                name:
                    "streamed floor, \(label) features: the bulk floor with the rows in the order a fetch writes them",
                target: "the streamed floor (the bulk floor in a fetch's order)"),
        ]
    }

    /// The read floor's case, which the report's targets look up.
    static let readFloor = "read floor: C, the export's SQL, every column of every row"

    /// One run of `quakes-floor`, timed by itself: the ingest floor leaves out reading the rows it
    /// holds, and both leave out their start. Its peak memory is measured as any case's.
    func floorRun(_ arguments: [String], log name: String) throws -> Measurement {
        let timing = work.appendingPathComponent("floor.out").path
        var run = try Runner.measure([Runner.floor] + arguments, output: timing, errors: log(name))
        let reported = try String(contentsOfFile: timing, encoding: .utf8)
        guard let seconds = reported.split(separator: " ").first.flatMap({ Double($0) }) else {
            throw BenchmarkError("quakes-floor reported \(reported)")
        }
        run.seconds = seconds
        return run
    }
}
