import Glibc

/// The right to write a database file, held by one quakes process at a time: an exclusive `flock`
/// on a lock file beside the database (`quakes.sqlite.lock`, `m45.geojson.lock`), for every engine
/// whose database is a file on this machine.
///
/// The kernel releases the lock when the process ends, however it ends, so a crashed or killed
/// fetch never leaves a stale lock behind. Readers take no lock: they read a snapshot (SQLite's WAL,
/// a GeoJSON file replaced by a rename) while a fetch writes.
///
/// A write that leaves no database (a first fetch whose source was missing) leaves no lock file
/// either: the holder removes it before it lets go. So a process that waited on the file checks,
/// once it holds the lock, that the file it locked is still the one at the path, and opens the path
/// again when it is not: two processes never hold locks on two different files.
package final class FileWriterLock: WriterLease {
    /// The lock file.
    let path: String
    /// The database it guards.
    private let database: String
    private let descriptor: Int32

    private init(path: String, database: String, descriptor: Int32) {
        self.path = path
        self.database = database
        self.descriptor = descriptor
    }

    deinit {
        // Still holding the lock: no other process may take this file meanwhile and find it gone.
        if access(database, F_OK) != 0 { unlink(path) }
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Takes the lock of the database at `database`, waiting up to `wait` seconds for another process
    /// to let go of it.
    package static func acquire(forDatabase database: String, waiting wait: Double) async throws -> FileWriterLock {
        let path = database + ".lock"
        try DatabaseFolder.create(for: path, database: database)
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, wait) * 1000))
        while true {
            let descriptor = try open(path, for: database)
            do {
                try await lock(descriptor, path: path, database: database, until: deadline)
            } catch {
                close(descriptor)
                throw error
            }
            if isStillAt(path, descriptor) {
                return FileWriterLock(path: path, database: database, descriptor: descriptor)
            }
            // The holder before removed the file it let go of: lock the one at the path now.
            close(descriptor)
        }
    }

    /// Opens, or creates, the lock file: 0666 less the umask, as for any file the user creates.
    private static func open(_ path: String, for database: String) throws -> Int32 {
        let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard descriptor < 0 else { return descriptor }
        let failure = errno
        let reason = String(cString: strerror(failure))
        if failure == EACCES || failure == EROFS, access(path, F_OK) != 0 {
            let folder = FilePaths.parent(of: path)
            throw StoreError(
                path: database,
                "cannot create the lock file \(path): the folder \(folder.isEmpty ? "." : folder) is not writable (\(reason))"
            )
        }
        throw StoreError(path: database, "cannot open the lock file \(path): \(reason)")
    }

    /// Takes the `flock` on `descriptor`, trying again until `deadline`.
    private static func lock(
        _ descriptor: Int32, path: String, database: String, until deadline: ContinuousClock.Instant
    )
        async throws
    {
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw StoreError(path: database, "cannot lock \(path): \(String(cString: strerror(errno)))")
            }
            guard ContinuousClock.now < deadline else { throw LockedError(database: database) }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// True when the file `descriptor` locked is the one at `path` still.
    private static func isStillAt(_ path: String, _ descriptor: Int32) -> Bool {
        var atPath = stat()
        var locked = stat()
        guard stat(path, &atPath) == 0, fstat(descriptor, &locked) == 0 else { return false }
        return atPath.st_dev == locked.st_dev && atPath.st_ino == locked.st_ino
    }
}
