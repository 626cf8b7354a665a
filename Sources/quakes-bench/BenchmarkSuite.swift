import Foundation
import LocalHTTPServer
import Locking
import PostgreSQL
import QuakesCore
import SQLite
import SQLiteEngine

/// The benchmark cases of `make bench`, each run several times beside its baseline: the Python
/// script of `Benchmarks/baseline.py`, the `sqlite3` tool on the same SQL, or the store code alone;
/// and, beside the fresh ingests and the full export, their floors: SQLite alone (`quakes-floor`).
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

    private(set) var results: [Result] = []

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

    private func runs(_ size: Int) -> Int {
        quick ? 1 : (size >= 1_000_000 ? 3 : 5)
    }

    private var fixtures: URL { root.appendingPathComponent("Fixtures") }

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

    // MARK: - Cases

    /// Fresh ingests, into SQLite and PostgreSQL, the Python baseline, re-ingests and the store alone.
    private mutating func ingest(_ feed: String, size: Int) throws {
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
    private func floorRun(_ arguments: [String], log name: String) throws -> Measurement {
        let timing = work.appendingPathComponent("floor.out").path
        var run = try Runner.measure([Runner.floor] + arguments, output: timing, errors: log(name))
        let reported = try String(contentsOfFile: timing, encoding: .utf8)
        guard let seconds = reported.split(separator: " ").first.flatMap({ Double($0) }) else {
            throw BenchmarkError("quakes-floor reported \(reported)")
        }
        run.seconds = seconds
        return run
    }

    /// Queries on the largest database, each beside the `sqlite3` tool running the same SQL.
    private mutating func queries(database: String) throws {
        let newest = try newestTime(database)
        let now = Date(timeIntervalSince1970: Double(newest) / 1000).ISO8601Format()
        let day: Int64 = 86_400_000
        let cases: [(String, [String], String)] = [
            (
                "count --last 5h", ["count", "--last", "5h"],
                "SELECT count(*) FROM quake WHERE time >= \(newest - 5 * 3_600_000) AND time <= \(newest);"
            ),
            (
                "count --section day", ["count", "--section", "day", "--utc"],
                "SELECT time / \(day) AS d, count(*) FROM quake GROUP BY d ORDER BY d DESC;"
            ),
            (
                "list --sort magnitude --section day --limit 100",
                [
                    "list", "--sort", "magnitude", "--section", "day",
                    "--limit", "100", "--utc", "--format", "ndjson",
                ],
                "SELECT * FROM quake ORDER BY time / \(day) DESC, mag DESC, time DESC, id LIMIT 100;"
            ),
            (
                "list --place alaska --limit 50", ["list", "--place", "alaska", "--limit", "50", "--format", "ndjson"],
                "SELECT * FROM quake WHERE place LIKE '%alaska%' ORDER BY time DESC, id LIMIT 50;"
            ),
            (
                "list --format ndjson (everything)", ["list", "--format", "ndjson"],
                "SELECT * FROM quake ORDER BY time DESC;"
            ),
        ]
        // The export's floor: the reader's own statement for `list` of everything, run by SQLite alone.
        let listing = SQLiteDatabase.listingSQL(QuakeQuery())
        let parameters = listing.values.map { value in
            switch value {
            case .null: "null"
            case let .integer(integer): "int:\(integer)"
            case let .real(real): "real:\(real)"
            case let .text(text): "text:" + text
            }
        }
        var readFloor: [Measurement] = []
        let rows = try rowCount(database)
        for (name, arguments, sql) in cases {
            let everything = name.hasPrefix("list --format ndjson")
            // Each run of ours beside one of sqlite3's, taking turns, so that a change in the
            // machine's speed meanwhile moves both; the short queries run more often.
            var ours: [Measurement] = []
            var theirs: [Measurement] = []
            for _ in 0..<(quick ? 1 : everything ? 5 : 21) {
                ours.append(
                    try Runner.measure([quakes] + arguments + ["--db", database, "--now", now], errors: log("query")))
                if let sqlite3 {
                    theirs.append(
                        try Runner.measure(
                            [sqlite3] + (everything ? ["-json"] : []) + [database, sql], errors: log("sqlite3")))
                }
                if everything {
                    readFloor.append(try floorRun(["read", database, listing.sql] + parameters, log: "floor-read"))
                }
            }
            results.append(
                Result(
                    name: name, summary: Summary(runs: ours), items: everything ? rows : nil,
                    baseline: sqlite3 == nil ? nil : "sqlite3: " + name))
            if sqlite3 != nil {
                results.append(
                    Result(name: "sqlite3: " + name, summary: Summary(runs: theirs), items: everything ? rows : nil))
            }
        }
        results.append(Result(name: Self.readFloor, summary: Summary(runs: readFloor), items: rows))
    }

    /// `count --last 5h` on PostgreSQL, holding the same events as the largest SQLite database,
    /// beside `psql -c` running the same query.
    private mutating func postgresQueries(feed: String, size: Int) throws {
        let database = try newPostgresDatabase()
        _ = try Runner.measure(
            [quakes, "fetch", "-q", "--db", database, "file://" + feed], errors: log("postgres-fill"))
        let newest = try newestTime(self.database(size))
        let now = Date(timeIntervalSince1970: Double(newest) / 1000).ISO8601Format()
        let name = "count --last 5h"
        let sql = "SELECT count(*) FROM quake WHERE time >= \(newest - 5 * 3_600_000) AND time <= \(newest)"
        let ours = try (0..<(quick ? 1 : 5)).map { _ in
            try Runner.measure(
                [quakes, "count", "--last", "5h", "--db", database, "--now", now], errors: log("postgres-query"))
        }
        results.append(
            Result(
                name: "PostgreSQL: " + name, summary: Summary(runs: ours),
                baseline: psql == nil ? nil : "psql: " + name))
        if let psql {
            let theirs = try (0..<(quick ? 1 : 5)).map { _ in
                try Runner.measure([psql, "-X", "-At", "-c", sql, database], errors: log("psql"))
            }
            results.append(Result(name: "psql: " + name, summary: Summary(runs: theirs)))
        }
    }

    /// How soon `watch --no-fetch` on PostgreSQL reports what another process's fetch committed:
    /// the time from the fetch's exit (its commit is just before) to the watch's line, taken as the
    /// line arrives. The watch's `--interval` is an hour, so only the commit's `NOTIFY` wakes it.
    private mutating func postgresWatch() throws {
        let database = try newPostgresDatabase()
        let seed = fixtures.appendingPathComponent("significant_month-2023-10-11T2016Z.geojson").path
        _ = try Runner.measure([quakes, "fetch", "-q", "--db", database, seed], errors: log("postgres-watch"))
        let watch = Process()
        watch.executableURL = URL(fileURLWithPath: quakes)
        watch.arguments = [
            "watch", "--no-fetch", "--changes-only", "--interval", "1h", "--format", "ndjson", "--db", database,
        ]
        let lines = LineTimes(watch)
        try watch.run()
        defer {
            watch.interrupt()
            watch.waitUntilExit()
        }
        // The first round trip only makes sure the watch is listening.
        let runs = try (0...(quick ? 3 : 20)).map { run in
            let feed = work.appendingPathComponent("watch-\(run).geojson").path
            try Self.oneEvent(id: "bench\(run)", time: 1_700_000_000_000 + Int64(run) * 60_000)
                .write(toFile: feed, atomically: true, encoding: .utf8)
            var fetch = try Runner.measure(
                [quakes, "fetch", "-q", "--db", database, feed], errors: log("postgres-watch"))
            let exited = Date()
            guard let arrived = lines.next(within: 60) else {
                throw BenchmarkError("watch --no-fetch reported nothing within a minute of a commit")
            }
            fetch.seconds = max(0, arrived.timeIntervalSince(exited))
            fetch.peakKilobytes = 0
            return fetch
        }.dropFirst()
        results.append(
            Result(
                name: "PostgreSQL: watch --no-fetch reports another process's commit",
                summary: Summary(runs: Array(runs))))
    }

    /// A feed of one event, new to the database.
    private static func oneEvent(id: String, time: Int64) -> String {
        """
        {"type":"FeatureCollection","metadata":{"generated":\(time)},"features":[{"type":"Feature","properties":\
        {"mag":4.2,"place":"benchmark","time":\(time),"updated":\(time),"status":"reviewed","type":"earthquake"},\
        "geometry":{"type":"Point","coordinates":[10,20,5]},"id":"\(id)"}]}
        """
    }

    /// The URI of a new, empty database on the PostgreSQL server, replacing the one made before.
    private func newPostgresDatabase() throws -> String {
        guard let postgres else { throw BenchmarkError("no PostgreSQL server (--postgres URI)") }
        let admin = try PostgresConnection(uri: postgres)
        try admin.execute("DROP DATABASE IF EXISTS quakes_bench WITH (FORCE)")
        try admin.execute("CREATE DATABASE quakes_bench")
        return PostgresConnection.uri(postgres, database: "quakes_bench")
    }

    /// The GeoJSON-file store, read whole by every command: a fetch into it, and a query that loads
    /// the file and answers (the target: under 100 ms for 10,000 events), at 10,000 events and at
    /// the 100,000 named as its limit.
    private mutating func geoJSONStore() throws {
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

    /// A backfill of 1,000,000 events (50,000 in the quick run) over five years, with an aftershock
    /// burst of 30,000 in twenty minutes, from the FDSN emulator at ComCat's cap; then the same
    /// requests asked of the emulator alone, to say how much of the time is the emulator's.
    private mutating func backfill() throws {
        let size = quick ? 50_000 : 1_000_000
        let label = quick ? "50k" : "1M"
        let start: Int64 = 1_577_836_800_000  // 2020-01-01T00:00:00Z
        let end = start + 5 * 365 * 86_400_000
        let server = try LocalHTTPServer()
        defer { server.stop() }
        let emulator = FDSNEmulator(server: server, now: { end + 86_400_000 })
        let burst = (at: start + 1000 * 86_400_000, events: 30_000, spanMilliseconds: Int64(20 * 60_000))
        emulator.replace(
            FDSNEmulator.catalogue(count: size - burst.events, from: start, to: end, seed: 2026, bursts: [burst]))
        let events = emulator.events.filter { !$0.isDeleted }.count
        let database = work.appendingPathComponent("backfill.sqlite").path
        remove(database)
        let before = emulator.requests.query
        let run = try Runner.measure(
            [
                quakes, "backfill", "-q", "--db", database, "--service", emulator.serviceURL, "--pause", "0",
                "--since", "2020-01-01T00:00:00Z", "--until", "2024-12-30T00:00:00Z", "--utc",
            ], errors: log("backfill"))
        let requests = emulator.requests.query - before
        let minimum = (events + emulator.cap - 1) / emulator.cap
        guard try rowCount(database) == events else {
            throw BenchmarkError("the backfill stored \(try rowCount(database)) events of \(events)")
        }
        results.append(
            Result(
                name:
                    "backfill \(label) events from the FDSN emulator (\(requests) requests, fewest possible \(minimum))",
                summary: Summary(runs: [run]), items: events))
        // The same requests, their answers read and dropped: the emulator's share of the time.
        let urls = server.received.suffix(requests).map { server.url($0.path) }
        let started = ContinuousClock.now
        try Self.readAndDrop(urls)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        results.append(
            Result(
                name: "the emulator alone, answering the backfill's \(requests) requests",
                summary: Summary(runs: [Measurement(seconds: seconds, peakKilobytes: 0, status: 0)]), items: events))
    }

    /// Downloads each URL with the downloader quakes uses, dropping the bytes; refusals (the 400s
    /// that told the backfill to split a window) count as answers.
    private static func readAndDrop(_ urls: [String]) throws {
        final class Discard: ByteSink {
            func receive(_ bytes: UnsafeRawBufferPointer) throws {}
            func finish() throws {}
        }
        let failure = Locked<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            for url in urls {
                do {
                    _ = try await CurlDownloader().download(
                        DownloadRequest(url: url, userAgent: "quakes-bench"), into: Discard())
                } catch DownloadError.httpStatus(_, 400, _, _) {
                    continue
                } catch {
                    failure.withLock { $0 = error }
                    break
                }
            }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// A fetch that the server answers with 304 Not Modified.
    private mutating func notModified() throws {
        let server = try LocalHTTPServer()
        let body = [UInt8](try Data(contentsOf: fixtures.appendingPathComponent("all_day-2020-10-28T2257Z.geojson")))
        server.route("/all_day.geojson", .conditional(body: body, etag: "\"bench\"", lastModified: nil))
        let database = work.appendingPathComponent("conditional.sqlite").path
        remove(database)
        _ = try Runner.measure(
            [quakes, "fetch", "-q", "--db", database, server.url("/all_day.geojson")], errors: log("304"))
        let runs = try (0..<(quick ? 3 : 20)).map { _ in
            try Runner.measure(
                [quakes, "fetch", "-q", "--db", database, server.url("/all_day.geojson")], errors: log("304"))
        }
        results.append(Result(name: "fetch answered 304 Not Modified", summary: Summary(runs: runs)))
    }

    /// Start-up: `quakes --version` by wall time; and by CPU time beside `sqlite3 -version`, the two
    /// run in turn so that both meet the same machine, a millisecond of wall time on a shared machine
    /// being mostly the scheduler's.
    private mutating func startup() throws {
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

    // MARK: - Helpers

    /// The generated feed of `size` features, written once and then reused.
    /// The feed of `size` features, written once; with `generated`, the same features in a feed of
    /// that time.
    private func generate(_ size: Int, generated: Int64? = nil) throws -> String {
        let name = generated.map { "feed-\(size)-\($0).geojson" } ?? "feed-\(size).geojson"
        let path = work.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: path) { return path }
        var generator = try FeedGenerator(fixtures: fixtures, seed: 2021)
        try generator.write(count: size, generated: generated ?? 1_700_000_000_000, to: path + ".partial")
        try FileManager.default.moveItem(atPath: path + ".partial", toPath: path)
        return path
    }

    private func database(_ size: Int) -> String {
        work.appendingPathComponent("quakes-\(size).sqlite").path
    }

    private func log(_ name: String) -> String {
        work.appendingPathComponent("\(name).log").path
    }

    private func remove(_ database: String) {
        for suffix in ["", "-wal", "-shm", ".lock", ".tmp"] {
            try? FileManager.default.removeItem(atPath: database + suffix)
        }
    }

    private func rowCount(_ database: String) throws -> Int {
        let connection = try Connection(path: database, mode: .readOnly)
        let statement = try connection.prepare("SELECT count(*) FROM quake")
        _ = try statement.step()
        return statement.int(at: 0) ?? 0
    }

    private func newestTime(_ database: String) throws -> Int64 {
        let connection = try Connection(path: database, mode: .readOnly)
        let statement = try connection.prepare("SELECT max(time) FROM quake")
        _ = try statement.step()
        return statement.int64(at: 0) ?? 0
    }
}

/// The moments at which a child process's output lines arrive, read on a thread of their own so
/// that each is taken when the line comes, whatever the benchmark is doing.
final class LineTimes: @unchecked Sendable {
    // @unchecked: `arrivals` is touched only under `lock`; `available` only signals.
    private let lock = NSLock()
    private var arrivals: [Date] = []
    private let available = DispatchSemaphore(value: 0)

    /// Captures `process`'s standard output, which must not have started yet.
    init(_ process: Process) {
        let pipe = Pipe()
        process.standardOutput = pipe
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                guard !data.isEmpty else { return }
                let now = Date()
                for byte in data where byte == UInt8(ascii: "\n") {
                    lock.withLock { arrivals.append(now) }
                    available.signal()
                }
            }
        }
    }

    /// When the next line arrived, waiting up to `seconds` for it.
    func next(within seconds: Double) -> Date? {
        guard available.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { arrivals.removeFirst() }
    }
}
