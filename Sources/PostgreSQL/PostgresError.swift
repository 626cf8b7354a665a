/// A failed PostgreSQL call: the server's message and SQLSTATE, or libpq's own message.
///
/// The SQLSTATE lets callers tell a missing table (`42P01`) from a unique violation (`23505`) or a
/// serialisation failure worth retrying (`40001`) without parsing messages, which the server
/// translates into the language of its `lc_messages`. Errors that libpq finds on its own, such as a
/// refused connection, have no SQLSTATE.
///
/// No message carries a connection password: connection errors are scrubbed of the password the
/// URI or `PGPASSWORD` gave, and show the URI only through `PostgresConnection.redacted(uri:)`.
public struct PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary message, such as `relation "quake" does not exist`.
    public let message: String
    /// The five-character SQLSTATE code, such as `42P01`, when the server sent one.
    public let sqlState: String?
    /// The server's detail line, such as `Key (code)=(us7000abcd) already exists.`
    public let detail: String?
    /// The server's hint on how to fix the problem.
    public let hint: String?
    /// The statement that failed, when there was one.
    public let sql: String?
    /// Why no session began, for a connection that failed.
    public let connectionFailure: ConnectionFailure?
    /// True when the failure ended a session under way (the server restarted, the network broke):
    /// the connection cannot be used further, and a new one may work.
    public let sessionEnded: Bool

    /// Why a connection failed, as far as a caller can act on it.
    public enum ConnectionFailure: Sendable, Equatable {
        /// No server answered: a wrong host or port, a name that does not resolve, a server that is
        /// down, a network or TLS failure.
        case unreachable
        /// The server answered and turned the session down: a wrong password, an unknown role, no
        /// pg_hba.conf entry, no CONNECT privilege.
        case refused
        /// The server has no database of that name.
        case noDatabase
        /// The server answered but takes no session now: too many clients, starting up, shutting down.
        case busy
    }

    public init(
        message: String, sqlState: String? = nil, detail: String? = nil, hint: String? = nil, sql: String? = nil,
        connectionFailure: ConnectionFailure? = nil, sessionEnded: Bool = false
    ) {
        self.message = message
        self.sqlState = sqlState
        self.detail = detail
        self.hint = hint
        self.sql = sql
        self.connectionFailure = connectionFailure
        self.sessionEnded = sessionEnded
    }

    public var description: String {
        var text = message
        if let sqlState { text += " (SQLSTATE \(sqlState))" }
        if let detail { text += "; \(detail)" }
        if let hint { text += "; hint: \(hint)" }
        if let sql { text += " in '\(sql)'" }
        return text
    }

}
