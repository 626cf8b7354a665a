import Foundation
import LocalHTTPServer
import SQLite
import Testing

@testable import QuakesCore

/// The built binary under signals, `kill -9` and a second writer, as cron would run it.
@Suite(.serialized) struct ProcessTests {
    /// How many features `bigFeed` has: enough for the debug binary to spend a few seconds storing
    /// them, so that signals land in the middle of writes; a sanitized binary, several times slower,
    /// takes about as long with fewer.
    private static let bigFeedCount =
        switch SuiteMode.sanitizer {
        case "thread": 10_000
        case "address": 30_000
        default: 60_000
        }

    /// The big feed, written once.
    private static let bigFeed: String = {
        let path = NSTemporaryDirectory() + "quakes-big-\(ProcessInfo.processInfo.processIdentifier).geojson"
        try? LargeFeed.write(count: bigFeedCount, to: path)
        return path
    }()

    /// A server that sends all of `bigFeed` but its last kilobyte and then waits for
    /// `release("/big.geojson")`: a fetch of it is certain to be running, however slowly the
    /// test itself is scheduled, until the test lets it finish or kills it.
    private func stalledServer() throws -> LocalHTTPServer {
        let server = try LocalHTTPServer()
        let body = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.bigFeed)))
        server.route("/big.geojson", .stalled(body: body, sent: body.count - 1024))
        return server
    }

    private func start(_ arguments: [String]) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = BinaryTests.executable
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, errors)
    }

    private func finish(_ process: Process, _ errors: Pipe) -> String {
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// Waits until some process holds the `flock` on `path`, as `/proc/locks` shows, without
    /// touching the lock itself.
    private func waitUntilLocked(_ path: String) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            var status = stat()
            if stat(path, &status) == 0 {
                let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
                let held = locks.split(separator: "\n").contains { line in
                    line.contains("FLOCK") && line.split(separator: " ").contains { $0.hasSuffix(":\(status.st_ino)") }
                }
                if held { return }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("\(path) was never locked")
    }

    /// A database holding one small feed, and its content.
    private func seeded(_ folder: TemporaryDirectory) async throws -> (String, DatabaseContent) {
        let database = folder.file("q.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        return (database, try DatabaseContent(path: database))
    }

    @Test(arguments: [(SIGTERM, Int32(143), "SIGTERM"), (SIGINT, Int32(130), "SIGINT")])
    func aSignalDuringAnIngestRollsBackAndExitsWith128PlusTheSignal(signal: Int32, status: Int32, name: String)
        async throws
    {
        let folder = try TemporaryDirectory()
        let (database, before) = try await seeded(folder)
        let server = try stalledServer()
        defer { server.stop() }
        let (process, errors) = try start(["fetch", "--db", database, server.url("/big.geojson")])
        try await waitUntilLocked(database + ".lock")
        try await Task.sleep(for: .milliseconds(1200))
        #expect(process.isRunning, "the ingest ended before the signal")
        kill(process.processIdentifier, signal)
        let message = finish(process, errors)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status)
        #expect(message == "Error: interrupted by \(name); nothing unfinished was stored\n")
        #expect(try DatabaseContent.integrity(of: database) == "ok")
        #expect(try DatabaseContent(path: database) == before)
        let next = await QuakesRun.fetch([Fixtures.path(Fixtures.nullMagnitude)], database: database)
        #expect(next.status == .success)
    }

    @Test func killNineLeavesOnlyTheFetchesThatCompleted() async throws {
        let folder = try TemporaryDirectory()
        let (database, before) = try await seeded(folder)
        let server = try stalledServer()
        defer { server.stop() }
        for delay in [300, 900, 1500] {
            let (process, errors) = try start(["fetch", "--db", database, server.url("/big.geojson")])
            try await Task.sleep(for: .milliseconds(delay))
            #expect(process.isRunning)
            kill(process.processIdentifier, SIGKILL)
            _ = finish(process, errors)
            #expect(process.terminationReason == .uncaughtSignal)
            #expect(try DatabaseContent.integrity(of: database) == "ok")
            #expect(try DatabaseContent(path: database) == before)
        }
        // The lock died with the process: the next fetch goes ahead at once.
        let next = await QuakesRun.fetch([Fixtures.path(Fixtures.nullMagnitude)], database: database)
        #expect(next.status == .success)
        #expect(try QuakeReader(path: database).count() == 18 + 328)
    }

    @Test func aSecondWriterWaitsOrExits75() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        // Hold the lock from here, as another quakes process would.
        let descriptor = open(database + ".lock", O_RDWR | O_CREAT, 0o644)
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let busy = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        #expect(busy.status == .temporaryFailure)
        #expect(busy.status.code == 75)
        #expect(busy.standardError == "Error: another quakes process is writing to \(database) (see --wait)\n")
        let prune = await QuakesRun.run(["prune", "--db", database, "--older-than", "1d"])
        #expect(prune.status.code == 75)

        Task {
            try await Task.sleep(for: .milliseconds(500))
            close(descriptor)
        }
        let patient = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database, ["--wait", "10"])
        #expect(patient.status == .success)
        #expect(try QuakeReader(path: database).count() == 18)
    }

    @Test func twoFetchProcessesAtOnceLeaveAConsistentDatabase() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let server = try stalledServer()
        defer { server.stop() }
        let (first, firstErrors) = try start(["fetch", "--db", database, server.url("/big.geojson")])
        try await waitUntilLocked(database + ".lock")
        let (second, secondErrors) = try start(["fetch", "--db", database, Fixtures.path(Fixtures.alerts)])
        let refused = finish(second, secondErrors)
        #expect(second.terminationStatus == 75)
        #expect(refused.hasPrefix("Error: another quakes process is writing to"))
        let (third, thirdErrors) = try start([
            "fetch", "--db", database, "--wait", "120", Fixtures.path(Fixtures.nullPlaces),
        ])
        server.release("/big.geojson")
        _ = finish(first, firstErrors)
        _ = finish(third, thirdErrors)
        #expect(first.terminationStatus == 0)
        #expect(third.terminationStatus == 0)
        #expect(try DatabaseContent.integrity(of: database) == "ok")
        #expect(try QuakeReader(path: database).count() == Self.bigFeedCount + 667)
        let history = await QuakesRun.run(["history", "--db", database, "--format", "ndjson"])
        #expect(history.standardOutput.split(separator: "\n").count == 2)
    }

    @Test func sigintEndsAWatchCleanly() async throws {
        let folder = try TemporaryDirectory()
        let (database, _) = try await seeded(folder)
        let process = Process()
        process.executableURL = BinaryTests.executable
        process.arguments = ["watch", "--no-fetch", "--db", database, "--interval", "0.2s", "--format", "ndjson"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first answer, then a few idle polls, then the signal.
        var received = Data()
        while received.count(where: { $0 == UInt8(ascii: "\n") }) < 18 {
            let piece = output.fileHandleForReading.availableData
            if piece.isEmpty { break }
            received += piece
        }
        try await Task.sleep(for: .milliseconds(600))
        kill(process.processIdentifier, SIGINT)
        received += output.fileHandleForReading.readDataToEndOfFile()
        let text = String(decoding: received, as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        #expect(text.split(separator: "\n").count == 18)
    }
}
