/// Rows on their way to a `COPY … FROM STDIN`, written in COPY's text format and sent in chunks;
/// `PostgresConnection.copy(_:_:)` lends one to the code that produces the rows.
///
/// It cannot be copied, so no copy of it outlives the COPY it belongs to.
public struct PostgresCopyWriter: ~Copyable {
    /// About 64 KB per `PQputCopyData`: large enough that the per-call cost disappears, small enough
    /// that the server parses and stores the first rows while the next are written (a megabyte, as
    /// before, held back the whole of a typical ingest batch until its last row), and that a
    /// load of millions of rows never holds them all.
    static let chunkSize = 1 << 16

    /// COPY's text format, or its binary format with the columns' types.
    enum Format {
        case text
        case binary([PostgresColumnType])
    }

    private let connection: PostgresConnection
    private let sql: String
    private let format: Format
    private var buffer: [UInt8] = []
    /// Rows appended so far.
    public private(set) var rowCount = 0

    init(connection: PostgresConnection, sql: String, format: Format = .text) {
        self.connection = connection
        self.sql = sql
        self.format = format
        buffer.reserveCapacity(Self.chunkSize + 4096)
        if case .binary = format {
            // The signature, then no flags and no header extension.
            buffer.append(contentsOf: Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00])
            appendBigEndian(Int32(0))
            appendBigEndian(Int32(0))
        }
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
            buffer.removeSubrange(rowStart...)
            throw error
        }
        rowCount += 1
        if buffer.count >= Self.chunkSize { try flush() }
    }

    private mutating func appendFields(of row: [PostgresValue?]) throws(PostgresError) {
        for (index, value) in row.enumerated() {
            if index > 0 { buffer.append(UInt8(ascii: "\t")) }
            guard let value else {
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(UInt8(ascii: "N"))
                continue
            }
            switch value {
            case .text(let text): try appendEscaped(text)
            case .integer(let integer): appendDecimal(integer)
            case .real(let real): buffer.append(contentsOf: PostgresValue.text(of: real).utf8)
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
        for (value, type) in zip(row, types) {
            switch (value, type) {
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
                throw PostgresError(message: "\(value) in a column of type \(type)", sql: sql)
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
        buffer.append(contentsOf: utf8)
        if buffer[start...].contains(0) { throw PostgresConnection.nulError(sql: sql) }
    }

    private mutating func appendBigEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.bigEndian) { buffer.append(contentsOf: $0) }
    }

    /// `value` in decimal, written straight into the buffer.
    private mutating func appendDecimal(_ value: Int64) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // 20 digits hold any UInt64; they are made from the last.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    private mutating func appendEscaped(_ text: String) throws(PostgresError) {
        // Most text has nothing to escape, and is copied whole.
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes where Self.isSpecial(byte) { return false }
            buffer.append(contentsOf: bytes)
            return true
        }
        if copied == true { return }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case UInt8(ascii: "\t"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case UInt8(ascii: "\n"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case UInt8(ascii: "\r"): buffer.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0: throw PostgresConnection.nulError(sql: sql)
            default: buffer.append(byte)
            }
        }
    }

    /// True for the bytes COPY's text format escapes, and NUL, which it cannot carry.
    @inline(__always)
    private static func isSpecial(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\\") || (byte <= 13 && (byte == 0 || byte == 9 || byte == 10 || byte == 13))
    }

    /// Sends the rows buffered so far.
    private mutating func flush() throws(PostgresError) {
        let sql = sql
        let connection = connection
        // withUnsafeBytes rethrows untyped errors; the Result keeps the type.
        try buffer.withUnsafeBytes { bytes in
            Result { () throws(PostgresError) in try connection.sendCopyData(bytes, sql: sql) }
        }.get()
        buffer.removeAll(keepingCapacity: true)
    }

    /// Sends the last rows, ends the COPY and returns the number of rows the server stored.
    consuming func finish() throws(PostgresError) -> Int {
        // The binary format ends with a field count of -1.
        if case .binary = format { appendBigEndian(Int16(-1)) }
        do throws(PostgresError) {
            try flush()
        } catch {
            connection.abortCopy(reason: "quakes could not send the rows: \(error.message)")
            throw error
        }
        return try connection.endCopy(sql: sql)
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
