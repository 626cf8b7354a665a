/// Brings a database's schema up to date with an append-only list of migrations.
///
/// Migration `n` (counting from 1) moves the schema from version `n - 1` to `n`; the version a file
/// is at lives in `PRAGMA user_version`. Migrations are never edited once released: a change to
/// the schema is a new migration at the end of the list.
public struct Migrator: Sendable {
    /// The SQL of each migration, in order.
    public let migrations: [String]

    public init(migrations: [String]) {
        self.migrations = migrations
    }

    /// The version a file has once every migration has run.
    public var latestVersion: Int32 { Int32(migrations.count) }

    /// Runs the migrations a file lacks, all in one transaction, and returns the version it had.
    ///
    /// A file at a higher version than this build knows was written by a newer `quakes`: it is
    /// refused untouched rather than written with a schema this build does not understand.
    @discardableResult
    public func migrate(_ connection: Connection) throws -> Int32 {
        let found = try connection.userVersion()
        guard found <= latestVersion else {
            throw MigrationError.newerSchema(found: found, supported: latestVersion)
        }
        guard found < latestVersion else { return found }
        try connection.transaction(.immediate) {
            // Read again inside the write lock: another process may have migrated meanwhile.
            let current = try connection.userVersion()
            guard current < latestVersion else { return }
            for sql in migrations[Int(current)...] {
                try connection.execute(sql)
            }
            try connection.setUserVersion(latestVersion)
        }
        return found
    }
}

/// Why a database's schema cannot be used.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file's schema is newer than any this build knows.
    case newerSchema(found: Int32, supported: Int32)

    public var description: String {
        switch self {
        case let .newerSchema(found, supported):
            "the database has schema version \(found), newer than this version of quakes understands "
                + "(\(supported)); upgrade quakes to use it"
        }
    }
}
