import Foundation
import LocalHTTPServer
import SQLite
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// The built binary under signals, `kill -9` and a second writer, as cron would run it. Each test
/// waits for what it needs to have happened (the writer lock taken, the write transaction open,
/// the first answer printed), never for a fixed time, so a busy machine cannot fail it.
@Suite(.serialized) struct ProcessTests {
    private func start(_ arguments: [String]) throws -> ChildProcess {
        try ChildProcess(BinaryTests.executable, arguments, captureOutput: false)
    }

    /// A database of `engine` holding one small feed, and its content.
    private func seeded(_ engine: TestEngine) async throws -> (TestStore, DatabaseContent) {
        let store = try engine.newDatabase()
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: store.location)
        return (store, try DatabaseContent(path: store.location))
    }

    /// The file of an SQLite database is sound (`PRAGMA integrity_check`); a server keeps its own.
    private func expectSound(_ store: TestStore, _ comment: Comment? = nil) throws {
        guard !store.location.hasPrefix("postgresql://") else { return }
        #expect(try DatabaseContent.integrity(of: store.location) == "ok", comment)
    }

    @Test(
        arguments: TestEngine.allCases,
        [(SIGTERM, Int32(143), "SIGTERM"), (SIGINT, Int32(130), "SIGINT")])
    func aSignalDuringAnIngestRollsBackAndExitsWith128PlusTheSignal(
        engine: TestEngine, signal: (number: Int32, status: Int32, name: String)
    ) async throws {
        let (store, before) = try await seeded(engine)
        let (database, status, name) = (store.location, signal.status, signal.name)
        let server = try await StalledFetch.server()
        defer { server.stop() }
        let child = try start(["fetch", "--db", database, server.url(StalledFetch.path)])
        // In the middle of its writes: the transaction is open, and the stalled body keeps it open.
        try await store.waitUntilWriting()
        #expect(child.process.isRunning, "the ingest ended before the signal")
        kill(child.identifier, signal.number)
        let outcome = await child.finish()
        #expect(outcome.reason == .exit)
        #expect(outcome.status == status)
        #expect(outcome.errors == "Error: interrupted by \(name); nothing unfinished was stored\n")
        try expectSound(store)
        #expect(try DatabaseContent(path: database) == before)
        let next = await QuakesRun.fetch([Fixtures.path(Fixtures.nullMagnitude)], database: database)
        #expect(next.status == .success)
    }

    @Test(arguments: TestEngine.allCases) func killNineLeavesOnlyTheFetchesThatCompleted(engine: TestEngine)
        async throws
    {
        let (store, before) = try await seeded(engine)
        let database = store.location
        let server = try await StalledFetch.server()
        defer { server.stop() }
        // Killed with the lock taken and nothing written yet, then in the middle of its writes.
        for moment in ["locked", "writing"] {
            let child = try start(["fetch", "--db", database, server.url(StalledFetch.path)])
            switch moment {
            case "locked": try await store.waitUntilLocked()
            default: try await store.waitUntilWriting()
            }
            #expect(child.process.isRunning, "\(moment)")
            kill(child.identifier, SIGKILL)
            let outcome = await child.finish()
            #expect(outcome.reason == .uncaughtSignal, "\(moment)")
            try expectSound(store, "\(moment)")
            #expect(try DatabaseContent(path: database) == before, "\(moment)")
        }
        // The lock died with the process: the next fetch goes ahead at once.
        let next = await QuakesRun.fetch([Fixtures.path(Fixtures.nullMagnitude)], database: database)
        #expect(next.status == .success)
        #expect(try store.reader().count() == 18 + 328)
    }

    /// How many descriptors of this process are open on `path`.
    private func descriptors(on path: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == path
        }
        .count
    }

    @Test func aSecondWriterWaitsOrExits75() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let lockFile = database + ".lock"
        // Hold the lock from here, as another quakes process would.
        let descriptor = open(lockFile, O_RDWR | O_CREAT, 0o644)
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let busy = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        #expect(busy.status == .temporaryFailure)
        #expect(busy.status.code == 75)
        #expect(busy.standardError == "Error: another quakes process is writing to \(database) (see --wait)\n")
        let prune = await QuakesRun.run(["prune", "--db", database, "--older-than", "1d"])
        #expect(prune.status.code == 75)

        // A patient fetch opens the lock file and waits; once it has, the lock is let go.
        let patient = Task {
            await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database, ["--wait", "120"])
        }
        try await StalledFetch.waitUntil("the patient fetch tries the lock") { descriptors(on: lockFile) >= 2 }
        #expect(!FileManager.default.fileExists(atPath: database), "it created the database before it had the lock")
        close(descriptor)
        #expect(await patient.value.status == .success)
        #expect(try SQLiteReader(path: database).count() == 18)
    }

    /// A writer that leaves no database removes its lock file before it lets go: a fetch that was
    /// waiting on that file then locks the one at the path, never the removed one beside another
    /// writer's.
    @Test func aWriterWaitingOnARemovedLockFileLocksTheNewOne() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let lockFile = database + ".lock"
        let descriptor = open(lockFile, O_RDWR | O_CREAT, 0o644)
        #expect(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        let patient = Task {
            await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database, ["--wait", "120"])
        }
        try await StalledFetch.waitUntil("the patient fetch tries the lock") { descriptors(on: lockFile) >= 2 }
        // As a writer that stored nothing lets go: the file removed while still locked.
        unlink(lockFile)
        // Another writer makes and holds the lock file at the path meanwhile.
        let other = open(lockFile, O_RDWR | O_CREAT, 0o644)
        #expect(flock(other, LOCK_EX | LOCK_NB) == 0)
        close(descriptor)
        try await StalledFetch.waitUntil("the patient fetch tries the new lock file") {
            descriptors(on: lockFile) >= 2
        }
        #expect(!FileManager.default.fileExists(atPath: database), "it wrote while another writer held the lock")
        close(other)
        #expect(await patient.value.status == .success)
        #expect(try SQLiteReader(path: database).count() == 18)
        #expect(FileManager.default.fileExists(atPath: lockFile))
    }

    @Test func twoFetchProcessesAtOnceLeaveAConsistentDatabase() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let server = try await StalledFetch.server()
        defer { server.stop() }
        let first = try start(["fetch", "--db", database, server.url(StalledFetch.path)])
        try await StalledFetch.waitUntilLocked(database + ".lock")
        let refused = try await ChildProcess.run(
            BinaryTests.executable, ["fetch", "--db", database, Fixtures.path(Fixtures.alerts)])
        #expect(refused.status == 75)
        #expect(refused.errors.hasPrefix("Error: another quakes process is writing to"))
        let third = try start(["fetch", "--db", database, "--wait", "300", Fixtures.path(Fixtures.nullPlaces)])
        server.release(StalledFetch.path)
        let firstOutcome = await first.finish()
        let thirdOutcome = await third.finish()
        #expect(firstOutcome.status == 0, "\(firstOutcome.errors)")
        #expect(thirdOutcome.status == 0, "\(thirdOutcome.errors)")
        #expect(try DatabaseContent.integrity(of: database) == "ok")
        #expect(try SQLiteReader(path: database).count() == StalledFetch.featureCount + 667)
        let history = await QuakesRun.run(["history", "--db", database, "--format", "ndjson"])
        #expect(history.standardOutput.split(separator: "\n").count == 2)
    }

    @Test(arguments: TestEngine.allCases) func sigintEndsAWatchCleanly(engine: TestEngine) async throws {
        let (store, _) = try await seeded(engine)
        let database = store.location
        let child = try ChildProcess(
            BinaryTests.executable,
            ["watch", "--no-fetch", "--db", database, "--interval", "0.2s", "--format", "ndjson"],
            captureErrors: false)
        let output = try #require(child.outputHandle)
        // The first answer, then the signal.
        let first = try await Blocking.run {
            var received = Data()
            while received.count(where: { $0 == UInt8(ascii: "\n") }) < 18 {
                let piece = output.availableData
                if piece.isEmpty { break }
                received += piece
            }
            return received
        }
        kill(child.identifier, SIGINT)
        let outcome = await child.finish()
        let text = String(decoding: first + outcome.outputData, as: UTF8.self)
        #expect(outcome.reason == .exit)
        #expect(outcome.status == 0)
        #expect(text.split(separator: "\n").count == 18)
    }
}
