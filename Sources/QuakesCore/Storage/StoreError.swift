/// A failure of the database, whatever engine keeps it: the engine's own error, or a database this
/// version cannot or will not use.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// The database: its file, or its server's URI without the password.
    public var path: String
    public var reason: Reason
    /// True when the failure ended a session with the database server (a restart): a watch that has
    /// reached the database goes on, and its next pass connects again.
    public var sessionEnded = false

    public enum Reason: Sendable {
        /// The engine's error: its message, and whether another process held the database.
        case engine(String, busy: Bool)
        /// The database does not exist (for reading).
        case missing
        /// The database is another program's, or not one quakes made; it is left alone.
        case foreign(String)
        /// The database is a quakes database of an older schema, which a read command does not upgrade.
        case olderSchema(found: Int32, latest: Int32)
        /// No session with the database server began; the engine's message says why.
        case connection(String, ConnectionFailure)
        case other(String)
    }

    /// Why a database server gave no session, as far as a script can act on it.
    public enum ConnectionFailure: Sendable {
        /// No server answered (exit 69).
        case unreachable
        /// The server turned the session down: credentials, role or privileges (exit 77).
        case refused
        /// The server has no such database (exit 66).
        case noDatabase
        /// The server takes no session now: too many clients, starting up or shutting down (exit 75).
        case busy
    }

    public init(path: String, _ reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public init(path: String, _ text: String) {
        self.init(path: path, .other(text))
    }

    /// The error of an engine (an `EngineError`), or another, as a failure of the database at `path`.
    public init(path: String, _ error: any Error) {
        self.path = path
        switch error {
        case let error as StoreError:
            reason = error.reason
            sessionEnded = error.sessionEnded
        case let error as any EngineError:
            sessionEnded = error.sessionEnded
            if let failure = error.failedConnection {
                reason = .connection(error.message, failure)
            } else {
                reason = .engine(error.message, busy: error.isBusy)
            }
        default: reason = .other(String(describing: error))
        }
    }

    public var description: String {
        switch reason {
        case let .engine(message, busy: true):
            "database \(path) is locked by another process (\(message))"
        case let .engine(message, busy: false):
            "database \(path): \(message)"
        case .missing:
            "database \(path) does not exist; run 'quakes fetch' first"
        case let .foreign(reason):
            "database \(path) is not a quakes database: \(reason); quakes leaves it as it is (give another --db)"
        case let .olderSchema(found, latest):
            "database \(path) has schema version \(found), older than this version of quakes uses (\(latest)); "
                + "read commands never write, so run 'quakes fetch' (or 'quakes prune') once to upgrade it"
        case let .connection(message, .noDatabase):
            message + "; quakes never creates one on a server: an administrator does"
        case let .connection(message, _):
            message
        case let .other(text):
            "database \(path): \(text)"
        }
    }

    /// True when another process holds the database, or the server takes no session for now, so
    /// trying again later may work.
    public var isBusy: Bool {
        switch reason {
        case .engine(_, busy: true), .connection(_, .busy): true
        default: false
        }
    }
}

/// An engine's own error, which `StoreError` carries without naming the engine.
public protocol EngineError: Error {
    var message: String { get }
    /// True when another process held the database.
    var isBusy: Bool { get }
    /// Why no session with a database server began, for an engine that has a server.
    var failedConnection: StoreError.ConnectionFailure? { get }
    /// True when the failure ended a session with a database server under way.
    var sessionEnded: Bool { get }
}

extension EngineError {
    public var failedConnection: StoreError.ConnectionFailure? { nil }
    public var sessionEnded: Bool { false }
}
