import Testing

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
}
