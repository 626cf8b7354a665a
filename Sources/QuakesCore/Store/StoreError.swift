import SQLite

/// A failure of the database file: SQLite's error, or a schema this version cannot use.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// The database file.
    public var path: String
    /// What went wrong: a `SQLiteError`, a `MigrationError`, or a description.
    public var reason: Reason

    public enum Reason: Sendable {
        case sqlite(SQLiteError)
        case schema(MigrationError)
        /// The file does not exist (for reading).
        case missing
        case other(String)
    }

    public init(path: String, _ error: any Error) {
        self.path = path
        switch error {
        case let error as StoreError: reason = error.reason
        case let error as SQLiteError: reason = .sqlite(error)
        case let error as MigrationError: reason = .schema(error)
        default: reason = .other(String(describing: error))
        }
    }

    public var description: String {
        switch reason {
        case let .sqlite(error) where error.isBusy:
            "database \(path) is locked by another process (\(error.message))"
        case let .sqlite(error):
            "database \(path): \(error.message)"
        case let .schema(error):
            "database \(path): \(error)"
        case .missing:
            "database \(path) does not exist; run 'quakes fetch' first"
        case let .other(text):
            "database \(path): \(text)"
        }
    }

    /// True when another process holds the database, so trying again later may work.
    public var isBusy: Bool {
        if case let .sqlite(error) = reason { return error.isBusy }
        return false
    }
}
