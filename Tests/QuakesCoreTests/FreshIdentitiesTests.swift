import SQLite
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// The filter a first load reads owners through: it may never miss an id it was given (that
/// event's later versions would be written as new), and should rarely claim one it was not.
@Suite struct FreshIdentitiesTests {
    @Test func everyIdGivenIsFoundAndFewOthersAre() {
        let filter = FreshIdentities()
        let given = (0..<200_000).map { "us\(7_000_000 + $0 * 3)" }
        #expect(!given.contains(where: filter.mayContain))
        for id in given { filter.insert(id) }
        #expect(given.allSatisfy(filter.mayContain))
        // About one in 20,000 after 200,000 ids (three probes in 2^24 bits): a few at most.
        let others = (0..<200_000).map { "us\(7_000_001 + $0 * 3)" }
        #expect(others.count(where: filter.mayContain) < 100)
    }

    /// Only a database with no owner at all starts a first load: a tombstone, with no event
    /// stored, is an owner a later version must find.
    @Test func onlyADatabaseWithNoOwnerStartsFresh() throws {
        let folder = try TemporaryDirectory()
        let connection = try Connection(path: folder.file("q.sqlite"), mode: .readWriteCreate)
        try Schema.migrator.migrate(connection)
        #expect(try IngestStatements.startsFresh(on: connection) != nil)
        try connection.execute(
            "INSERT INTO identity (id, event, updated, generated, digest, deleted, time) VALUES ('a', 'a', 2, NULL, 0, 1, 0)"
        )
        #expect(try IngestStatements.startsFresh(on: connection) == nil)
    }
}
