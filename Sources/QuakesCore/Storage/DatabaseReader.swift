/// A database that `--db` or `QUAKES_DB` named, whichever engine keeps it, as a command that only
/// reads it sees it (`count`, `list`, `show`, `history`, `status`, `chart`, `map`). Commands,
/// output and ingest speak to an engine only through this, `DatabaseWriter`, `QuakeReading` and
/// `QuakeWriting`; they never name an engine's types.
///
/// After GRDB's `DatabaseReader` and `DatabaseWriter`: what a reader may do is a small protocol of
/// its own, and a writer's is a second one that adds to it. An engine gives one value that is
/// both (`StorageEngine.database(named:in:)`); a read command sees it as a reader only
/// (`DatabaseLocation.reader`), so it cannot reach the writer's lock or store.
package protocol DatabaseReader: Sendable {
    /// How messages name it: a server's URI never shows its password.
    var name: String { get }

    /// The engine that keeps it: what it can do, and how messages call it.
    var engine: EngineDescription { get }

    /// Runs `body` with a reader of one snapshot of the database, with local sections in `zone`.
    /// Blocks: a command that only reads calls it on the main thread before any other thread starts
    /// (`BlockingCommand`); code in a task uses `reading(zone:_:)`, which runs it on a thread of its
    /// own.
    func read<Result>(zone: DisplayZone, _ body: (any QuakeReading) throws -> Result) throws -> Result

    /// A listener that hears every write committed to the database, by any process on any host:
    /// asked for only when the engine's description has `announcesCommits` (EngineTests holds the
    /// two alike); nil, the default, for an engine that cannot announce commits (then `watch` looks
    /// again every interval).
    func changeListener() async throws -> (any ChangeListener)?
}

extension DatabaseReader {
    package func changeListener() async throws -> (any ChangeListener)? {
        nil
    }

    /// Runs `body` with a reader of one snapshot of the database, on a thread of its own (readers
    /// block), with local sections in `zone`.
    package func reading<Result: Sendable>(
        zone: DisplayZone = .utc, _ body: @escaping @Sendable (any QuakeReading) throws -> Result
    ) async throws -> Result {
        try await Blocking.run { try read(zone: zone, body) }
    }

    /// Every stored event, by id: for tools that move a whole catalogue (the benchmarks).
    package func allQuakes() async throws -> [Quake] {
        try await reading { try $0.allQuakes() }
    }
}
