import Foundation
import LocalHTTPServer
import SQLite
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// The first fetch into a new database file is loaded beside it and replaces it whole
/// (`FirstLoad`): readers see the empty database until then, a writer killed meanwhile leaves it as
/// it was, a writer that had the empty file open writes the file that replaced it, and an empty
/// database that may hold another's log is written in place.
@Suite struct FirstLoadTests {
    private static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    private static func journalMode(_ database: String) throws -> String? {
        try Connection(path: database, mode: .readOnly).pragma("journal_mode")
    }

    private static func count(_ database: String) async throws -> ChildProcess.Outcome {
        await (try ChildProcess(BinaryTests.executable, ["count", "--db", database])).finish()
    }

    private static func ids(_ database: String) throws -> Set<String> {
        Set(try SQLiteReader.reading(database) { try $0.allQuakes() }.map(\.id))
    }

    /// A fetch of the big feed into the new database `database`, held by the server before its
    /// last kilobyte, once its first load has begun (its file is there).
    private static func firstLoad(into database: String) async throws -> (LocalHTTPServer, ChildProcess) {
        let server = try await StalledFetch.server()
        let fetch = try ChildProcess(
            BinaryTests.executable, ["fetch", "--db", database, server.url(StalledFetch.path)], captureOutput: false)
        let loading = database + "-new"
        try await StalledFetch.waitUntil("the first load began (\(loading) is there)") { exists(loading) }
        return (server, fetch)
    }

    @Test func readersSeeTheEmptyDatabaseUntilTheFirstLoadReplacesItWhole() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let (server, fetch) = try await Self.firstLoad(into: database)
        defer { server.stop() }
        let during = try await Self.count(database)
        #expect(during.status == 0, "\(during.errors)")
        #expect(during.output == "0\n")
        #expect(try Self.journalMode(database) == "delete")
        #expect(!Self.exists(database + "-wal") && !Self.exists(database + "-shm"))

        server.release(StalledFetch.path)
        let finished = await fetch.finish()
        #expect(finished.status == 0, "\(finished.errors)")
        let after = try await Self.count(database)
        #expect(after.output == "\(StalledFetch.featureCount)\n", "\(after.errors)")
        #expect(!Self.exists(database + "-new"))
        #expect(try Self.journalMode(database) == "wal")
        #expect(Self.exists(database + "-wal") && Self.exists(database + "-shm"))
        #expect(try DatabaseContent.integrity(of: database) == "ok")
    }

    @Test func aFirstLoadKilledLeavesTheEmptyDatabaseAndTheNextWriterLoadsInItsPlace() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let loading = database + "-new"
        let (server, fetch) = try await Self.firstLoad(into: database)
        defer { server.stop() }
        kill(fetch.identifier, SIGKILL)
        #expect(await fetch.finish().status == SIGKILL)
        #expect(Self.exists(loading))
        #expect(try DatabaseContent.integrity(of: database) == "ok")
        let left = try await Self.count(database)
        #expect(left.status == 0, "\(left.errors)")
        #expect(left.output == "0\n")

        let next = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: database)
        #expect(next.status == .success, "\(next.standardError)")
        #expect(!Self.exists(loading))
        #expect(try Self.journalMode(database) == "wal")
        let reference = folder.file("reference.sqlite")
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: reference)
        #expect(try DatabaseContent(path: database).tables["quake"] == DatabaseContent(path: reference).tables["quake"])
    }

    @Test func aFirstLoadRolledBackLeavesTheEmptyDatabaseAsItWas() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let quakes = try ReferenceDecoder.decode(try Fixtures.data(Fixtures.alerts)).quakes
        let store = SQLiteStore(path: database)
        try await store.open()
        let empty = try #require(FileIdentity(database))
        let abandoned = try await store.beginIngest(author: "test", source: nil)
        #expect(Self.exists(database + "-new"))
        _ = try await store.ingest(quakes, for: abandoned)
        await store.rollback(abandoned)
        #expect(!Self.exists(database + "-new"))
        #expect(FileIdentity(database) == empty)
        #expect(try Self.ids(database).isEmpty)

        let kept = try await store.beginIngest(author: "test", source: nil)
        _ = try await store.ingest(Array(quakes.prefix(4)), for: kept)
        #expect(try await store.commit(kept, timestamp: 1, feedState: nil).inserted == 4)
        #expect(FileIdentity(database) != empty, "the ingest was not loaded beside the empty database")
        #expect(try Self.ids(database) == Set(quakes.prefix(4).map(\.id)))
        #expect(try Self.journalMode(database) == "wal")
    }

    @Test func aWriterThatHadTheEmptyDatabaseOpenWritesTheFileThatReplacedIt() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let quakes = try ReferenceDecoder.decode(try Fixtures.data(Fixtures.alerts)).quakes
        // A watch opens its database before it takes the writer lock, so it may hold the empty
        // file while a fetch's first load replaces it.
        let watch = SQLiteStore(path: database)
        let fetch = SQLiteStore(path: database)
        try await watch.open()
        try await fetch.open()
        let empty = try #require(FileIdentity(database))
        let load = try await fetch.beginIngest(author: "fetch", source: nil)
        _ = try await fetch.ingest(Array(quakes.prefix(4)), for: load)
        _ = try await fetch.commit(load, timestamp: 1, feedState: nil)
        #expect(FileIdentity(database) != empty, "the first ingest was not loaded beside the empty database")

        let pass = try await watch.beginIngest(author: "watch", source: nil)
        _ = try await watch.ingest(Array(quakes.suffix(3)), for: pass)
        #expect(try await watch.commit(pass, timestamp: 2, feedState: nil).inserted == 3)
        #expect(try Self.ids(database) == Set((quakes.prefix(4) + quakes.suffix(3)).map(\.id)))
        #expect(try DatabaseContent.integrity(of: database) == "ok")
    }

    @Test func anEmptyDatabaseInWALModeIsWrittenInPlace() async throws {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let quakes = try ReferenceDecoder.decode(try Fixtures.data(Fixtures.alerts)).quakes
        let store = SQLiteStore(path: database)
        try await store.open()
        // Put in WAL mode by another program: a log beside it may be another file's, never the new one's.
        _ = try Connection(path: database).pragma("journal_mode = WAL")
        let empty = try #require(FileIdentity(database))
        let ticket = try await store.beginIngest(author: "test", source: nil)
        #expect(!Self.exists(database + "-new"))
        _ = try await store.ingest(Array(quakes.prefix(4)), for: ticket)
        #expect(try await store.commit(ticket, timestamp: 1, feedState: nil).inserted == 4)
        #expect(FileIdentity(database) == empty)
        #expect(try Self.ids(database) == Set(quakes.prefix(4).map(\.id)))
    }
}
