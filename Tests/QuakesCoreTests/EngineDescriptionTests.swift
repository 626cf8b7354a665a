import Registry
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// What each engine says of itself is what it does: the core asks the descriptions, and would
/// otherwise refuse or skip what an engine can do, or rely on what it cannot.
@Suite struct EngineDescriptionTests {
    /// `watch` asks for a listener only where the description says commits are announced: an engine
    /// that has a listener says so, and one that says so has one.
    @Test(arguments: TestEngine.allCases) func anEngineAnnouncesCommitsExactlyWhenItHasAListener(engine: TestEngine)
        async throws
    {
        let store = try engine.newDatabase()
        let listener = try await store.database.changeListener()
        #expect((listener != nil) == engine.description.capabilities.contains(.announcesCommits))
    }

    /// The decoders pack each event for the SQLite store, which binds the packed texts in place; the
    /// other stores write from the `Quake` and have nothing made for them.
    @Test(arguments: TestEngine.allCases) func onlyTheSQLiteStoreHasItsEventsPrepared(engine: TestEngine) throws {
        let store = try engine.newDatabase()
        let quake = Quake(id: "us7000abcd", time: 1_600_000_000_000, longitude: -117.5, latitude: 35.25)
        let prepared = store.database.store().eventPreparation?.prepare(quake)
        if engine == .sqlite {
            #expect((prepared as? PackedQuake)?.quake == quake)
        } else {
            #expect(prepared == nil)
        }
    }

    /// Every engine the tests run is a registered one, and the other way round: a new engine in the
    /// registry is tested as soon as it has its case.
    @Test func theTestedEnginesAreTheRegisteredOnes() {
        let registered = Set(Registry.engines.map(\.description.values))
        let tested = Set([TestEngine.sqlite, .postgresql, .geojson].map(\.description.values))
        #expect(registered == tested)
    }
}
