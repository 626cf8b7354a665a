import Foundation
import SQLite
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// A missing SQLite database is made beside where it goes and put in place by its first write that
/// commits (`DatabaseDraft`): never half of it, never over a file that appeared meanwhile, and
/// with no draft left behind.
@Suite struct DatabaseDraftTests {
    private let quakes: [Quake]

    init() throws {
        quakes = try ReferenceDecoder.decode(try Fixtures.data(Fixtures.alerts)).quakes
    }

    /// The names in `folder` that are not lock files.
    private func files(in folder: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".lock") }.sorted()
    }

    @Test func aFirstWriteIsInvisibleUntilItCommitsAndThenWhole() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("q.sqlite")
        let store = SQLiteStore(path: path)
        try await store.open()
        let ticket = try await store.beginIngest(author: "test", source: nil)
        _ = try await store.ingest(quakes, for: ticket)
        // Only the draft, named after this process, and no database for a reader.
        let drafts = try files(in: folder)
        #expect(drafts.count == 1)
        #expect(drafts.first?.hasPrefix("q.sqlite.tmp.\(getpid()).") == true, "\(drafts)")
        #expect(throws: StoreError.self) { try SQLiteReader(path: path) }
        // A writer's own reads see it as the empty database it is.
        #expect(try SQLiteDatabase(path: path).readAsWriter(zone: .utc) { try $0.count() } == 0)
        let commit = try await store.commit(ticket, timestamp: 1, feedState: nil)
        #expect(commit.inserted == quakes.count)
        #expect(try files(in: folder) == ["q.sqlite", "q.sqlite-shm", "q.sqlite-wal"])
        #expect(try SQLiteReader(path: path).count() == quakes.count)
        let connection = try Connection(path: path, mode: .readOnly)
        #expect(try connection.pragma("journal_mode") == "wal")
        #expect(try connection.pragma("integrity_check") == "ok")
        // The next write goes to the database in place.
        let next = try await store.beginIngest(author: "test", source: nil)
        _ = try await store.ingest([Quake(id: "zz1", time: 1, longitude: 0, latitude: 0)], for: next)
        _ = try await store.commit(next, timestamp: 2, feedState: nil)
        #expect(try SQLiteReader(path: path).count() == quakes.count + 1)
    }

    @Test func aFirstWriteRolledBackLeavesNothing() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("q.sqlite")
        do {
            let store = SQLiteStore(path: path)
            let ticket = try await store.beginIngest(author: "test", source: nil)
            _ = try await store.ingest(quakes, for: ticket)
            await store.rollback(ticket)
            // The draft stays for the store's next write, and goes with the store.
            #expect(try files(in: folder).count == 1)
        }
        #expect(try files(in: folder) == [])
    }

    /// `watch` makes its draft before it takes the writer lock: a database another process made
    /// meanwhile is written to instead, and the draft goes.
    @Test func aDraftOvertakenByAnotherWriterIsGivenUp() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("q.sqlite")
        let late = SQLiteStore(path: path)
        try await late.open()
        let early = SQLiteStore(path: path)
        let first = try await early.beginIngest(author: "early", source: nil)
        _ = try await early.ingest(Array(quakes.prefix(5)), for: first)
        _ = try await early.commit(first, timestamp: 1, feedState: nil)
        let second = try await late.beginIngest(author: "late", source: nil)
        _ = try await late.ingest(Array(quakes.suffix(5)), for: second)
        _ = try await late.commit(second, timestamp: 2, feedState: nil)
        #expect(try SQLiteReader(path: path).count() == 10)
        #expect(try files(in: folder) == ["q.sqlite", "q.sqlite-shm", "q.sqlite-wal"])
    }

    /// Two writers that ignore the writer lock: the second to commit stores nothing, says so, and
    /// replaces nothing.
    @Test func aDraftIsNeverPutOverAFileThatAppearedMeanwhile() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("q.sqlite")
        let slow = SQLiteStore(path: path)
        let ticket = try await slow.beginIngest(author: "slow", source: nil)
        _ = try await slow.ingest(Array(quakes.prefix(5)), for: ticket)
        let fast = SQLiteStore(path: path)
        let other = try await fast.beginIngest(author: "fast", source: nil)
        _ = try await fast.ingest(Array(quakes.suffix(3)), for: other)
        _ = try await fast.commit(other, timestamp: 1, feedState: nil)
        await #expect {
            try await slow.commit(ticket, timestamp: 2, feedState: nil)
        } throws: { error in
            "\(error)".contains("another program created it while this write went on; nothing was stored")
        }
        #expect(try SQLiteReader(path: path).count() == 3)
        #expect(try files(in: folder) == ["q.sqlite", "q.sqlite-shm", "q.sqlite-wal"])
    }

    /// A killed first fetch leaves its draft; the next database put in place removes those of
    /// processes that are gone, and only those.
    @Test func draftsOfProcessesThatAreGoneAreRemoved() async throws {
        let folder = try TemporaryDirectory()
        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let gone = "q.sqlite.tmp.\(finished.processIdentifier).1"
        // Process 1 runs as long as the machine does; the last is another program's name.
        let kept = ["q.sqlite.tmp.1.1", "q.sqlite.tmp.\(finished.processIdentifier)", "q.sqlite.tmp.x.1"]
        for name in [gone] + kept { try folder.write(name, "left behind") }
        let store = SQLiteStore(path: folder.file("q.sqlite"))
        let ticket = try await store.beginIngest(author: "test", source: nil)
        _ = try await store.ingest(Array(quakes.prefix(2)), for: ticket)
        _ = try await store.commit(ticket, timestamp: 1, feedState: nil)
        #expect(try files(in: folder) == (["q.sqlite", "q.sqlite-shm", "q.sqlite-wal"] + kept).sorted())
    }
}
