/// A mistake in how a command was called: an unknown option, a missing or malformed value.
///
/// Only the message is kept here; the entry point adds the usage line and the pointer to `--help`
/// of the command that failed, so every usage error reads the same.
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
