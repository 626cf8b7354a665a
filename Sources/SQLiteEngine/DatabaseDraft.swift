import Glibc
import QuakesCore
import SQLite

/// A database that does not exist yet, made in a file of its own beside where it goes
/// (`quakes.sqlite.tmp.PID.RANDOM`) and linked into place, whole, once its first write commits.
///
/// A first fetch is a bulk load, and a database in WAL mode writes each page twice: into the log,
/// then into the file at the checkpoint. Until its first write has committed, the draft has no log
/// (`DatabaseFile.createDraft`); it is switched to WAL and closed before it is put in place, so the
/// load writes each page once.
///
/// Readers see no database until the link, then all of the first write: never part of it, as with
/// WAL. There is no empty database meanwhile for another program to hold open, as there would be
/// were the load renamed over an empty database. The draft's process holds an `flock` on it while
/// it lives, so a draft nobody holds is known to be abandoned (a killed
/// fetch's), whatever process namespace made it, and the next database put in place beside it
/// removes it; a draft that never commits goes with its store.
///
/// Not `Sendable`: it belongs to the store actor, like its connection.
final class DatabaseDraft {
    /// Where the database goes.
    let destination: String
    /// The draft's own file.
    let path: String
    /// The draft's connection, the store's until the draft is put in place.
    let connection: Connection
    /// The descriptor whose `flock` says the draft is in use.
    private let holder: Int32
    private var isPublished = false

    private init(destination: String, path: String, holder: Int32, connection: Connection) {
        self.destination = destination
        self.path = path
        self.holder = holder
        self.connection = connection
    }

    deinit {
        if !isPublished { unlink(path) }
        close(holder)
    }

    /// True when nothing at all is at `path`, not even an empty file or a dangling link: only then
    /// is a database made in a draft (an empty file there is made a database in place, without one).
    static func isMissing(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) != 0 && errno == ENOENT
    }

    /// A draft of the missing database at `destination`; nil when its folder cannot link files (a
    /// FAT or some network file systems), where the database is made in place instead.
    static func make(for destination: String) throws(StoreError) -> DatabaseDraft? {
        try DatabaseFolder.create(for: destination, database: destination)
        let path = newName(for: destination)
        // 0644 less the umask, the mode SQLite gives a database it creates.
        let holder = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard holder >= 0 else {
            throw StoreError(path: destination, "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        flock(holder, LOCK_EX)
        func discard() {
            unlink(path)
            close(holder)
        }
        // Named as a draft, so that one a killed process left is removed as a draft is.
        let probe = newName(for: destination)
        guard link(path, probe) == 0 else {
            discard()
            return nil
        }
        unlink(probe)
        do {
            let connection = try DatabaseFile.createDraft(at: path, for: destination)
            return DatabaseDraft(destination: destination, path: path, holder: holder, connection: connection)
        } catch {
            discard()
            throw error
        }
    }

    /// Whether something is at the destination now, made meanwhile by another process (`watch`
    /// makes its draft before it takes the writer lock): the draft can no longer go there.
    var isOvertaken: Bool {
        !Self.isMissing(destination)
    }

    /// Puts the draft in place, once its first write has committed, which flushed it to disk: in
    /// WAL mode and closed first, so that no connection is on it as it moves and no reader ever
    /// sees it in another mode; then linked to the destination, which must still be missing, and
    /// the folder flushed, so that the link survives a crash. The connection may not be used again,
    /// whatever this throws.
    func publish() throws(StoreError) {
        do {
            guard try connection.pragma("journal_mode = WAL") == "wal" else {
                throw StoreError(path: destination, "cannot put \(path) in WAL mode; nothing was stored")
            }
            try connection.close()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(path: destination, error)
        }
        let overtaken = "another program created it while this write went on; nothing was stored, try again"
        // A `-wal`, `-shm` or `-journal` that a deleted database left would be taken for the new
        // one's (SQLite replays a log into any database of that name): with no database there,
        // they are no one's. Never those of a database that appeared meanwhile.
        guard !isOvertaken else { throw StoreError(path: destination, overtaken) }
        for suffix in ["-wal", "-shm", "-journal"] { unlink(destination + suffix) }
        guard link(path, destination) == 0 else {
            let reason =
                errno == EEXIST
                ? overtaken
                : "cannot put \(path) in its place (\(String(cString: strerror(errno)))); nothing was stored"
            throw StoreError(path: destination, reason)
        }
        isPublished = true
        unlink(path)
        DatabaseFolder.flush(containing: destination)
        Self.removeAbandonedDrafts(of: destination)
    }

    /// `quakes.sqlite.tmp.`: a draft's name, less its process's number and its own.
    private static func draftPrefix(of destination: String) -> String {
        destination + ".tmp."
    }

    /// `quakes.sqlite.tmp.PID.RANDOM`: a name for a new draft, or its probe, that no other has.
    private static func newName(for destination: String) -> String {
        draftPrefix(of: destination) + "\(getpid()).\(String(UInt64.random(in: .min ... .max), radix: 16))"
    }

    /// Deletes the drafts beside `destination` that no process holds: once a database is in place,
    /// no draft of it can go there, and a killed fetch's may be as large as its load. (A draft made
    /// at this very moment, between its creation and its `flock`, would be taken for abandoned; its
    /// store then finds the database in place and writes there.) Only regular files named as
    /// drafts are looked at.
    private static func removeAbandonedDrafts(of destination: String) {
        let prefix = FilePaths.name(of: draftPrefix(of: destination))
        let parent = FilePaths.parent(of: destination)
        let folder = parent.isEmpty ? "." : parent
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            let parts = name.dropFirst(prefix.count).split(separator: ".", omittingEmptySubsequences: false)
            guard name.hasPrefix(prefix), parts.count == 2, pid_t(parts[0]) != nil, UInt64(parts[1], radix: 16) != nil
            else { continue }
            let draft = FilePaths.appending(name, to: folder)
            // Read and write: where `flock` is emulated with `fcntl` locks (NFS), an exclusive one
            // needs a descriptor open for writing.
            let descriptor = open(draft, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
            guard descriptor >= 0 else { continue }
            var status = stat()
            if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                flock(descriptor, LOCK_EX | LOCK_NB) == 0
            {
                unlink(draft)
            }
            close(descriptor)
        }
    }
}
