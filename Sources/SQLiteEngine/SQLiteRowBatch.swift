import Bytes
import QuakesCore
import SQLite

/// Rows of a listing copied out of SQLite's buffers into flat storage, so that one thread can
/// step the statement while another writes the rows (see `PipelinedRows`): a value, it crosses
/// between them whole.
///
/// Each field of each row takes one word: an integer, a real's bits, or where a text's bytes lie in
/// `text`; `isNull` says which words hold nothing.
struct SQLiteRowBatch: Sendable {
    private static let width = QuakeField.allCases.count
    /// The kind of each column, by `QuakeField.rawValue`: a table read in line, where asking each
    /// field its kind was a call into another module for every field of every row.
    private static let kinds: [QuakeField.Kind] = {
        var kinds = Array(repeating: QuakeField.Kind.integer, count: width)
        for field in QuakeField.allCases { kinds[field.rawValue] = field.kind }
        return kinds
    }()

    private var words: [UInt64] = []
    private var isNull: [Bool] = []
    private var text: ByteBuffer
    private(set) var count = 0
    /// The bytes of text the rows hold.
    var textCount: Int { text.count }

    init(capacity: Int) {
        words.reserveCapacity(capacity * Self.width)
        isNull.reserveCapacity(capacity * Self.width)
        text = ByteBuffer(capacity: capacity * 512)
    }

    /// Copies the row at the statement's cursor, whose first columns are `QuakeColumns.list`: into
    /// a row of words on the stack, then onto the batch's arrays at once, two appends a row rather
    /// than two a field.
    mutating func append(_ statement: Statement) {
        let width = Self.width
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: width) { row in
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: width) { nulls in
                Self.kinds.withUnsafeBufferPointer { kinds in
                    for column in 0..<width {
                        let word: UInt64? =
                            switch kinds[column] {
                            case .integer: statement.int64(at: Int32(column)).map { UInt64(bitPattern: $0) }
                            case .real: statement.double(at: Int32(column))?.bitPattern
                            case .text:
                                statement.withText(at: Int32(column)) { bytes -> UInt64? in
                                    guard let bytes else { return nil }
                                    let start = UInt64(text.count)
                                    text.append(bytes.assumingMemoryBound(to: UInt8.self))
                                    return start << 32 | UInt64(bytes.count)
                                }
                            }
                        (row.baseAddress! + column).initialize(to: word ?? 0)
                        (nulls.baseAddress! + column).initialize(to: word == nil)
                    }
                }
                words.append(contentsOf: UnsafeBufferPointer(row))
                isNull.append(contentsOf: UnsafeBufferPointer(nulls))
            }
        }
        count += 1
    }

    /// The rows one by one, as the `QuakeRow` that `body` is given; it stops when `body` returns
    /// false, and says whether it went through every row. The row is valid only during the call.
    func forEach(_ body: (any QuakeRow) throws -> Bool) rethrows -> Bool {
        try words.withUnsafeBufferPointer { words in
            try isNull.withUnsafeBufferPointer { isNull in
                try text.withUnsafeBufferPointer { text in
                    let cursor = Cursor(words: words, isNull: isNull, text: text)
                    while cursor.row < count {
                        guard try body(cursor) else { return false }
                        cursor.row += 1
                    }
                    return true
                }
            }
        }
    }

    /// One row of a batch at a time: a class, so that handing it to `body` as `any QuakeRow`
    /// allocates nothing per row. It reads the batch's arrays through pointers, valid during
    /// `forEach`: through the arrays themselves, every field retained and released their storage
    /// (a tenth of a full export's time).
    private final class Cursor: QuakeRow {
        let words: UnsafeBufferPointer<UInt64>
        let isNull: UnsafeBufferPointer<Bool>
        let text: UnsafeBufferPointer<UInt8>
        var row = 0

        init(words: UnsafeBufferPointer<UInt64>, isNull: UnsafeBufferPointer<Bool>, text: UnsafeBufferPointer<UInt8>) {
            self.words = words
            self.isNull = isNull
            self.text = text
        }

        private func word(_ field: QuakeField) -> UInt64? {
            let index = row * SQLiteRowBatch.width + field.rawValue
            return isNull[index] ? nil : words[index]
        }

        func integer(_ field: QuakeField) -> Int64? {
            word(field).map { Int64(bitPattern: $0) }
        }

        func real(_ field: QuakeField) -> Double? {
            word(field).map { Double(bitPattern: $0) }
        }

        func withText<Result>(_ field: QuakeField, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows
            -> Result
        {
            guard let word = word(field) else { return try body(nil) }
            let start = Int(word >> 32)
            let end = start + Int(word & 0xFFFF_FFFF)
            return try SQLiteRowBatch.withRepairedText(UnsafeBufferPointer(rebasing: text[start..<end]), body)
        }

        var quake: Quake { Quake(copying: self) }
    }

    /// Calls `body` with `bytes` when they are ASCII, as nearly every field is; otherwise with them
    /// as a `String` decodes them, so that bytes a foreign writer left invalid come out repaired.
    fileprivate static func withRepairedText<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result
    ) rethrows -> Result {
        guard let base = bytes.baseAddress, ByteRuns.nonASCII(base, from: 0, count: bytes.count) < bytes.count else {
            return try body(bytes)
        }
        var text = String(decoding: bytes, as: UTF8.self)
        return try text.withUTF8 { try body($0) }
    }
}
