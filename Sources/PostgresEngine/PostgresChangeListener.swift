import Locking
import PostgreSQL
import QuakesCore

/// `LISTEN` on the channel every committing writer notifies (see `PostgresStore`), on a connection
/// of its own: a commit on any host wakes the waiter within a moment, with no query run.
final class PostgresChangeListener: ChangeListener {
    /// Used by one wait at a time.
    private let connection: Locked<PostgresConnection>

    /// How long one blocking wait lasts at most, so that a cancelled watch ends promptly.
    private static let slice: Duration = .milliseconds(250)

    /// The database's URI without its password, for messages.
    private let name: String

    private init(connection: sending PostgresConnection, name: String) {
        self.connection = Locked(connection)
        self.name = name
    }

    /// Connects to `uri` and listens; `name` is the URI without its password, for messages.
    static func listening(uri: String, name: String) async throws -> PostgresChangeListener {
        try await Blocking.run {
            do {
                let connection = try PostgresConnection(uri: uri)
                try connection.listen(PostgresSchema.channel)
                return PostgresChangeListener(connection: connection, name: name)
            } catch {
                throw StoreError(path: name, error)
            }
        }
    }

    func waitForChange(upTo timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while !Task.isCancelled {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return }
            let heard = try await Blocking.run { [self] in
                do {
                    return try connection.withLock { connection in
                        try connection.waitForNotification(timeout: min(remaining, Self.slice)) != nil
                    }
                } catch {
                    throw StoreError(path: name, error)
                }
            }
            if heard { return }
        }
    }
}
