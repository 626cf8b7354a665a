import Locking
import PostgreSQL
import QuakesCore

/// The right to write a PostgreSQL database, held by one quakes process at a time on any host: a
/// session-level advisory lock, held on a connection of its own for as long as this value lives.
///
/// The server releases the lock when the connection ends, however the process ends, so a crashed or
/// killed fetch never leaves a stale lock behind.
final class PostgresWriterLock: WriterLease {
    /// Held to keep the session, and so the lock, alive; nil once released.
    private let connection: Locked<PostgresConnection?>

    private init(connection: Locked<PostgresConnection?>) {
        self.connection = connection
    }

    /// Lets go of the lock before the connection closes: the server ends a closed session's locks
    /// only after the client has gone, so a fetch started right after this one finished could
    /// otherwise still find the lock taken (seen once in 2,400 back-to-back fetches).
    func release() async {
        _ = try? await Blocking.run { [connection] in
            connection.withLock { held in
                held.map(Self.unlock)
                held = nil  // Closes the connection, on this thread too.
            }
        }
    }

    /// For a command that ended by an error before `release()`: the same, where the value goes.
    deinit {
        connection.withLock { held in held.map(Self.unlock) }
    }

    private static func unlock(_ connection: PostgresConnection) {
        _ = try? connection.execute("SELECT pg_advisory_unlock(\(PostgresSchema.writerLockKey))")
    }

    /// Takes the lock of the database at `uri`, waiting up to `wait` seconds for another process
    /// to let go of it; `name` is the URI without its password, for messages.
    static func acquire(uri: String, name: String, waiting wait: Double) async throws -> PostgresWriterLock {
        let connection = try await Blocking.run {
            do {
                return Locked<PostgresConnection?>(try PostgresConnection(uri: uri))
            } catch {
                throw StoreError(path: name, error)
            }
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, wait) * 1000))
        while true {
            let taken = try await Blocking.run {
                do {
                    return try connection.withLock { connection in
                        try connection?.execute("SELECT pg_try_advisory_lock(\(PostgresSchema.writerLockKey))")
                            .bool(row: 0, column: 0) == true
                    }
                } catch {
                    throw StoreError(path: name, error)
                }
            }
            if taken { return PostgresWriterLock(connection: connection) }
            guard ContinuousClock.now < deadline else { throw LockedError(database: name) }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
