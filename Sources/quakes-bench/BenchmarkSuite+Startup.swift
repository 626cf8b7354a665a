extension BenchmarkSuite {
    /// Start-up: `quakes --version` by wall time; and by CPU time beside `sqlite3 -version`, the two
    /// run in turn so that both meet the same machine, a millisecond of wall time on a shared machine
    /// being mostly the scheduler's.
    mutating func startup() throws {
        let runs = try (0..<(quick ? 3 : 20)).map { _ in try Runner.measure([quakes, "--version"]) }
        results.append(Result(name: "quakes --version (start-up)", summary: Summary(runs: runs)))
        guard let sqlite3 else { return }
        var ours: [Measurement] = []
        var theirs: [Measurement] = []
        for _ in 0..<(quick ? 3 : 200) {
            ours.append(try Runner.measure([quakes, "--version"]))
            theirs.append(try Runner.measure([sqlite3, "-version"]))
        }
        func byCPU(_ runs: [Measurement]) -> Summary {
            Summary(
                runs: runs.map { run in
                    Measurement(
                        seconds: run.cpuSeconds, peakKilobytes: run.peakKilobytes, status: run.status,
                        cpuSeconds: run.cpuSeconds)
                })
        }
        results.append(
            Result(
                name: "quakes --version, CPU time", summary: byCPU(ours), baseline: "sqlite3 -version, CPU time"))
        results.append(Result(name: "sqlite3 -version, CPU time", summary: byCPU(theirs)))
    }
}
