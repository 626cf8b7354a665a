import Glibc
import QuakesCore
import SQLite
import Synchronization

/// A database that does not exist yet, made in a file of its own beside where it goes
/// (`quakes.sqlite.tmp.PID.N`) and linked into place, whole, once its first write commits.
///
/// A first fetch is a bulk load, and a database in WAL mode writes each page twice: into the log,
/// then into the file when the log is checkpointed. The draft has no log (see
/// `DatabaseFile.createDraft`), and the database is switched to WAL once it is in place: a first
/// fetch of 200,000 features took a median 2.65 s this way against 3.23 s straight into WAL.
///
/// Readers see no database until the link, then all of the first write: never part of it, as
/// with WAL. A draft that never commits is deleted with its store; those that killed processes left
/// behind are deleted by the next draft put in place beside them.
///
/// Not `Sendable`: it belongs to the store actor, like its connection.
final class DatabaseDraft {
    /// Where the database goes.
    let destination: String
    /// The draft's own file.
    let path: String
    /// The draft's connection, the store's until the draft is put in place.
    let connection: Connection
    private var isPublished = false

    /// A new draft of the missing database at `destination`.
    init(of destination: String) throws(StoreError) {
        self.destination = destination
        let number = Self.made.add(1, ordering: .relaxed).newValue
        path = Self.draftPrefix(of: destination) + "\(getpid()).\(number)"
        unlink(path)  // Left by a killed process of the same number.
        connection = try DatabaseFile.createDraft(at: path, for: destination)
    }

    deinit {
        if !isPublished { unlink(path) }
    }

    /// Whether a file is at the destination now, made meanwhile by another process (a writer that
    /// took no writer lock): the draft cannot go there, and the store writes to that file instead.
    var isOvertaken: Bool {
        var status = stat()
        return lstat(destination, &status) == 0
    }

    /// Puts the draft in place, once its first write has committed (which flushed it to disk): linked
    /// to the destination, which must still be missing, and the folder flushed, so that the link
    /// survives a crash. The draft's connection holds no lock between transactions and has no file
    /// beside it, so the file changes under no one.
    func publish() throws(StoreError) {
        guard link(path, destination) == 0 else {
            let reason =
                errno == EEXIST
                ? "another program created it while this write went on; nothing was stored, try again"
                : "cannot put \(path) in its place: \(String(cString: strerror(errno)))"
            throw StoreError(path: destination, reason)
        }
        isPublished = true
        unlink(path)
        DatabaseFolder.flush(containing: destination)
        Self.removeAbandonedDrafts(of: destination)
    }

    /// How many drafts this process has made: each has a name of its own.
    private static let made = Atomic<Int>(0)

    /// `quakes.sqlite.tmp.`: a draft's name, less its process's number and its own.
    private static func draftPrefix(of destination: String) -> String {
        destination + ".tmp."
    }

    /// Deletes the drafts beside `destination` of processes that no longer run: once a database is
    /// in place, no draft of it can be put there, and a killed fetch's may be as large as its load.
    private static func removeAbandonedDrafts(of destination: String) {
        let prefix = FilePaths.name(of: draftPrefix(of: destination))
        let folder = FilePaths.parent(of: destination)
        guard let directory = opendir(folder.isEmpty ? "." : folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            let numbers = name.dropFirst(prefix.count).split(separator: ".")
            guard name.hasPrefix(prefix), numbers.count == 2, Int(numbers[1]) != nil, let process = pid_t(numbers[0]),
                process > 0,
                kill(process, 0) != 0, errno == ESRCH
            else { continue }
            unlink(FilePaths.appending(name, to: folder))
        }
    }
}
