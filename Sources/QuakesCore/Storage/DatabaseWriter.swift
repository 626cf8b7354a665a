/// A database as a command that writes it sees it (`fetch`, `prune`, `backfill`, `sync`, a `watch`
/// that fetches): what it may read, and the right to write it, taken in turns.
package protocol DatabaseWriter: DatabaseReader {
    /// `read(zone:_:)` for a command that writes the database, which reads one it has not created
    /// yet (an engine may create it only when its first write commits) as empty, as it is.
    func readAsWriter<Result>(zone: DisplayZone, _ body: (any QuakeReading) throws -> Result) throws -> Result

    /// Checks, before a writer takes the lock, that the database may be written by this version:
    /// missing (it will be created), or one of quakes' own of a schema it understands.
    func checkWritable() async throws

    /// Takes the right to write the database, held by one quakes process at a time, waiting up to
    /// `wait` seconds for another to let go of it; released when the returned value goes.
    func lockWriter(waiting wait: Double) async throws -> any WriterLease

    /// The store that writes the database, which connects on first use.
    func store() -> any QuakeWriting
}

extension DatabaseWriter {
    /// An engine that creates a database before its first write reads it as it is.
    package func readAsWriter<Result>(zone: DisplayZone, _ body: (any QuakeReading) throws -> Result) throws
        -> Result
    {
        try read(zone: zone, body)
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
}

/// The right to write a database, held until `release()`, or until the value goes.
package protocol WriterLease: AnyObject, Sendable {
    /// Lets go of the right now, off the cooperative pool where that blocks (a server round trip).
    func release() async
}

extension WriterLease {
    package func release() async {}
}
