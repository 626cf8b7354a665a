/// Brings a database's schema up to date with an append-only list of migrations, and marks the file
/// as the application's own.
///
/// Migration `n` (counting from 1) moves the schema from version `n - 1` to `n`; the version a file
/// is at lives in `PRAGMA user_version`, and the application's mark in `PRAGMA application_id`.
/// Migrations are never edited once released: a change to the schema is a new migration at the end
/// of the list.
public struct Migrator: Sendable {
    /// One step of the schema: SQL, then, when the SQL cannot say it, Swift.
    public struct Migration: Sendable {
        public var sql: String
        /// Runs after `sql`, in the same transaction: for data only Swift can compute.
        public var finish: (@Sendable (Connection) throws -> Void)?

        public init(_ sql: String, finish: (@Sendable (Connection) throws -> Void)? = nil) {
            self.sql = sql
            self.finish = finish
        }
    }

    /// The number written into `PRAGMA application_id` by `migrate`.
    public let applicationID: Int32
    /// Every migration, in order.
    public let migrations: [Migration]

    public init(applicationID: Int32, migrations: [Migration]) {
        self.applicationID = applicationID
        self.migrations = migrations
    }

    /// The version a file has once every migration has run.
    public var latestVersion: Int32 { Int32(migrations.count) }

    /// Runs the migrations a file lacks, all in one transaction with the new version and the
    /// application's mark, so that a file ends either at its old version or at the latest, never
    /// between; returns the version it had.
    ///
    /// A file at a higher version than this build knows was written by a newer `quakes`: it is
    /// refused untouched rather than written with a schema this build does not understand.
    @discardableResult
    public func migrate(_ connection: Connection) throws -> Int32 {
        let found = try connection.userVersion()
        guard found <= latestVersion else {
            throw MigrationError.newerSchema(found: found, supported: latestVersion)
        }
        let marked = try connection.applicationID() == applicationID
        guard found < latestVersion || !marked else { return found }
        try connection.transaction(.immediate) {
            // Read again inside the write lock: another process may have migrated meanwhile.
            let current = try connection.userVersion()
            guard current <= latestVersion else {
                throw MigrationError.newerSchema(found: current, supported: latestVersion)
            }
            for migration in migrations[Int(current)...] {
                try connection.execute(migration.sql)
                try migration.finish?(connection)
            }
            try connection.setUserVersion(latestVersion)
            try connection.setApplicationID(applicationID)
        }
        return found
    }

    /// The tables and their columns that the first `version` migrations create, read from an
    /// in-memory database they are run on: how a file of that version looks, for recognising one.
    public func tables(atVersion version: Int32) throws -> [String: [String]] {
        let connection = try Connection(path: ":memory:")
        for migration in migrations.prefix(Int(version)) {
            try connection.execute(migration.sql)
        }
        return try connection.tableColumns()
    }
}

extension Connection {
    /// Every table and view, with its columns in order, leaving out SQLite's own (`sqlite_*`).
    public func tableColumns() throws(SQLiteError) -> [String: [String]] {
        let names = try prepare(
            "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
        var tables: [String: [String]] = [:]
        while try names.step() {
            guard let name = names.string(at: 0) else { continue }
            let columns = try prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")
            try columns.bind(name, at: 1)
            var list: [String] = []
            while try columns.step() { list.append(columns.string(at: 0) ?? "") }
            tables[name] = list
        }
        return tables
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

extension Migrator.Migration: ExpressibleByStringLiteral {
    /// A migration of SQL alone.
    public init(stringLiteral sql: String) {
        self.init(sql)
    }
}
