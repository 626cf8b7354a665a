import Foundation
import LocalHTTPServer
import Testing

@testable import QuakesCore

/// A fetch that is certain to be running until the test lets it end: a big feed served all but
/// its last kilobyte, then held until `release`. And the events a test waits for instead of
/// sleeping: the writer lock taken, the write transaction open.
enum StalledFetch {
    /// How many features the big feed has: far more than one 256 KB chunk, so that the fetch has
    /// written before the server holds back the last kilobyte, which keeps it running however
    /// big the feed is; the long mode ingests a big one for real.
    static let featureCount = SuiteMode.rounds(3_000, long: 60_000, sanitized: 3_000)

    /// The big feed's bytes, written once per test process, on a thread of its own: a lazy `static
    /// let` would hold every test that reaches it on its once-lock, cooperative threads among them,
    /// and with two of those the whole process would wait (minutes, under ThreadSanitizer).
    private actor Feed {
        static let shared = Feed()
        private var writing: Task<[UInt8], any Error>?

        func bytes() async throws -> [UInt8] {
            if writing == nil {
                writing = Task {
                    try await Blocking.run {
                        let path =
                            NSTemporaryDirectory() + "quakes-big-\(ProcessInfo.processInfo.processIdentifier).geojson"
                        try LargeFeed.write(count: StalledFetch.featureCount, to: path)
                        defer { try? FileManager.default.removeItem(atPath: path) }
                        return try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                    }
                }
            }
            return try await writing!.value
        }
    }

    static let path = "/big.geojson"

    /// A server that sends all of the big feed but its last kilobyte and then waits for
    /// `release(StalledFetch.path)`.
    static func server() async throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        let body = try await Feed.shared.bytes()
        server.route(path, .stalled(body: body, sent: body.count - 1024))
        return server
    }

    /// Waits until `condition` holds, looking every 20 ms, for up to `seconds`; a condition that
    /// never comes is a failure of the test, recorded with `what`, and thrown.
    static func waitUntil(_ what: @autoclosure () -> String, seconds: Int = 300, _ condition: () throws -> Bool)
        async throws
    {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !(try condition()) {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out after \(seconds) s waiting until \(what())")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The lines of `/proc/locks` about the file at `path`.
    private static func locks(on path: String) -> [[Substring]] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [] }
        let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
        return locks.split(separator: "\n").map { $0.split(separator: " ") }.filter { fields in
            fields.contains { $0.hasSuffix(":\(status.st_ino)") }
        }
    }

    /// Waits until some process holds the `flock` on `path` (a writer lock), as `/proc/locks`
    /// shows, without touching the lock itself.
    static func waitUntilLocked(_ path: String) async throws {
        try await waitUntil("\(path) is locked") {
            locks(on: path).contains { $0.contains("FLOCK") }
        }
    }

    /// Waits until a process has a write transaction open on the draft of the missing `database`
    /// (`DatabaseDraft`, in rollback mode): a write lock over SQLite's `RESERVED_BYTE`, 0x40000001,
    /// alone or, once the transaction has spilled pages to the file, within its exclusive lock.
    static func waitUntilWritingDraft(of database: String) async throws {
        let folder = (database as NSString).deletingLastPathComponent
        let prefix = (database as NSString).lastPathComponent + ".tmp."
        let reserved = 0x4000_0001
        try await waitUntil("a transaction writes a draft of \(database)") {
            let drafts = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(prefix) }
            return drafts.contains { draft in
                locks(on: folder + "/" + draft).contains { fields in
                    guard fields.contains("POSIX"), fields.contains("WRITE"), fields.count >= 2,
                        let start = Int(fields[fields.count - 2])
                    else { return false }
                    let end = fields.last == "EOF" ? Int.max : Int(fields[fields.count - 1]) ?? -1
                    return start <= reserved && reserved <= end
                }
            }
        }
    }

    /// Waits until a process holds SQLite's WAL write lock on `database`: a write transaction is
    /// open (byte 120 of the `-shm` file, `WALINDEX_LOCK_OFFSET`, is SQLite's `WAL_WRITE_LOCK`).
    static func waitUntilWriting(_ database: String) async throws {
        try await waitUntil("a transaction writes \(database)") {
            locks(on: database + "-shm").contains { fields in
                fields.contains("POSIX") && fields.contains("WRITE") && fields.suffix(2) == ["120", "120"]
            }
        }
    }
}
