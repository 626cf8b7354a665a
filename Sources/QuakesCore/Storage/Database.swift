/// A database that `--db` or `QUAKES_DB` named, whichever engine keeps it: everything a command
/// asks of storage. Commands, output and ingest speak to an engine only through this, `QuakeReading`
/// and `QuakeWriting`; they never name an engine's types.
package protocol Database: Sendable {
    /// How messages name it: a server's URI never shows its password.
    var name: String { get }

    /// Runs `body` with a reader of one snapshot of the database, with local sections in `zone`.
    /// Blocks: a command that only reads calls it on the main thread before any other thread starts
    /// (`BlockingCommand`); code in a task uses `reading(zone:_:)`, which runs it on a thread of its
    /// own.
    func read<Result>(zone: DisplayZone, _ body: (any QuakeReading) throws -> Result) throws -> Result

    /// `read(zone:_:)` for a command that writes the database, which reads one it has not created
    /// yet (an engine may create it only when its first write commits) as empty, as it is.
    func readAsWriter<Result>(zone: DisplayZone, _ body: (any QuakeReading) throws -> Result) throws -> Result

    /// Checks, before a writer takes the lock, that the database may be written by this version:
    /// missing (it will be created), or one of quakes' own of a schema it understands.
    func checkWritable() async throws

    /// Takes the right to write the database, held by one quakes process at a time, waiting up to
    /// `wait` seconds for another to let go of it; released when the returned value goes.
    func lockWriter(waiting wait: Double) async throws -> any WriterLease

    /// A listener that hears every write committed to the database, by any process on any host;
    /// nil for an engine that cannot announce commits (then `watch` looks again every interval).
    func changeListener() async throws -> (any ChangeListener)?

    /// The writer of the database, which connects on first use.
    func writer() -> any QuakeWriting

    /// Why `history` cannot list the database's transactions, naming an engine that can, for an
    /// engine that keeps none; nil for one that keeps them.
    var historyRefusal: String? { get }
}

extension Database {
    package var historyRefusal: String? { nil }

    /// An engine that creates a database before its first write reads it as it is.
    package func readAsWriter<Result>(zone: DisplayZone, _ body: (any QuakeReading) throws -> Result) throws
        -> Result
    {
        try read(zone: zone, body)
    }

    /// Runs `body` with a reader of one snapshot of the database, on a thread of its own (readers
    /// block), with local sections in `zone`.
    package func reading<Result: Sendable>(
        zone: DisplayZone = .utc, _ body: @escaping @Sendable (any QuakeReading) throws -> Result
    ) async throws -> Result {
        try await Blocking.run { try read(zone: zone, body) }
    }

    /// `reading(zone:_:)` for a command that writes the database (see `readAsWriter(zone:_:)`).
    package func readingAsWriter<Result: Sendable>(
        zone: DisplayZone = .utc, _ body: @escaping @Sendable (any QuakeReading) throws -> Result
    ) async throws -> Result {
        try await Blocking.run { try readAsWriter(zone: zone, body) }
    }

    /// Runs `body` holding the right to write the database, taken waiting up to `wait` seconds
    /// (`LockedError` when another process keeps it), and lets go of it when `body` ends, however
    /// it ends: the one place a writer's lock is released.
    package func whileHoldingWriter<Result>(waiting wait: Double, _ body: () async throws -> Result) async throws
        -> Result
    {
        let lease = try await lockWriter(waiting: wait)
        do {
            let result = try await body()
            await lease.release()
            return result
        } catch {
            await lease.release()
            throw error
        }
    }

    /// Every stored event, by id: for tools that move a whole catalogue (the benchmarks).
    package func allQuakes() async throws -> [Quake] {
        try await reading { try $0.allQuakes() }
    }
}

/// The right to write a database, held until `release()`, or until the value goes.
package protocol WriterLease: AnyObject, Sendable {
    /// Lets go of the right now, off the cooperative pool where that blocks (a server round trip).
    func release() async
}

extension WriterLease {
    package func release() async {}
}
