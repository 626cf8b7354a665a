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
        /// The file is another program's database, or not one quakes made; it is left alone.
        case foreign(String)
        /// The file is a quakes database of an older schema, which a read command does not upgrade.
        case olderSchema(found: Int32, latest: Int32)
        /// A reader cannot open the write-ahead log's files, which are missing and cannot be made.
        case unreadableLog(SQLiteError)
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
        case let .foreign(reason):
            "database \(path) is not a quakes database: \(reason); quakes leaves it as it is (give another --db)"
        case let .olderSchema(found, latest):
            "database \(path) has schema version \(found), older than this version of quakes uses (\(latest)); "
                + "read commands never write, so run 'quakes fetch' (or 'quakes prune') once to upgrade it"
        case let .unreadableLog(error):
            "database \(path): \(error.message): its -wal and -shm files are missing and this user cannot create "
                + "them in its folder; a fetch by the database's owner puts them back"
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
