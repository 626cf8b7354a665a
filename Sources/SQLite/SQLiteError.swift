import CSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// A failed SQLite call: SQLite's own result codes and message, and the SQL that was running.
///
/// Keeping the extended code lets callers tell a busy database (`SQLITE_BUSY`) from a full disk
/// (`SQLITE_FULL`) or a damaged file (`SQLITE_NOTADB`) without parsing messages.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code, such as `SQLITE_BUSY` or `SQLITE_CONSTRAINT`.
    public let code: Int32
    /// The extended result code, such as `SQLITE_CONSTRAINT_PRIMARYKEY`.
    public let extendedCode: Int32
    /// SQLite's message for the failure.
    public let message: String
    /// The statement that failed, when there was one.
    public let sql: String?

    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    /// Reads the error state of `handle` after a call returned `resultCode` (wraps `sqlite3_errmsg`).
    init(resultCode: Int32, handle: OpaquePointer?, sql: String? = nil) {
        let extended = handle.map { csqlite_extended_errcode($0) } ?? resultCode
        var message: String
        if let handle, let text = csqlite_errmsg(handle) {
            message = String(cString: text)
        } else {
            message = String(cString: csqlite_errstr(resultCode))
        }
        // "disk I/O error" alone does not say that the disk is full or a file size limit was hit;
        // the system's error does.
        let primary = resultCode & 0xff
        if let handle, primary == SQLITE_IOERR || primary == SQLITE_FULL || primary == SQLITE_CANTOPEN {
            let number = csqlite_system_errno(handle)
            if number != 0, let reason = strerror(number) { message += " (\(String(cString: reason)))" }
        }
        self.init(code: resultCode & 0xff, extendedCode: extended, message: message, sql: sql)
    }

    public var description: String {
        var text = "\(message) (SQLite error \(extendedCode))"
        if let sql { text += " in '\(sql)'" }
        return text
    }

    /// True when a read-only connection or file was asked to write (`SQLITE_READONLY`).
    public var isReadOnly: Bool { code == SQLITE_READONLY }

    /// True when another connection holds a lock that outlasted the busy timeout.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
}
