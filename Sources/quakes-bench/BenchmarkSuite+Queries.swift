import Foundation
import QuakesCore
import SQLite
import SQLiteEngine

extension BenchmarkSuite {
    /// Queries on the largest database, each beside the `sqlite3` tool running the same SQL.
    mutating func queries(database: String) throws {
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
}
