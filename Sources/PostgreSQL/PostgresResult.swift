import CLibPQ

/// The rows a statement returned, in PostgreSQL's text format, freed when released.
///
/// Rows and columns count from 0. Values arrive as the text PostgreSQL writes for their type, and
/// the typed accessors parse that text: `int64` reads `bigint`, `integer` or `smallint` columns,
/// `double` reads `double precision` (which the connection asks to be written with every digit
/// needed to read back the same number), `bool` reads `boolean`. Like its connection, a result
/// belongs to one owner.
public final class PostgresResult {
    private let handle: OpaquePointer

    /// Takes ownership of `handle`, which must not be NULL.
    init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        cpq_PQclear(handle)
    }

    /// The number of rows (wraps `PQntuples`).
    public var rowCount: Int { Int(cpq_PQntuples(handle)) }

    /// The number of columns in each row (wraps `PQnfields`).
    public var columnCount: Int { Int(cpq_PQnfields(handle)) }

    /// The name of column `column` (wraps `PQfname`).
    public func columnName(_ column: Int) -> String {
        precondition(column >= 0 && column < columnCount, "column \(column) out of range")
        return cpq_PQfname(handle, Int32(column)).map { String(cString: $0) } ?? ""
    }

    /// The rows an INSERT, UPDATE, DELETE, MERGE, COPY or SELECT touched; 0 for other statements
    /// (wraps `PQcmdTuples`).
    public var rowsAffected: Int {
        guard let text = cpq_PQcmdTuples(handle) else { return 0 }
        return Int(String(cString: text)) ?? 0
    }

    /// The command tag, such as `INSERT 0 5` or `COMMIT` (wraps `PQcmdStatus`).
    public var commandTag: String {
        cpq_PQcmdStatus(handle).map { String(cString: $0) } ?? ""
    }

    /// True when the value at `row`, `column` is NULL (wraps `PQgetisnull`).
    public func isNull(row: Int, column: Int) -> Bool {
        checkBounds(row: row, column: column)
        return cpq_PQgetisnull(handle, Int32(row), Int32(column)) != 0
    }

    /// The value as text, or nil for NULL (wraps `PQgetvalue` and `PQgetlength`).
    public func string(row: Int, column: Int) -> String? {
        withBytes(row: row, column: column) { String(decoding: $0, as: UTF8.self) }
    }

    /// The value as an integer, or nil for NULL or for text that is not one.
    ///
    /// Read from the value's bytes, as `Int64(_:)` reads a string (a sign, then decimal digits),
    /// without making the string: a listing reads a dozen integers a row.
    public func int64(row: Int, column: Int) -> Int64? {
        withBytes(row: row, column: column) { bytes -> Int64? in
            guard bytes.count > 0 else { return nil }
            let negative = bytes[0] == UInt8(ascii: "-")
            let start = negative || bytes[0] == UInt8(ascii: "+") ? 1 : 0
            guard start < bytes.count else { return nil }
            // Gathered below zero, where Int64.min fits.
            var value: Int64 = 0
            for index in start..<bytes.count {
                let digit = Int64(bytes[index]) - 48
                guard digit >= 0, digit <= 9 else { return nil }
                let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
                let (next, underflow) = shifted.subtractingReportingOverflow(digit)
                guard !overflow, !underflow else { return nil }
                value = next
            }
            if negative { return value }
            return value == .min ? nil : -value
        } ?? nil
    }

    /// Calls `body` with the bytes of the value at `row`, `column` (text, in the text format), valid
    /// only during the call, or nil for NULL: saves building a `String` when the bytes only pass
    /// through.
    public func withText<Result>(row: Int, column: Int, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result)
        rethrows -> Result
    {
        guard !isNull(row: row, column: column), let text = cpq_PQgetvalue(handle, Int32(row), Int32(column)) else {
            return try body(nil)
        }
        let count = Int(cpq_PQgetlength(handle, Int32(row), Int32(column)))
        return try text.withMemoryRebound(to: UInt8.self, capacity: count) {
            try body(UnsafeBufferPointer(start: $0, count: count))
        }
    }

    /// `body` with the bytes of the value at `row`, `column`, or nil for NULL.
    private func withBytes<Value>(row: Int, column: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Value) -> Value? {
        guard !isNull(row: row, column: column), let text = cpq_PQgetvalue(handle, Int32(row), Int32(column)) else {
            return nil
        }
        let count = Int(cpq_PQgetlength(handle, Int32(row), Int32(column)))
        return text.withMemoryRebound(to: UInt8.self, capacity: count) {
            body(UnsafeBufferPointer(start: $0, count: count))
        }
    }

    /// The value as an integer, or nil for NULL or for text that is not one.
    public func int(row: Int, column: Int) -> Int? {
        int64(row: row, column: column).flatMap { Int(exactly: $0) }
    }

    /// The value as a real number, or nil for NULL or for text that is not one.
    ///
    /// PostgreSQL writes infinities and NaN as `Infinity`, `-Infinity` and `NaN`.
    public func double(row: Int, column: Int) -> Double? {
        guard let text = string(row: row, column: column) else { return nil }
        switch text {
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        case "NaN": return .nan
        default: return Double(text)
        }
    }

    /// The value as a boolean (PostgreSQL writes `t` or `f`), or nil for NULL or other text.
    public func bool(row: Int, column: Int) -> Bool? {
        switch string(row: row, column: column) {
        case "t": true
        case "f": false
        default: nil
        }
    }

    /// PQgetvalue answers out-of-range indexes with an empty string, which would read as a value.
    private func checkBounds(row: Int, column: Int) {
        precondition(row >= 0 && row < rowCount, "row \(row) out of range (\(rowCount) rows)")
        precondition(column >= 0 && column < columnCount, "column \(column) out of range (\(columnCount) columns)")
    }
}
