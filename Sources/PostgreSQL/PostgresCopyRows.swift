import Bytes

/// Rows encoded in COPY's text or binary format, apart from any connection: what a
/// `PostgresCopyWriter` sends in chunks as rows are written, or what a caller encodes ahead and
/// `PostgresConnection.copy(encoded:)` sends. An ingest encodes a batch's rows while the
/// server stores the batch before, so that the server is not kept waiting while they are encoded.
public struct PostgresCopyRows: Sendable {
    /// COPY's text format, or its binary format with the columns' types.
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

    /// Rows for `sql`, a `COPY table (columns) FROM STDIN`, in `format`.
    public init(for sql: String, format: Format) {
        self.format = format
        buffer = ByteBuffer(capacity: 1 << 16)
        guard case .binary = format else {
            self.sql = sql
            return
        }
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
        let rowStart = buffer.count
        do throws(PostgresError) {
            switch format {
            case .text:
                try appendFields(of: row)
                buffer.append(UInt8(ascii: "\n"))
            case .binary(let types):
                try appendBinaryFields(of: row, types: types)
            }
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

    /// A row in the binary format: the number of fields, then each field's length (-1 for NULL)
    /// and its bytes, integers and doubles in network byte order.
    private mutating func appendBinaryFields(of row: [PostgresValue?], types: [PostgresColumnType])
        throws(PostgresError)
    {
        guard row.count == types.count else {
            throw PostgresError(message: "a row of \(row.count) values for \(types.count) columns", sql: sql)
        }
        appendBigEndian(Int16(row.count))
        // By index, not `zip`: perf showed the debug builds the tests run queueing, at each step of an
        // unspecialised zip, on the Swift runtime's lock for its element's type.
        for index in row.indices {
            switch (row[index], types[index]) {
            case (nil, _):
                appendBigEndian(Int32(-1))
            case (.text(let text)?, .text):
                try appendRaw(text)
            case (.integer(let integer)?, .bigint):
                appendBigEndian(Int32(8))
                appendBigEndian(integer)
            case (.integer(let integer)?, .integer):
                guard let narrow = Int32(exactly: integer) else {
                    throw PostgresError(
                        message: "integer out of range: \(integer) in an integer column", sqlState: "22003", sql: sql)
                }
                appendBigEndian(Int32(4))
                appendBigEndian(narrow)
            case (.real(let real)?, .double):
                appendBigEndian(Int32(8))
                appendBigEndian(real.bitPattern)
            case (.bool(let bool)?, .boolean):
                appendBigEndian(Int32(1))
                buffer.append(bool ? 1 : 0)
            case (let value?, _):
                throw PostgresError(message: "\(value) in a column of type \(types[index])", sql: sql)
            }
        }
    }

    /// Text as its length and its UTF-8 bytes: the binary format needs no escapes, but text still
    /// cannot hold NUL.
    private mutating func appendRaw(_ text: String) throws(PostgresError) {
        let utf8 = text.utf8
        guard let length = Int32(exactly: utf8.count) else {
            throw PostgresError(message: "a text of \(utf8.count) bytes, more than COPY carries", sql: sql)
        }
        appendBigEndian(length)
        let start = buffer.count
        appendUTF8(text)
        let hasNUL = buffer.withUnsafeBufferPointer { UnsafeBufferPointer(rebasing: $0[start...]).contains(0) }
        if hasNUL { throw PostgresConnection.nulError(sql: sql) }
    }

    private mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append($0) }
    }

    private mutating func appendBigEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.bigEndian) { buffer.append($0) }
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
