import Bytes

#if canImport(Glibc)
    import Glibc
#endif

/// Rows encoded in COPY's text or binary format, apart from any connection: what a
/// `PostgresCopyWriter` sends in chunks as rows are written, or what a caller encodes ahead and
/// `PostgresConnection.copy(encoded:)` sends. An ingest encodes a batch's rows while the
/// server stores the batch before, so that the server is not kept waiting while they are encoded.
public struct PostgresCopyRows: Sendable {
    /// COPY's text format, or its binary format with the columns' types. The binary format spares
    /// the server parsing the text of every number and escape: a fresh ingest of 200,000 events
    /// spent a fifth less of the server's time loading `quake` so.
    public enum Format: Sendable {
        case text
        case binary([PostgresColumnType])
    }

    /// The COPY statement as sent, `WITH (FORMAT binary)` added for the binary format.
    let sql: String
    let format: Format
    /// Written through a pointer (`ByteBuffer`): a row of a fetch is some 70 runs of bytes, which
    /// `Array.append(contentsOf:)` made a fifth of a PostgreSQL ingest's time in quakes.
    private(set) var buffer: ByteBuffer
    /// Rows appended so far.
    public private(set) var rowCount = 0
    /// The columns' types in the binary format (none in the text format), and the field that comes
    /// next in the row `appendRow` writes, if it is writing one.
    private let types: [PostgresColumnType]
    private var fieldIndex = 0
    private var inRow = false

    /// Rows for `sql`, a `COPY table (columns) FROM STDIN`, in `format`.
    public init(for sql: String, format: Format) {
        self.format = format
        buffer = ByteBuffer(capacity: 1 << 16)
        guard case .binary(let types) = format else {
            self.sql = sql
            types = []
            return
        }
        self.types = types
        self.sql = sql + " WITH (FORMAT binary)"
        // The signature, then no flags and no header extension.
        ([UInt8]("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00]).withUnsafeBufferPointer { buffer.append($0) }
        appendBigEndian(Int32(0))
        appendBigEndian(Int32(0))
    }

    /// Adds one row; its values must match the columns the COPY statement names, in order.
    ///
    /// NULL is written `\N`, and a backslash, tab, newline or carriage return inside a value is
    /// escaped (`\\`, `\t`, `\n`, `\r`), so any text arrives as it was. Text containing NUL is
    /// refused, as the server would refuse it.
    public mutating func append(_ row: [PostgresValue?]) throws(PostgresError) {
        guard case .text = format else { return try appendBinaryFields(of: row) }
        let rowStart = buffer.count
        do throws(PostgresError) {
            try appendFields(of: row)
            buffer.append(UInt8(ascii: "\n"))
        } catch {
            // A refused row leaves nothing behind, so that rows appended after it stay whole.
            buffer.truncate(to: rowStart)
            throw error
        }
        rowCount += 1
    }

    private mutating func appendFields(of row: [PostgresValue?]) throws(PostgresError) {
        for index in row.indices {
            let value = row[index]
            if index > 0 { buffer.append(UInt8(ascii: "\t")) }
            guard let value else {
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(UInt8(ascii: "N"))
                continue
            }
            switch value {
            case .text(let text): try appendEscaped(text)
            case .integer(let integer): buffer.appendDecimal(integer)
            case .real(let real): appendUTF8(PostgresValue.text(of: real))
            case .bool(let bool): buffer.append(bool ? UInt8(ascii: "t") : UInt8(ascii: "f"))
            }
        }
    }

    /// A row in the binary format, from its values (see `appendRow`).
    private mutating func appendBinaryFields(of row: [PostgresValue?]) throws(PostgresError) {
        try appendRow { rows throws(PostgresError) in
            // By index, not `for in`: in the debug builds the tests run, each step of an
            // unspecialised iterator queues on the Swift runtime's lock for its element's type.
            for index in row.indices {
                switch row[index] {
                case nil: try rows.appendNull()
                case .text(let text)?: try rows.appendField(text)
                case .integer(let integer)?: try rows.appendField(integer)
                case .real(let real)?: try rows.appendField(real)
                case .bool(let bool)?: try rows.appendField(bool)
                }
            }
        }
    }

    /// Adds one row in the binary format, its fields written by `body`, one call a column in the
    /// columns' order, with no `[PostgresValue?]` built: an ingest that built and freed an array
    /// of values for each event spent more on that than on the encoding. Each field is checked
    /// against its column's type, and the row against the number of columns; when `body` or a
    /// check throws (text holding NUL, say), the row leaves nothing behind.
    public mutating func appendRow(_ body: (inout PostgresCopyRows) throws(PostgresError) -> Void)
        throws(PostgresError)
    {
        guard case .binary = format, !inRow else {
            throw PostgresError(message: "rows written field by field need the binary format, one at a time", sql: sql)
        }
        let rowStart = buffer.count
        fieldIndex = 0
        inRow = true
        defer { inRow = false }
        appendBigEndian(Int16(types.count))
        do throws(PostgresError) {
            try body(&self)
            guard fieldIndex == types.count else {
                throw PostgresError(message: "a row of \(fieldIndex) values for \(types.count) columns", sql: sql)
            }
        } catch {
            buffer.truncate(to: rowStart)
            throw error
        }
        rowCount += 1
    }

    /// NULL, in the next field of the row `appendRow` writes (its `body` only may call this and
    /// the `appendField`s).
    public mutating func appendNull() throws(PostgresError) {
        _ = try nextField(.null)
        appendBigEndian(Int32(-1))
        fieldWritten()
    }

    /// `text`, or NULL, in the next field of the row `appendRow` writes, a `text` column.
    public mutating func appendField(_ text: String?) throws(PostgresError) {
        guard let text else { return try appendNull() }
        _ = try nextField(.text)
        try appendRaw(text)
        fieldWritten()
    }

    /// `integer`, or NULL, in the next field of the row `appendRow` writes, a `bigint` or an
    /// `integer` column (where it must fit in 32 bits).
    public mutating func appendField(_ integer: Int64?) throws(PostgresError) {
        guard let integer else { return try appendNull() }
        if try nextField(.integer) == .bigint {
            appendBigEndian(Int32(8))
            appendBigEndian(integer)
        } else {
            guard let narrow = Int32(exactly: integer) else {
                throw PostgresError(
                    message: "integer out of range: \(integer) in an integer column", sqlState: "22003", sql: sql)
            }
            appendBigEndian(Int32(4))
            appendBigEndian(narrow)
        }
        fieldWritten()
    }

    /// `real`, or NULL, in the next field of the row `appendRow` writes, a `double precision` column.
    public mutating func appendField(_ real: Double?) throws(PostgresError) {
        guard let real else { return try appendNull() }
        _ = try nextField(.real)
        appendBigEndian(Int32(8))
        appendBigEndian(real.bitPattern)
        fieldWritten()
    }

    /// `bool`, or NULL, in the next field of the row `appendRow` writes, a `boolean` column.
    public mutating func appendField(_ bool: Bool?) throws(PostgresError) {
        guard let bool else { return try appendNull() }
        _ = try nextField(.bool)
        appendBigEndian(Int32(1))
        buffer.append(bool ? 1 : 0)
        fieldWritten()
    }

    /// What a field holds, to check against its column's type.
    private enum FieldKind: String {
        case null, text, integer, real, bool
    }

    /// The type of the row's next column, once checked to suit `kind`. The field moves past it only
    /// once its bytes are written (`fieldWritten`), so that a `body` that catches a refused field
    /// and goes on leaves a row one field short, which `appendRow` refuses.
    private func nextField(_ kind: FieldKind) throws(PostgresError) -> PostgresColumnType {
        guard inRow, fieldIndex < types.count else {
            throw PostgresError(
                message: inRow ? "a row of more values than its \(types.count) columns" : "a field outside a row",
                sql: sql)
        }
        let type = types[fieldIndex]
        switch (kind, type) {
        case (.null, _), (.text, .text), (.integer, .bigint), (.integer, .integer), (.real, .double), (.bool, .boolean):
            return type
        default:
            throw PostgresError(message: "a value of kind \(kind.rawValue) in a column of type \(type)", sql: sql)
        }
    }

    private mutating func fieldWritten() {
        fieldIndex += 1
    }

    /// Text as its length and its UTF-8 bytes: the binary format needs no escapes, but text still
    /// cannot hold NUL.
    private mutating func appendRaw(_ text: String) throws(PostgresError) {
        let utf8 = text.utf8
        guard let length = Int32(exactly: utf8.count) else {
            throw PostgresError(message: "a text of \(utf8.count) bytes, more than COPY carries", sql: sql)
        }
        let fieldStart = buffer.count
        appendBigEndian(length)
        let start = buffer.count
        appendUTF8(text)
        let hasNUL = buffer.withUnsafeBufferPointer { memchr($0.baseAddress! + start, 0, $0.count - start) != nil }
        if hasNUL {
            buffer.truncate(to: fieldStart)
            throw PostgresConnection.nulError(sql: sql)
        }
    }

    private mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append($0) }
    }

    private mutating func appendBigEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        buffer.appendBigEndian(value)
    }

    private mutating func appendEscaped(_ text: String) throws(PostgresError) {
        // Most text has nothing to escape, and is copied whole.
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where Self.isSpecial(byte) { return false }
            buffer.append(bytes)
            return true
        }
        if copied == true { return }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): appendEscape(UInt8(ascii: "\\"))
            case UInt8(ascii: "\t"): appendEscape(UInt8(ascii: "t"))
            case UInt8(ascii: "\n"): appendEscape(UInt8(ascii: "n"))
            case UInt8(ascii: "\r"): appendEscape(UInt8(ascii: "r"))
            case 0: throw PostgresConnection.nulError(sql: sql)
            default: buffer.append(byte)
            }
        }
    }

    private mutating func appendEscape(_ letter: UInt8) {
        buffer.append(UInt8(ascii: "\\"))
        buffer.append(letter)
    }

    /// True for the bytes COPY's text format escapes, and NUL, which it cannot carry.
    @inline(__always)
    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\\") || (byte <= 13 && (byte == 0 || byte == 9 || byte == 10 || byte == 13))
    }

    /// Ends the rows: the binary format's trailer, a field count of -1.
    mutating func end() {
        if case .binary = format { appendBigEndian(Int16(-1)) }
    }

    /// Forgets the bytes encoded so far, once they are sent; the row count stays.
    mutating func removeSentBytes() {
        buffer.removeAll()
    }
}
