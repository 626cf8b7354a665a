import CSQLite

/// One SQLite database connection, which owns its handle and closes it when released.
///
/// A connection is not `Sendable`: it belongs to one owner (in `quakes`, the store actor or a
/// reader), which uses it from one thread at a time. It is opened in SQLite's multi-thread mode
/// (`SQLITE_OPEN_NOMUTEX`), which is safe under that rule and saves a mutex per call.
public final class Connection {
    /// How `init(path:mode:)` opens the file.
    public enum OpenMode: Sendable {
        /// The file must exist; nothing may be written.
        case readOnly
        /// The file must exist.
        case readWrite
        /// The file is created when missing.
        case readWriteCreate
        /// The file must exist and is read as a file that nothing changes: no locks are taken and no
        /// `-wal`, `-shm` or journal file is opened or created beside it (the `immutable` URI
        /// parameter). For a quick look at a file that may not be a database of ours at all; a
        /// writer at work in another process is not seen, and may change the file under the reader.
        case immutable
    }

    /// Transaction kinds of `BEGIN`; see https://sqlite.org/lang_transaction.html.
    public enum TransactionKind: String, Sendable {
        /// Takes locks when the first statement needs them.
        case deferred = "DEFERRED"
        /// Takes the write lock at once, so a busy database fails at `BEGIN`, not halfway through.
        case immediate = "IMMEDIATE"
        /// Like `immediate`; in WAL mode the two are the same.
        case exclusive = "EXCLUSIVE"
    }

    private let openHandle: OpaquePointer
    /// The SQLite handle; a connection used after `close()` stops here rather than hand SQLite a
    /// freed one.
    var handle: OpaquePointer {
        precondition(!isClosed, "an SQLite connection used after close()")
        return openHandle
    }
    /// The file name the connection was opened with.
    public let path: String
    private var cachedStatements: [String: Statement] = [:]

    /// Opens the database at `path` (wraps `sqlite3_open_v2`).
    public init(path: String, mode: OpenMode = .readWriteCreate) throws(SQLiteError) {
        // SQLite is loaded by the first connection (see csqlite.h).
        if let reason = csqlite_load() {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: String(cString: reason))
        }
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .immutable: flags |= SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
        }
        let name = mode == .immutable ? Self.immutableURI(path) : path
        var opened: OpaquePointer?
        let result = csqlite_open_v2(name, &opened, flags, nil)
        guard result == SQLITE_OK, let opened else {
            let error = SQLiteError(resultCode: result, handle: opened)
            csqlite_close_v2(opened)
            throw error
        }
        openHandle = opened
        self.path = path
    }

    /// `file:PATH?immutable=1`, the path percent-encoded as SQLite's URI rules require.
    private static func immutableURI(_ path: String) -> String {
        var uri = "file:"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "%"), 0..<0x20, 0x7F...:
                uri += (byte < 0x10 ? "%0" : "%") + String(byte, radix: 16, uppercase: true)
            default:
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return uri + "?immutable=1"
    }

    /// True once `close()` has closed the handle.
    private var isClosed = false

    deinit {
        cachedStatements.removeAll()
        // close_v2 defers the close until every statement made from this connection is finalised.
        if !isClosed { csqlite_close_v2(openHandle) }
    }

    /// Closes the connection now (wraps `sqlite3_close`), for a file that must have no connection
    /// on it when it is moved: a release closes it only once every statement made from it is
    /// gone, which may be later. The cached statements are finalised; it fails, and the connection
    /// stays open, while any other statement made from it is alive. Nothing may use it afterwards.
    public func close() throws(SQLiteError) {
        guard !isClosed else { return }
        cachedStatements.removeAll()
        let result = csqlite_close(openHandle)
        guard result == SQLITE_OK else { throw SQLiteError(resultCode: result, handle: openHandle) }
        isClosed = true
    }

    /// `name` as an SQL identifier: in double quotes, any inside doubled.
    public static func quoted(_ name: String) -> String {
        "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    // MARK: - Statements

    /// Runs one or more statements that take no parameters and return no rows (wraps `sqlite3_exec`).
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let result = csqlite_exec(handle, sql, nil, nil, &message)
        // The connection's error state holds the same message, and the system error behind it.
        csqlite_free(message)
        guard result == SQLITE_OK else { throw SQLiteError(resultCode: result, handle: handle, sql: sql) }
    }

    /// Compiles `sql` into a new statement (wraps `sqlite3_prepare_v3`).
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        try Statement(connection: handle, sql: sql, persistent: false)
    }

    /// Returns the statement for `sql`, compiled once and then reused, reset and with no bindings.
    ///
    /// For statements run many times, such as the ingest upsert: compiling costs more than running.
    public func statement(_ sql: String) throws(SQLiteError) -> Statement {
        if let statement = cachedStatements[sql] {
            statement.reset()
            statement.clearBindings()
            return statement
        }
        let statement = try Statement(connection: handle, sql: sql, persistent: true)
        cachedStatements[sql] = statement
        return statement
    }

    // MARK: - Transactions

    /// Starts a transaction (`BEGIN`).
    public func begin(_ kind: TransactionKind = .deferred) throws(SQLiteError) {
        try execute("BEGIN \(kind.rawValue)")
    }

    /// Makes the open transaction permanent (`COMMIT`).
    public func commit() throws(SQLiteError) {
        try execute("COMMIT")
    }

    /// Undoes the open transaction (`ROLLBACK`); does nothing when none is open.
    ///
    /// SQLite may already have rolled back on its own after some errors (a full disk, for one),
    /// which is why this checks first instead of failing with "no transaction is active".
    public func rollback() throws(SQLiteError) {
        guard isInTransaction else { return }
        try execute("ROLLBACK")
    }

    /// Runs `body` in a transaction that commits when it returns and rolls back when it throws.
    public func transaction<Result>(
        _ kind: TransactionKind = .deferred,
        _ body: () throws -> Result
    ) throws -> Result {
        try begin(kind)
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            try? rollback()  // The error that made us roll back is the one worth reporting.
            throw error
        }
    }

    /// True between `BEGIN` and `COMMIT` or `ROLLBACK` (wraps `sqlite3_get_autocommit`).
    public var isInTransaction: Bool { csqlite_get_autocommit(handle) == 0 }

    // MARK: - State

    /// Rows changed by the last INSERT, UPDATE or DELETE (wraps `sqlite3_changes64`).
    public var changes: Int { Int(csqlite_changes64(handle)) }

    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`
    /// (wraps `sqlite3_busy_timeout`).
    public func setBusyTimeout(milliseconds: Int32) {
        csqlite_busy_timeout(handle, milliseconds)
    }

    /// The schema version an application keeps in the file header (`PRAGMA user_version`).
    public func userVersion() throws(SQLiteError) -> Int32 {
        let statement = try prepare("PRAGMA user_version")
        _ = try statement.step()
        return Int32(statement.int64(at: 0) ?? 0)
    }

    /// Sets `PRAGMA user_version`; pragmas take no parameters, so the integer is formatted in.
    public func setUserVersion(_ version: Int32) throws(SQLiteError) {
        try execute("PRAGMA user_version = \(version)")
    }

    /// The number an application writes into the file header to say the file is its own (`PRAGMA
    /// application_id`); 0 when none was set.
    public func applicationID() throws(SQLiteError) -> Int32 {
        let statement = try prepare("PRAGMA application_id")
        _ = try statement.step()
        return Int32(truncatingIfNeeded: statement.int64(at: 0) ?? 0)
    }

    /// Sets `PRAGMA application_id`; like `user_version`, it takes part in the transaction.
    public func setApplicationID(_ id: Int32) throws(SQLiteError) {
        try execute("PRAGMA application_id = \(id)")
    }

    /// Keeps the `-wal` and `-shm` files when the last connection closes, instead of deleting them
    /// (wraps `sqlite3_file_control` with `SQLITE_FCNTL_PERSIST_WAL`).
    ///
    /// SQLite creates them with the database file's permissions and owner, so users who may read
    /// the database but not write its folder can still open it: a reader of a WAL database needs
    /// both files, and cannot create them there.
    public func keepWALFiles() throws(SQLiteError) {
        var on: Int32 = 1
        let result = csqlite_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &on)
        guard result == SQLITE_OK else { throw SQLiteError(resultCode: result, handle: handle) }
    }

    /// Runs a pragma that returns a single value, such as `journal_mode`, and returns it as text.
    @discardableResult
    public func pragma(_ text: String) throws(SQLiteError) -> String? {
        let statement = try prepare("PRAGMA \(text)")
        guard try statement.step() else { return nil }
        return statement.string(at: 0)
    }
}
