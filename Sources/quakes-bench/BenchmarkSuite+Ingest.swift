import Foundation

extension BenchmarkSuite {
    /// Fresh ingests, into SQLite and PostgreSQL, the Python baseline, re-ingests and the store alone.
    mutating func ingest(_ feed: String, size: Int) throws {
        let label = size >= 1_000_000 ? "\(size / 1_000_000)M" : "\(size / 1000)k"
        let database = database(size)
        // Each fetch, then the floors on the rows it stored, then the same fetch into PostgreSQL,
        // taking turns, so that a change in the machine's speed meanwhile moves a case and what its
        // ratios are taken against alike. PostgreSQL's peak memory is quakes' own, not the server's.
        let copy = work.appendingPathComponent("floor.sqlite").path
        let ingestFloors = Self.ingestFloors(label)
        var fresh: [Measurement] = []
        var floors: [String: [Measurement]] = [:]
        var intoPostgres: [Measurement] = []
        for _ in 0..<runs(size) {
            remove(database)
            fresh.append(
                try Runner.measure(
                    [quakes, "fetch", "-q", "--db", database, "file://" + feed], errors: log("fetch-\(label)")))
            for floor in ingestFloors {
                remove(copy)
                floors[floor.kind, default: []].append(
                    try floorRun([floor.kind, database, copy], log: "floor-\(floor.kind)"))
            }
            if postgres != nil {
                let server = try newPostgresDatabase()
                intoPostgres.append(
                    try Runner.measure(
                        [quakes, "fetch", "-q", "--db", server, "file://" + feed],
                        errors: log("postgres-fetch-\(label)")))
            }
        }
        results.append(
            Result(
                name: "fresh ingest, \(label) features", summary: Summary(runs: fresh), items: size,
                baseline: python == nil ? nil : "Python baseline, \(label) features"))
        for floor in ingestFloors {
            results.append(Result(name: floor.name, summary: Summary(runs: floors[floor.kind] ?? []), items: size))
        }
        if !intoPostgres.isEmpty {
            results.append(
                Result(
                    name: "PostgreSQL: fresh ingest, \(label) features", summary: Summary(runs: intoPostgres),
                    items: size, baseline: "fresh ingest, \(label) features"))
        }
        if let python {
            let pythonDatabase = work.appendingPathComponent("python-\(label).sqlite").path
            let baseline = try (0..<(quick ? 1 : 3)).map { _ in
                remove(pythonDatabase)
                return try Runner.measure(
                    [
                        python, root.appendingPathComponent("Benchmarks/baseline.py").path, feed,
                        pythonDatabase,
                    ], errors: log("python-\(label)"))
            }
            results.append(
                Result(name: "Python baseline, \(label) features", summary: Summary(runs: baseline), items: size))
        }
        let again = try (0..<runs(size)).map { _ in
            try Runner.measure(
                [quakes, "fetch", "-q", "--db", database, "file://" + feed], errors: log("refetch-\(label)"))
        }
        results.append(
            Result(name: "re-ingest, \(label) features, all unchanged", summary: Summary(runs: again), items: size))
        // The same events in a later feed: every row takes the newer feed time (the tie rule), from a
        // copy of the database each time.
        let newer = try generate(size, generated: 1_700_000_060_000)
        let tied = work.appendingPathComponent("tied.sqlite").path
        let later = try (0..<runs(size)).map { _ in
            remove(tied)
            try FileManager.default.copyItem(atPath: database, toPath: tied)
            return try Runner.measure(
                [quakes, "fetch", "-q", "--db", tied, "file://" + newer], errors: log("newer-\(label)"))
        }
        remove(tied)
        results.append(
            Result(
                name: "re-ingest, \(label) features, unchanged in a newer feed", summary: Summary(runs: later),
                items: size))
        results.append(
            Result(
                name: "store alone, \(label) features in memory",
                summary: try storeAlone(database), items: size))
        if let index = results.firstIndex(where: { $0.name == "fresh ingest, \(label) features" }), python == nil {
            results[index].baseline = "store alone, \(label) features in memory"
        }
    }

    /// The ceiling: the rows of `database`, already in memory, inserted into a fresh database by the
    /// store code alone. It runs in a child process (`quakes-bench ceiling`), which reports the time
    /// of the inserts alone; its peak memory includes the rows it holds.
    private func storeAlone(_ database: String) throws -> Summary {
        let target = work.appendingPathComponent("ceiling.sqlite").path
        let timing = work.appendingPathComponent("ceiling.out").path
        let runs = try (0..<(quick ? 1 : 3)).map { _ in
            remove(target)
            var run = try Runner.measure(
                [Runner.harness, "ceiling", database, target], output: timing,
                errors: log("ceiling"))
            let reported = try String(contentsOfFile: timing, encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)
            guard let seconds = Double(reported) else { throw BenchmarkError("ceiling reported \(reported)") }
            run.seconds = seconds
            return run
        }
        return Summary(runs: runs)
    }
}
