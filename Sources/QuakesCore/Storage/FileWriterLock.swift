import Glibc

/// The right to write a database file, held by one quakes process at a time: an exclusive `flock`
/// on a lock file beside the database (`quakes.sqlite.lock`, `m45.geojson.lock`), for every engine
/// whose database is a file on this machine.
///
/// The kernel releases the lock when the process ends, however it ends, so a crashed or killed
/// fetch never leaves a stale lock behind. Readers take no lock: they read a snapshot (SQLite's WAL,
/// a GeoJSON file replaced by a rename) while a fetch writes.
package final class FileWriterLock: WriterLease {
    /// The lock file.
    let path: String
    private let descriptor: Int32

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// Takes the lock of the database at `database`, waiting up to `wait` seconds for another process
    /// to let go of it.
    package static func acquire(forDatabase database: String, waiting wait: Double) async throws -> FileWriterLock {
        let path = database + ".lock"
        try DatabaseFolder.create(for: path, database: database)
        // 0666 less the umask, as for any file the user creates.
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else {
            throw StoreError(path: database, "cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, wait) * 1000))
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw StoreError(path: database, "cannot lock \(path): \(reason)")
            }
            guard ContinuousClock.now < deadline else {
                close(descriptor)
                throw LockedError(database: database)
            }
            do {
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                close(descriptor)
                throw error
            }
        }
        return FileWriterLock(path: path, descriptor: descriptor)
    }
}
