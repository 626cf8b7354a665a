import Foundation
import Testing

@testable import QuakesCore

/// The order of fetches never changes the result: every permutation of small sets of documents
/// (ties, deletions, re-identifications) ends in the same database content, compared whole.
@Suite struct IdentityTests {
    /// One version of an event, as a document of its own.
    struct Version {
        var id: String
        var updated: Int64
        var generated: Int64?
        var place = "somewhere"
        var ids: [String] = []
        var deleted = false
        var magnitude = 3.0

        /// `{"type":"FeatureCollection","metadata":{"generated":…},"features":[…]}`.
        var document: String {
            let allIDs = ([id] + ids).sorted()
            let feature = """
                {"type":"Feature","properties":{"mag":\(magnitude),"place":"\(place)","time":1626700000000,\
                "updated":\(updated),"status":"\(deleted ? "deleted" : "reviewed")","ids":",\(allIDs.joined(separator: ",")),",\
                "type":"earthquake"},"geometry":{"type":"Point","coordinates":[-117.5,35.6,8.1]},"id":"\(id)"}
                """
            let metadata = generated.map { #""metadata":{"generated":\#($0)},"# } ?? ""
            return #"{"type":"FeatureCollection",\#(metadata)"features":[\#(feature)]}"#
        }
    }

    /// The database content every order of `versions` ends in on `engine`, after checking that
    /// they all agree; and the content, `list --format geojson` output, the database of each order
    /// and a folder for more files.
    private func endState(_ versions: [Version], on engine: TestEngine) async throws -> (
        content: DatabaseContent, geojson: String, databases: [TestStore], folder: TemporaryDirectory
    ) {
        let folder = try TemporaryDirectory()
        let paths = try versions.enumerated().map { index, version in
            try folder.write("v\(index).geojson", version.document)
        }
        var first: (DatabaseContent, String)?
        var databases: [TestStore] = []
        let orders = permutations(Array(paths.indices))
        for order in orders {
            let store = try engine.newDatabase()
            databases.append(store)
            for index in order {
                let run = await QuakesRun.fetch([paths[index]], database: store.location, ["--quiet"])
                #expect(run.status == .success, "\(run.standardError)")
            }
            let content = try DatabaseContent(path: store.location, tables: DatabaseContent.orderIndependentTables)
            let geojson = await QuakesRun.run(["list", "--db", store.location, "--format", "geojson", "--sort", "time"])
            if let first {
                #expect(content == first.0, "order \(order) differs from \(orders[0])")
                #expect(geojson.standardOutput == first.1, "order \(order) lists differently")
            } else {
                first = (content, geojson.standardOutput)
            }
        }
        return (first!.0, first!.1, databases, folder)
    }

    private func permutations(_ items: [Int]) -> [[Int]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let head = rest.remove(at: index)
            return permutations(rest).map { [head] + $0 }
        }
    }

    private func ids(_ content: DatabaseContent) -> [String] {
        (content.tables["quake"] ?? []).map { $0[0] }
    }

    private func column(_ name: String, of id: String, in content: DatabaseContent) -> String? {
        let columns = QuakeField.allCases.map(\.name)
        guard let index = columns.firstIndex(of: name) else { return nil }
        return content.tables["quake"]?.first { $0[0] == id }?[index]
    }

    @Test(arguments: TestEngine.allCases) func aTieOfUpdatedGoesToTheNewestFeedWhateverTheOrder(engine: TestEngine)
        async throws
    {
        // A (feed t1, X), B (t3, X), C (t2, Y): the newest feed, B, says X.
        let (content, _, _, _) = try await endState(
            [
                Version(id: "ci1", updated: 100, generated: 1_000, place: "X"),
                Version(id: "ci1", updated: 100, generated: 3_000, place: "X"),
                Version(id: "ci1", updated: 100, generated: 2_000, place: "Y"),
            ], on: engine)
        #expect(ids(content) == ["ci1"])
        #expect(column("place", of: "ci1", in: content) == "X")
        // `generated` is the newest feed time that carried the stored version.
        #expect(column("generated", of: "ci1", in: content) == "3000")
    }

    @Test(arguments: TestEngine.allCases) func equalVersionsFromFeedsOfTheSameTimeAreOrderedByTheirContent(
        engine: TestEngine
    ) async throws {
        let (content, _, _, _) = try await endState(
            [
                Version(id: "ci1", updated: 100, generated: 1_000, place: "X"),
                Version(id: "ci1", updated: 100, generated: 1_000, place: "Y"),
                Version(id: "ci1", updated: 100, generated: nil, place: "Z"),
            ], on: engine)
        #expect(ids(content) == ["ci1"])
        #expect(["X", "Y"].contains(column("place", of: "ci1", in: content)))
    }

    @Test(arguments: TestEngine.allCases) func aDeletionIsRememberedSoThatAnOlderCopyNeverBringsTheEventBack(
        engine: TestEngine
    ) async throws {
        let (content, geojson, databases, folder) = try await endState(
            [
                Version(id: "us1", updated: 100, generated: 1_000),
                Version(id: "us1", updated: 200, generated: 2_000, deleted: true),
                Version(id: "us1", updated: 150, generated: 3_000, place: "later feed, older version"),
            ], on: engine)
        #expect(ids(content).isEmpty)
        #expect(!geojson.contains("us1"))
        // The tombstone: the id, owned by the deletion.
        let identity = try #require(content.tables["identity"]?.first)
        #expect(identity[0] == "us1")
        #expect(identity[5] == "1")
        // It appears nowhere a user looks.
        let database = databases[0].location
        #expect(await QuakesRun.run(["count", "--db", database]).standardOutput == "0\n")
        #expect(await QuakesRun.run(["show", "--db", database, "us1"]).status == .failure)
        // A newer version than the deletion brings it back.
        let revived = try folder.write("revived.geojson", Version(id: "us1", updated: 300, generated: 4_000).document)
        #expect(await QuakesRun.fetch([revived], database: database).standardError.contains("1 new"))
    }

    @Test(arguments: TestEngine.allCases) func aChainOfReidentificationsEndsAsOneEventWhateverTheOrder(
        engine: TestEngine
    ) async throws {
        // A became B became C; an old copy of B arrives too.
        let (content, _, databases, _) = try await endState(
            [
                Version(id: "a1", updated: 100, generated: 1_000),
                Version(id: "b2", updated: 200, generated: 2_000, ids: ["a1"]),
                Version(id: "c3", updated: 300, generated: 3_000, ids: ["b2"]),
                Version(id: "b2", updated: 50, generated: 4_000, place: "an old copy"),
            ], on: engine)
        #expect(ids(content) == ["c3"])
        let database = databases[5].location
        for id in ["a1", "b2", "c3"] {
            let show = await QuakesRun.run(["show", "--db", database, id, "--format", "json"])
            #expect(show.standardOutput.hasPrefix(#"{"id":"c3""#), "\(id): \(show.standardOutput)")
        }
    }

    @Test(arguments: TestEngine.allCases) func aVersionThatLinksTwoStoredEventsLeavesTheSameEventsWhateverTheOrder(
        engine: TestEngine
    ) async throws {
        let (content, _, _, _) = try await endState(
            [
                Version(id: "aa", updated: 1_000, generated: 1_000),
                Version(id: "bb", updated: 500, generated: 1_000),
                Version(id: "bb", updated: 700, generated: 2_000, ids: ["aa"]),
                Version(id: "bb", updated: 600, generated: 3_000),
            ], on: engine)
        // aa's newest version does not name bb, and bb's newest version is the one that named aa:
        // each id keeps its own event.
        #expect(ids(content) == ["aa", "bb"])
        #expect(column("updated", of: "bb", in: content) == "700")
    }

    @Test(arguments: TestEngine.allCases) func aDeletionOfAReidentifiedEventRemovesItUnderEveryId(engine: TestEngine)
        async throws
    {
        let (content, _, databases, _) = try await endState(
            [
                Version(id: "old", updated: 100, generated: 1_000),
                Version(id: "new", updated: 200, generated: 2_000, ids: ["old"]),
                Version(id: "new", updated: 300, generated: 3_000, ids: ["old"], deleted: true),
            ], on: engine)
        #expect(ids(content).isEmpty)
        let database = databases[2].location
        #expect(await QuakesRun.run(["show", "--db", database, "old"]).status == .failure)
        let status = await QuakesRun.run(["status", "--db", database, "--format", "json"])
        #expect(status.standardOutput.contains(#""tombstones":1"#), "\(status.standardOutput)")
    }

    @Test(arguments: TestEngine.keepingHistory) func theHistoryNamesTheEventAReidentifiedIdWasMergedInto(
        engine: TestEngine
    )
        async throws
    {
        let store = try engine.newDatabase()
        let database = store.location
        _ = await QuakesRun.fetch([Fixtures.path(Fixtures.weekBefore)], database: database)
        let after = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.weekAfter)], database: database, ["--format", "json"])
        let history = await QuakesRun.run([
            "history", "--db", database, "--since", "1", "--changes", "--format", "json",
        ])
        let transactions = try #require(
            try JSONSerialization.jsonObject(with: Data(history.standardOutput.utf8)) as? [[String: Any]])
        let changes = try #require(transactions.first?["changes"] as? [[String: Any]])
        let merged = changes.filter { $0["mergedInto"] != nil }
        #expect(merged.count == 3)
        #expect(merged.contains { $0["id"] as? String == "us7000enmc" && $0["mergedInto"] as? String == "ci39746767" })
        #expect(merged.allSatisfy { $0["change"] as? String == "delete" })
        // Only a deletion names the event that absorbed it; the others name none.
        #expect(changes.filter { $0["mergedInto"] == nil }.allSatisfy { $0["change"] as? String != "delete" })
        // The fetch's own counts are the history's.
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(after.standardOutput.utf8)) as? [String: Any])
        let source = try #require((summary["sources"] as? [[String: Any]])?.first)
        for key in ["inserted", "updated", "deleted"] {
            #expect(source[key] as? Int == transactions.first?[key] as? Int, "\(key)")
        }
        let table = await QuakesRun.run(["history", "--db", database, "--since", "1", "--changes"])
        #expect(table.standardOutput.contains("delete  us7000enmc (merged into ci39746767)  was mag "))
    }

    @Test(arguments: TestEngine.allCases)
    func theTwoWeeklyFeedsLeaveTheSameRowsInEitherOrderGeneratedIncluded(engine: TestEngine) async throws {
        let stores = [try engine.newDatabase(), try engine.newDatabase()]
        let (forward, backward) = (stores[0].location, stores[1].location)
        for (database, files) in [
            (forward, [Fixtures.weekBefore, Fixtures.weekAfter]),
            (backward, [Fixtures.weekAfter, Fixtures.weekBefore]),
        ] {
            for file in files { _ = await QuakesRun.fetch([Fixtures.path(file)], database: database) }
        }
        #expect(
            try DatabaseContent(path: forward, tables: DatabaseContent.orderIndependentTables)
                == DatabaseContent(path: backward, tables: DatabaseContent.orderIndependentTables))
        let one = await QuakesRun.run(["list", "--db", forward, "--format", "geojson"])
        let other = await QuakesRun.run(["list", "--db", backward, "--format", "geojson"])
        #expect(one.standardOutput == other.standardOutput)
    }
}
