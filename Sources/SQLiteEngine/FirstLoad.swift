import Glibc
import QuakesCore
import SQLite

/// The first ingest into an empty database that a store created, loaded into a new file beside it
/// (`quakes.sqlite-new`) and renamed over it when it commits.
///
/// A first fetch brings most of the rows a database will ever hold, and loading them through the
/// WAL writes every page twice: into the log, then into the file when the log is checkpointed. A
/// file that no reader sees needs no log: the load goes in with its rollback journal in memory (an
/// ingest rolled back leaves it as it was) and without syncs, is flushed to disk once, and replaces
/// the empty database whole; readers read the empty one until then, as they would have. The store
/// then opens the file again in WAL mode, as any database.
///
/// Only a database that was never in WAL mode is replaced: with no `-wal` or `-shm` beside it,
/// nothing of the old file's log can be taken for the new one's. It must be empty, a plain file of
/// this user's with no other link to it, and its write lock is held from that check to the rename,
/// so no write to it is lost; a writer whose connection still has the old file sees that the file
/// at the path is another when it next takes the write lock, and opens it again (`SQLiteStore`).
/// A writer killed during a first load leaves the empty database as it was and the new file beside
/// it, which the next writer removes.
struct FirstLoad {
    /// The database the load replaces.
    let path: String
    /// The new file, in the load's transaction.
    let connection: Connection

    /// The name the new file is loaded under, beside the database.
    static func loadingPath(for path: String) -> String { path + "-new" }

    private var loadingPath: String { Self.loadingPath(for: path) }

    /// Begins a first load to replace the database at `path`, on which `connection` holds the write
    /// lock, when it may be replaced (see above); nil when it may not, and is written as it is.
    static func begin(replacing path: String, openedBy connection: Connection) throws -> FirstLoad? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_nlink == 1,
            status.st_uid == geteuid(), !DatabaseFile.exists(path + "-wal"), !DatabaseFile.exists(path + "-shm"),
            try holdsNothing(connection), removeLeftover(beside: path)
        else { return nil }
        let loading = loadingPath(for: path)
        do {
            let load = try Connection(path: loading, mode: .readWriteCreate)
            // Rolled back from memory; flushed once, by `publish`.
            _ = try load.pragma("journal_mode = MEMORY")
            try load.execute("PRAGMA synchronous = OFF")
            try Schema.migrator.migrate(load)
            try load.begin(.immediate)
            return FirstLoad(path: path, connection: load)
        } catch {
            unlink(loading)
            throw error
        }
    }

    /// Puts the committed load in place of the empty database: given the database's permissions,
    /// flushed to disk, renamed over it, and the folder flushed, so that after a crash the path
    /// holds the empty database or the whole load, never a part of it.
    func publish() throws(StoreError) {
        let loading = loadingPath
        func failure(_ doing: String, _ code: Int32 = errno) -> StoreError {
            StoreError(path: path, "cannot \(doing): \(String(cString: strerror(code)))")
        }
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure("read \(path)") }
        let descriptor = open(loading, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure("open \(loading)") }
        var problem: (doing: String, code: Int32)?
        if fchmod(descriptor, status.st_mode & 0o7777) != 0 {
            problem = ("set the mode of \(loading)", errno)
        } else if fsync(descriptor) != 0 {
            problem = ("flush \(loading) to disk", errno)
        }
        close(descriptor)
        if let problem { throw failure(problem.doing, problem.code) }
        guard rename(loading, path) == 0 else { throw failure("rename \(loading) to \(path)") }
        DatabaseFolder.flush(containing: path)
    }

    /// Gives the load up: its transaction rolled back and its file removed.
    func abandon() {
        try? connection.rollback()
        unlink(loadingPath)
    }

    /// Removes the file a first load left beside the database at `path` when its writer was
    /// killed. Only the writer holding the database's write lock calls this: no first load is under
    /// way then. Something that is not a database of quakes' is left alone, and false returned.
    @discardableResult
    static func removeLeftover(beside path: String) -> Bool {
        let loading = loadingPath(for: path)
        var status = stat()
        guard lstat(loading, &status) == 0 else { return errno == ENOENT }
        guard status.st_mode & S_IFMT == S_IFREG else { return false }
        switch try? DatabaseFile.inspect(loading) {
        case .missing?, .quakes?: return unlink(loading) == 0
        case nil: return false
        }
    }

    /// True when no table of the database holds a row (`sqlite_sequence` among them: a token once
    /// given is never given again).
    static func holdsNothing(_ connection: Connection) throws -> Bool {
        let tables = try connection.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
        var names: [String] = []
        while try tables.step() {
            if let name = tables.string(at: 0) { names.append(name) }
        }
        for name in names {
            let rows = try connection.prepare("SELECT EXISTS (SELECT 1 FROM \(Connection.quoted(name)))")
            guard try rows.step(), rows.int64(at: 0) == 0 else { return false }
        }
        return true
    }
}
