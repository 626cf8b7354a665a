/// One NOTIFY that a connection listening on its channel received.
public struct PostgresNotification: Sendable, Equatable {
    /// The channel, exactly as NOTIFY or `pg_notify` named it.
    public let channel: String
    /// The payload; empty when NOTIFY gave none.
    public let payload: String
    /// The process ID of the server process of the connection that sent it.
    public let processID: Int32

    public init(channel: String, payload: String, processID: Int32) {
        self.channel = channel
        self.payload = payload
        self.processID = processID
    }
}
