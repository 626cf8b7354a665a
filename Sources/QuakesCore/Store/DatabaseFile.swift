import Foundation
import SQLite

/// Opens database files as every part of quakes needs them: WAL mode, a busy timeout, the schema
/// brought up to date.
enum DatabaseFile {
    /// How long a statement waits for another process's lock before giving up.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    /// Opens (creating it and its folders when missing) the database at `path` for writing.
    static func openForWriting(at path: String) throws(StoreError) -> Connection {
        do {
            try createParentDirectory(of: path)
            let connection = try Connection(path: path, mode: .readWriteCreate)
            connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            // WAL lets readers go on while a fetch writes, and never shows them half a transaction.
            try connection.pragma("journal_mode = WAL")
            // In WAL mode, NORMAL loses no committed transaction when the process dies, only
            // possibly the last ones on a power cut, and saves an fsync per commit.
            try connection.execute("PRAGMA synchronous = NORMAL")
            try Schema.migrator.migrate(connection)
            return connection
        } catch {
            throw StoreError(path: path, error)
        }
    }

    /// Opens the database at `path` for reading; it must exist.
    static func openForReading(at path: String) throws(StoreError) -> Connection {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(path: path, .missing)
        }
        do {
            let connection = try Connection(path: path, mode: .readOnly)
            connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            let version = try connection.userVersion()
            guard version <= Schema.migrator.latestVersion else {
                throw MigrationError.newerSchema(found: version, supported: Schema.migrator.latestVersion)
            }
            guard version == Schema.migrator.latestVersion else {
                // An older file: the next fetch upgrades it; until then, upgrade it now.
                return try upgradeThenReopen(path)
            }
            return connection
        } catch {
            throw StoreError(path: path, error)
        }
    }

    private static func upgradeThenReopen(_ path: String) throws -> Connection {
        _ = try openForWriting(at: path)
        let connection = try Connection(path: path, mode: .readOnly)
        connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        return connection
    }

    private static func createParentDirectory(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) else { return }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw StoreError(path: path, "cannot create the folder \(folder): \(describeFileError(error))")
        }
    }
}

extension StoreError {
    init(path: String, _ reason: Reason) {
        self.path = path
        self.reason = reason
    }

    init(path: String, _ text: String) {
        self.init(path: path, .other(text))
    }
}

/// A Foundation file error as the short phrase `strerror` would give, where there is one.
func describeFileError(_ error: any Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
        return String(cString: strerror(Int32(underlying.code)))
    }
    if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
    return nsError.localizedDescription
}
