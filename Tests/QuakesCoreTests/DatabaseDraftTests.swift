import Foundation
import SQLite
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// A missing SQLite database is made beside where it goes and put in place by its first write that
/// commits (`DatabaseDraft`): never half of it, never over a file that appeared meanwhile, never
/// with what a deleted database left beside its name, and with no draft left behind.
@Suite struct DatabaseDraftTests {
    private let quakes: [Quake]

    init() throws {
        quakes = try ReferenceDecoder.decode(try Fixtures.data(Fixtures.alerts)).quakes
    }

    /// The names in `folder` that are not lock files.
    private func files(in folder: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".lock") }.sorted()
    }

    /// Writes `quakes` in one ingest of `store`.
    private func write(_ quakes: [Quake], to store: SQLiteStore, at timestamp: Int64 = 1) async throws {
        let ticket = try await store.beginIngest(author: "test", source: nil)
        _ = try await store.ingest(quakes, for: ticket)
        _ = try await store.commit(ticket, timestamp: timestamp, feedState: nil)
    }

    /// Checks that the database at `path` is sound, in WAL mode, holds `count` events, and that
    /// the indexes a first load builds after its rows hold every one.
    private func expectSound(_ path: String, count: Int) throws {
        #expect(try DatabaseContent.integrity(of: path) == "ok")
        #expect(try Connection(path: path, mode: .readOnly).pragma("journal_mode") == "wal")
        #expect(try DatabaseContent.indexedCounts(of: path) == Array(repeating: Int64(count), count: 3))
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
        try expectSound(path, count: quakes.count)
        // The next write goes to the database in place.
        try await write([Quake(id: "zz1", time: 1, longitude: 0, latitude: 0)], to: store, at: 2)
        #expect(try SQLiteReader(path: path).count() == quakes.count + 1)
    }

    /// What a watch whose first download failed does, and a fetch of several sources: a write
    /// rolled back on the draft, then one that commits.
    @Test func aFirstWriteRolledBackLeavesNothingAndTheNextLoadsWhole() async throws {
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
        let store = SQLiteStore(path: path)
        let abandoned = try await store.beginIngest(author: "test", source: nil)
        _ = try await store.ingest(quakes, for: abandoned)
        await store.rollback(abandoned)
        try await write(quakes, to: store)
        try expectSound(path, count: quakes.count)
    }

    /// `watch` makes its draft before it takes the writer lock: a database another process made
    /// meanwhile is written to instead, and the draft goes.
    @Test func aDraftOvertakenByAnotherWriterIsGivenUp() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("q.sqlite")
        let late = SQLiteStore(path: path)
        try await late.open()
        try await write(Array(quakes.prefix(5)), to: SQLiteStore(path: path))
        try await write(Array(quakes.suffix(5)), to: late, at: 2)
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
        try await write(Array(quakes.suffix(3)), to: SQLiteStore(path: path))
        // The other program's latest commit is still in its log, which must be left alone.
        let other = try Connection(path: path)
        try other.pragma("wal_autocheckpoint = 0")
        try other.execute("INSERT INTO quake (id, time, longitude, latitude) VALUES ('other1', 1, 0, 0)")
        await #expect {
            try await slow.commit(ticket, timestamp: 2, feedState: nil)
        } throws: { error in
            "\(error)".contains("another program created it while this write went on; nothing was stored")
        }
        #expect(try SQLiteReader(path: path).count() == 4)
        #expect(try files(in: folder) == ["q.sqlite", "q.sqlite-shm", "q.sqlite-wal"])
        try other.close()
        #expect(try SQLiteReader(path: path).count() == 4)
    }

    /// A database deleted without its `-wal` (by hand, to start again) leaves frames that SQLite
    /// would replay into any database later put under that name.
    @Test func whatADeletedDatabaseLeftBesideItIsNotTakenForTheNewOnes() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("q.sqlite")
        try await write(quakes, to: SQLiteStore(path: path))
        let writer = try Connection(path: path)
        try writer.pragma("wal_autocheckpoint = 0")
        try writer.execute("DELETE FROM quake")
        let frames = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        #expect(frames.count > 0)
        try writer.close()
        for name in ["q.sqlite", "q.sqlite-shm"] { try? FileManager.default.removeItem(atPath: folder.file(name)) }
        try frames.write(to: URL(fileURLWithPath: path + "-wal"))
        try folder.write("q.sqlite-journal", "left by a rollback-mode program")

        try await write(Array(quakes.prefix(4)), to: SQLiteStore(path: path))
        try expectSound(path, count: 4)
    }

    /// Something already at the path, an empty file or a link to a missing one, is made the
    /// database in place, without a draft.
    @Test func anEmptyFileOrADanglingLinkIsMadeTheDatabaseInPlace() async throws {
        let folder = try TemporaryDirectory()
        let empty = try folder.write("empty.sqlite", "")
        try await write(Array(quakes.prefix(3)), to: SQLiteStore(path: empty))
        #expect(try SQLiteReader(path: empty).count() == 3)
        let link = folder.file("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.file("target.sqlite"))
        try await write(Array(quakes.prefix(3)), to: SQLiteStore(path: link))
        #expect(try SQLiteReader(path: folder.file("target.sqlite")).count() == 3)
        #expect(try files(in: folder).filter { $0.contains(".tmp.") } == [])
    }

    /// A killed first fetch leaves its draft; the next database put in place beside it removes the
    /// drafts no process holds, and only those.
    @Test func draftsNoProcessHoldsAreRemoved() async throws {
        let folder = try TemporaryDirectory()
        let abandoned = "q.sqlite.tmp.4242.1f"
        // Held as a live draft's process holds it; the last two are named otherwise.
        let kept = ["q.sqlite.tmp.4243.2e", "q.sqlite.tmp.x.1", "q.sqlite.tmp.4244"]
        for name in [abandoned] + kept { try folder.write(name, "left behind") }
        let held = open(folder.file(kept[0]), O_RDONLY)
        defer { close(held) }
        #expect(flock(held, LOCK_EX) == 0)
        try await write(Array(quakes.prefix(2)), to: SQLiteStore(path: folder.file("q.sqlite")))
        #expect(try files(in: folder) == (["q.sqlite", "q.sqlite-shm", "q.sqlite-wal"] + kept).sorted())
    }
}
