import Glibc
import QuakesCore
import SQLite

/// Opens database files as every part of quakes needs them, after making sure a file is one of
/// quakes' own: another program's database is refused before anything touches it.
///
/// Writers (fetch, prune, a fetching watch) create (through a `DatabaseDraft`), upgrade and write the
/// file, in WAL mode, keeping its `-wal` and `-shm` files (with the database's own permissions) so
/// that users who can read the database but not write its folder can read it too. Readers (count,
/// list, show, history, status, `watch --no-fetch`) open it read-only and never write to it: a file
/// of an older schema waits for the next writer to upgrade it.
enum DatabaseFile {
    /// How long a statement waits for another process's lock before giving up.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    /// What a file at a database path is, found without changing it or creating anything beside it.
    enum Kind: Equatable {
        /// No file, or an empty one: a writer creates the database.
        case missing
        /// A quakes database, at this schema version.
        case quakes(version: Int32)
    }

    /// Finds what the file at `path` is, refusing files that are not quakes databases.
    ///
    /// The header says it at once for files quakes marked (`PRAGMA application_id`). A file of
    /// schema 1 or 2 predates the mark and is recognised by its tables; so is an SQLite file with no
    /// tables at all, which is empty. The look is taken without opening any `-wal`, `-shm` or
    /// journal file, so a refused file is left exactly as it was, with nothing new beside it.
    static func inspect(_ path: String) throws(StoreError) -> Kind {
        var status = stat()
        guard stat(path, &status) == 0 else {
            if errno == ENOENT { return .missing }
            throw StoreError(path: path, "cannot read it: \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw StoreError(path: path, "it is a folder") }
        guard status.st_size > 0 else { return .missing }
        let header = try readHeader(path)
        guard header.count == 100, header.starts(with: Array("SQLite format 3\0".utf8)) else {
            throw StoreError(path: path, "file is not a database")
        }
        func integer(at offset: Int) -> Int32 {
            Int32(bitPattern: header[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) })
        }
        let applicationID = integer(at: 68)
        if applicationID == Schema.applicationID {
            return .quakes(version: integer(at: 60))
        }
        guard applicationID == 0 else {
            throw StoreError(
                path: path, .foreign("it is marked as another program's (application id \(applicationID))"))
        }
        return try recognise(path)
    }

    /// Whether anything is at `path`, a link followed as SQLite follows it: a `stat`, which has no
    /// set-up to pay for on first use, as FileManager has.
    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0
    }

    /// A file without quakes' mark: empty, a quakes database of schema 1 or 2, or not ours.
    private static func recognise(_ path: String) throws(StoreError) -> Kind {
        do {
            // With both files beside it, a read-only connection creates nothing and sees what is
            // committed in the log too; without them, the main file is all there is, read as is.
            let hasLog = exists(path + "-wal") && exists(path + "-shm")
            let connection = try Connection(path: path, mode: hasLog ? .readOnly : .immutable)
            let tables = try connection.tableColumns()
            let version = try connection.userVersion()
            if try connection.applicationID() == Schema.applicationID { return .quakes(version: version) }
            if tables.isEmpty { return .missing }
            if let known = Schema.tablesByVersion[version], known == tables, version < Schema.migrator.latestVersion {
                return .quakes(version: version)
            }
            let names = tables.keys.sorted().prefix(3).joined(separator: ", ")
            throw StoreError(
                path: path, .foreign("it holds tables that are not quakes' (\(names)\(tables.count > 3 ? ", …" : ""))"))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: path, error)
        }
    }

    private static func readHeader(_ path: String) throws(StoreError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StoreError(path: path, "cannot read it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard let header = FileBytes.read(descriptor, upTo: 100) else {
            throw StoreError(path: path, "cannot read it: \(String(cString: strerror(errno)))")
        }
        return header
    }

    /// Checks, before a writer takes the lock beside it, that the file at `path` may be written:
    /// missing, or a quakes database this version understands. Creates nothing; reads the file, so
    /// callers run it off the cooperative pool.
    static func checkWritable(_ path: String) throws(StoreError) {
        if case let .quakes(version) = try inspect(path), version > Schema.migrator.latestVersion {
            throw StoreError(
                path: path, MigrationError.newerSchema(found: version, supported: Schema.migrator.latestVersion))
        }
    }

    /// Opens (creating it and its folders when missing, upgrading an older schema) the database at
    /// `path` for writing.
    static func openForWriting(at path: String) throws(StoreError) -> Connection {
        try openForWriting(at: path, as: path, draft: false)
    }

    /// Creates a new database at `path` (its folders too) to be put in place of the missing
    /// `database` later (`DatabaseDraft`): no one else reads it meanwhile, so it keeps its rollback
    /// journal in memory and has no log. SQLite journals no page past the size a file had when the
    /// transaction began, so for a new file the journal is next to nothing, and a rollback still
    /// works.
    static func createDraft(at path: String, for database: String) throws(StoreError) -> Connection {
        try openForWriting(at: path, as: database, draft: true)
    }

    /// The settings every writer's connection has; `database` is the path errors name.
    private static func openForWriting(at path: String, as database: String, draft: Bool) throws(StoreError)
        -> Connection
    {
        let kind = try inspect(path)
        do {
            if kind == .missing { try DatabaseFolder.create(for: path, database: database) }
            let connection = try Connection(path: path, mode: .readWriteCreate)
            connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            if draft {
                try connection.pragma("journal_mode = MEMORY")
            } else {
                // Kept, so that readers without write access to the folder find them (see above).
                try connection.keepWALFiles()
                // WAL lets readers go on while a fetch writes, and never shows them half a transaction.
                try connection.pragma("journal_mode = WAL")
                // Once checkpointed, the log is cut back to nothing rather than kept at its largest.
                try connection.pragma("journal_size_limit = 0")
            }
            // In WAL mode, NORMAL loses no committed transaction when the process dies, only
            // possibly the last ones on a power cut, and saves an fsync per commit. A draft's
            // commit still flushes the file to disk, before it is linked into place.
            try connection.execute("PRAGMA synchronous = NORMAL")
            try Schema.migrator.migrate(connection)
            return connection
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: database, error)
        }
    }

    /// Opens the database at `path` for reading; it must exist and be at the current schema.
    static func openForReading(at path: String) throws(StoreError) -> Connection {
        guard case let .quakes(found) = try inspect(path) else {
            throw StoreError(path: path, .missing)
        }
        let latest = Schema.migrator.latestVersion
        let hasLog = exists(path + "-wal")
        if found < latest, !hasLog {
            // Without a log, the header is the whole truth: refuse before anything is created.
            throw StoreError(path: path, .olderSchema(found: found, latest: latest))
        }
        do {
            let connection = try Connection(path: path, mode: .readOnly)
            connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            // The header may lag behind a log not yet checkpointed: the connection has the last word.
            let version = try connection.userVersion()
            guard version <= latest else {
                throw MigrationError.newerSchema(found: version, supported: latest)
            }
            guard version == latest, try connection.applicationID() == Schema.applicationID else {
                throw StoreError(path: path, .olderSchema(found: max(version, found), latest: latest))
            }
            return connection
        } catch let error as StoreError {
            throw error
        } catch let error as SQLiteError where error.isReadOnly {
            throw StoreError(
                path: path,
                "\(error.message): its -wal and -shm files are missing and this user cannot create them in its "
                    + "folder; a fetch by the database's owner puts them back")
        } catch {
            throw StoreError(path: path, error)
        }
    }
}
