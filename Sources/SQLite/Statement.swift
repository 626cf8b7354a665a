import CSQLite

/// SQLite's storage classes.
public enum ColumnType: Sendable {
    case integer, real, text, blob, null
}

/// A compiled SQL statement: bind parameters, step through rows, read columns, reset, repeat.
///
/// Parameter and column indexes follow SQLite: parameters count from 1, columns from 0.
/// Like its connection, a statement belongs to one owner and is finalised when released.
public final class Statement {
    let handle: OpaquePointer
    /// The SQL text the statement was compiled from, kept for error messages.
    public let sql: String

    init(connection: OpaquePointer, sql: String, persistent: Bool) throws(SQLiteError) {
        var compiled: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let result = csqlite_prepare_v3(connection, sql, -1, flags, &compiled, nil)
        guard result == SQLITE_OK, let compiled else {
            throw SQLiteError(resultCode: result == SQLITE_OK ? SQLITE_MISUSE : result, handle: connection, sql: sql)
        }
        handle = compiled
        self.sql = sql
    }

    deinit {
        csqlite_finalize(handle)
    }

    // MARK: - Binding

    /// Binds an integer, or NULL for `nil` (wraps `sqlite3_bind_int64`).
    public func bind(_ value: Int64?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        try check(csqlite_bind_int64(handle, index, value))
    }

    /// Binds an integer, or NULL for `nil`.
    public func bind(_ value: Int?, at index: Int32) throws(SQLiteError) {
        try bind(value.map(Int64.init), at: index)
    }

    /// Binds a real number, or NULL for `nil` (wraps `sqlite3_bind_double`).
    ///
    /// SQLite stores NaN as NULL; callers that care should not pass it.
    public func bind(_ value: Double?, at index: Int32) throws(SQLiteError) {
        guard let value else { return try bindNull(at: index) }
        try check(csqlite_bind_double(handle, index, value))
    }

    /// Binds text, or NULL for `nil`; SQLite copies it (wraps `sqlite3_bind_text64` with `SQLITE_TRANSIENT`).
    public func bind(_ value: String?, at index: Int32) throws(SQLiteError) {
        guard var value else { return try bindNull(at: index) }
        let result = value.withUTF8 { text in
            text.withMemoryRebound(to: CChar.self) { text in
                guard let start = text.baseAddress else { return bindEmptyText(at: index) }
                return csqlite_bind_text64(
                    handle, index, start, UInt64(text.count), csqlite_transient(),
                    UInt8(SQLITE_UTF8))
            }
        }
        try check(result)
    }

    /// Binds UTF-8 text without copying it (wraps `sqlite3_bind_text64` with `SQLITE_STATIC`).
    ///
    /// SQLite reads the bytes at every `step()` (and nowhere else this module calls): the caller
    /// keeps them alive and unchanged until the last step with this binding, and binds the
    /// parameter again (or clears the bindings, as `Connection.statement` does when it hands a
    /// cached statement out) before any later step. Use it for hot loops that bind from memory they
    /// own; `bind(_: String?, at:)` is the safe default.
    public func bind(unownedText text: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        guard let start = text.baseAddress, !text.isEmpty else { return try check(bindEmptyText(at: index)) }
        try check(
            csqlite_bind_text64(
                handle, index, start.assumingMemoryBound(to: CChar.self), UInt64(text.count),
                csqlite_static(), UInt8(SQLITE_UTF8)))
    }

    /// Binds '' — a NULL pointer would bind SQL NULL instead. SQLite copies the zero bytes at once.
    private func bindEmptyText(at index: Int32) -> Int32 {
        csqlite_bind_text64(handle, index, "", 0, csqlite_transient(), UInt8(SQLITE_UTF8))
    }

    /// Binds NULL (wraps `sqlite3_bind_null`).
    public func bindNull(at index: Int32) throws(SQLiteError) {
        try check(csqlite_bind_null(handle, index))
    }

    /// Sets every parameter back to NULL (wraps `sqlite3_clear_bindings`).
    public func clearBindings() {
        csqlite_clear_bindings(handle)
    }

    // MARK: - Running

    /// Runs the statement to its next row: true when a row is ready to read, false when done
    /// (wraps `sqlite3_step`).
    @discardableResult
    public func step() throws(SQLiteError) -> Bool {
        switch csqlite_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let result:
            // sqlite3_reset returns the step's error again and makes the statement reusable.
            csqlite_reset(handle)
            throw SQLiteError(resultCode: result, handle: csqlite_db_handle(handle), sql: sql)
        }
    }

    /// Rewinds the statement so it can run again; bindings are kept (wraps `sqlite3_reset`).
    public func reset() {
        csqlite_reset(handle)
    }

    /// Runs a statement that returns no rows, then resets it.
    public func run() throws(SQLiteError) {
        defer { reset() }
        while try step() {}
    }

    // MARK: - Reading columns

    /// The number of columns in each result row.
    public var columnCount: Int32 { csqlite_column_count(handle) }

    /// The name of result column `index`.
    public func columnName(at index: Int32) -> String {
        csqlite_column_name(handle, index).map { String(cString: $0) } ?? ""
    }

    /// The storage class of column `index` of the current row (wraps `sqlite3_column_type`).
    public func type(at index: Int32) -> ColumnType {
        switch csqlite_column_type(handle, index) {
        case SQLITE_INTEGER: .integer
        case SQLITE_FLOAT: .real
        case SQLITE_TEXT: .text
        case SQLITE_BLOB: .blob
        default: .null
        }
    }

    /// True when column `index` of the current row is NULL.
    public func isNull(at index: Int32) -> Bool {
        csqlite_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` as an integer, or nil for NULL (wraps `sqlite3_column_int64`).
    public func int64(at index: Int32) -> Int64? {
        isNull(at: index) ? nil : csqlite_column_int64(handle, index)
    }

    /// Column `index` as an integer, or nil for NULL.
    public func int(at index: Int32) -> Int? {
        int64(at: index).map { Int($0) }
    }

    /// Column `index` as a real number, or nil for NULL (wraps `sqlite3_column_double`).
    public func double(at index: Int32) -> Double? {
        isNull(at: index) ? nil : csqlite_column_double(handle, index)
    }

    /// Column `index` as text, or nil for NULL (wraps `sqlite3_column_text`).
    public func string(at index: Int32) -> String? {
        guard let text = csqlite_column_text(handle, index) else { return nil }
        let count = Int(csqlite_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Calls `body` with the UTF-8 bytes of column `index`, valid only during the call, or nil for NULL.
    ///
    /// Saves building a `String` when the bytes only pass through, as when writing output.
    public func withText<Result>(at index: Int32, _ body: (UnsafeRawBufferPointer?) throws -> Result) rethrows
        -> Result
    {
        guard let text = csqlite_column_text(handle, index) else { return try body(nil) }
        let count = Int(csqlite_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: text, count: count))
    }

    // MARK: - Private

    private func check(_ result: Int32) throws(SQLiteError) {
        guard result == SQLITE_OK else {
            throw SQLiteError(resultCode: result, handle: csqlite_db_handle(handle), sql: sql)
        }
    }
}
