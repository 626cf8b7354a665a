import Foundation
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// The identity rules applied in memory (`InMemoryIdentities`, the write side of a store read and
/// written whole) lead where the SQL engines' tables lead, on real feeds. The decoding and the rules
/// run on threads of their own (`Blocking`): on the cooperative pool's two threads, seconds of work
/// (a minute under ThreadSanitizer) would stall every other test.
@Suite struct InMemoryIdentitiesTests {
    private static func features(_ file: String) throws -> [Quake] {
        try DecodedDocument(Array(try Fixtures.data(file))).quakes
    }

    @Test func theFixturesLeaveWhatTheSQLiteEngineStores() async throws {
        let (path, _) = try await QueryUniverse.shared.database()
        let memory = try await Blocking.run {
            var memory = InMemoryIdentities()
            for file in QueryUniverse.files { memory.apply(try Self.features(file)) }
            return memory
        }
        let stored = try await SQLiteDatabase(path: path).allQuakes()
        #expect(stored.count == 4680)
        #expect(memory.events == Dictionary(uniqueKeysWithValues: stored.map { ($0.id, $0) }))
    }

    /// The two weekly feeds, as `FetchStoreTests` fetches them: the same counts of changes, and the
    /// same events whichever comes first.
    @Test func overlappingFeedsCountTheirChangesAndLeaveTheSameEventsWhateverTheOrder() async throws {
        let (before, after) = try await Blocking.run {
            (try Self.features(Fixtures.weekBefore), try Self.features(Fixtures.weekAfter))
        }
        var forward = InMemoryIdentities()
        forward.apply(before)
        #expect(forward.takeChanges().count == 3098)
        forward.apply(after)
        let changes = forward.takeChanges()
        let kinds: [HistoryChange.Kind] = [.insert, .update, .delete]
        let counts: [Int] = kinds.map { kind in changes.filter { $0.change == kind }.count }
        #expect(counts == [1343, 202, 3])
        #expect(changes.compactMap(\.recordedMergedInto).count == 3)

        var backward = InMemoryIdentities()
        backward.apply(after)
        backward.apply(before)
        #expect(forward.events.count == 4438)
        #expect(forward.events == backward.events)
        #expect(forward.owners == backward.owners)
        #expect(forward.events["ci39747095"]?.magnitude == 1.09)
        #expect(forward.events["ak02196ybqca"]?.feedGenerated == 1_626_986_384_000)
        // Applying a feed again changes nothing.
        #expect(forward.apply(after) == 0)
        #expect(forward.takeChanges().isEmpty)
    }

    /// A deletion removes the stored event and leaves a tombstone that an older copy cannot undo.
    @Test func aDeletionLeavesATombstoneThatAnOlderCopyCannotUndo() async throws {
        let quake = try #require(try await Blocking.run { try Self.features(Fixtures.weekBefore) }.first)
        var deleted = quake
        deleted.status = "deleted"
        deleted.updated = (quake.updated ?? quake.time) + 1
        var memory = InMemoryIdentities()
        memory.apply([quake])
        memory.apply([deleted])
        #expect(memory.events[quake.id] == nil)
        #expect(memory.tombstones == 1)
        memory.apply([quake])
        #expect(memory.events[quake.id] == nil)
        let changes = memory.takeChanges()
        // Inserted, then deleted, in one write: no trace.
        #expect(changes.count == 1)
        #expect(changes.allSatisfy { $0.change == nil })
    }
}
