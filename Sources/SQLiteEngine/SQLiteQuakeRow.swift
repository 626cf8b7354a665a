import QuakesCore
import SQLite

/// The current row of a statement whose first columns are `QuakeColumns.list`, as a `QuakeRow`:
/// JSON listings write its columns straight from SQLite's buffers.
struct SQLiteQuakeRow: QuakeRow {
    let statement: Statement

    func integer(_ field: QuakeField) -> Int64? {
        statement.int64(at: Int32(field.rawValue))
    }

    func real(_ field: QuakeField) -> Double? {
        statement.double(at: Int32(field.rawValue))
    }

    /// Text as SQLite holds it when it is ASCII, as nearly every field is; otherwise as a `String`
    /// decodes it, so that bytes a foreign writer left invalid come out repaired, as from a `Quake`.
    func withText<Result>(_ field: QuakeField, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows
        -> Result
    {
        try statement.withText(at: Int32(field.rawValue)) { raw in
            guard let raw else { return try body(nil) }
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            if Self.isASCII(bytes) { return try body(bytes) }
            var text = String(decoding: bytes, as: UTF8.self)
            return try text.withUTF8 { try body($0) }
        }
    }

    var quake: Quake {
        QuakeColumns.quake(from: statement)
    }

    /// True when no byte has its high bit set, looked at eight bytes at a time.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if bytes[index] & 0x80 != 0 { return false }
            index += 1
        }
        return true
    }
}
