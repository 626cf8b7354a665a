import Bytes

/// Rows on their way to a `COPY … FROM STDIN`, encoded (`PostgresCopyRows`) and sent in chunks;
/// `PostgresConnection.copy(_:_:)` lends one to the code that produces the rows.
///
/// It cannot be copied, so no copy of it outlives the COPY it belongs to.
public struct PostgresCopyWriter: ~Copyable {
    /// About 64 KB per `PQputCopyData`: large enough that the per-call cost disappears, small enough
    /// that the server parses and stores the first rows while the next are written (a megabyte, as
    /// before, held back the whole of a typical ingest batch until its last row), and that a
    /// load of millions of rows never holds them all.
    static let chunkSize = 1 << 16

    private let connection: PostgresConnection
    private var rows: PostgresCopyRows

    /// Rows appended so far.
    public var rowCount: Int {
        rows.rowCount
    }

    /// A writer that sends `rows`, and those appended after them.
    init(connection: PostgresConnection, rows: consuming PostgresCopyRows) {
        self.connection = connection
        self.rows = rows
    }

    /// Adds one row; its values must match the columns the COPY statement names, in order (see
    /// `PostgresCopyRows.append(_:)`).
    public mutating func append(_ row: [PostgresValue?]) throws(PostgresError) {
        try rows.append(row)
        if rows.buffer.count >= Self.chunkSize { try flush() }
    }

    /// Sends the rows encoded so far (in `chunkSize` messages, `PostgresConnection.sendCopyData`).
    private mutating func flush() throws(PostgresError) {
        let sql = rows.sql
        let connection = connection
        // withUnsafeBufferPointer rethrows untyped errors; the Result keeps the type.
        try rows.buffer.withUnsafeBufferPointer { bytes in
            Result { () throws(PostgresError) in try connection.sendCopyData(UnsafeRawBufferPointer(bytes), sql: sql) }
        }.get()
        rows.removeSentBytes()
    }

    /// Sends the last rows, ends the COPY and returns the number of rows the server stored.
    consuming func finish() throws(PostgresError) -> Int {
        rows.end()
        do throws(PostgresError) {
            try flush()
        } catch {
            connection.abortCopy(reason: "quakes could not send the rows: \(error.message)")
            throw error
        }
        return try connection.endCopy(sql: rows.sql)
    }
}

/// The type of a column that a binary COPY fills, which decides how its values are written.
public enum PostgresColumnType: Sendable, Equatable {
    case text
    /// `bigint` (int8).
    case bigint
    /// `integer` (int4).
    case integer
    /// `double precision` (float8).
    case double
    case boolean
}
