import Foundation
import PostgreSQL

extension BenchmarkSuite {
    /// `count --last 5h` on PostgreSQL, holding the same events as the largest SQLite database,
    /// beside `psql -c` running the same query.
    mutating func postgresQueries(feed: String, size: Int) throws {
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
    mutating func postgresWatch() throws {
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
    func newPostgresDatabase() throws -> String {
        guard let postgres else { throw BenchmarkError("no PostgreSQL server (--postgres URI)") }
        let admin = try PostgresConnection(uri: postgres)
        try admin.execute("DROP DATABASE IF EXISTS quakes_bench WITH (FORCE)")
        try admin.execute("CREATE DATABASE quakes_bench")
        return PostgresConnection.uri(postgres, database: "quakes_bench")
    }
}
