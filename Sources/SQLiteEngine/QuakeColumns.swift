import QuakesCore
import SQLite

/// The columns of the `quake` table in SQLite, from the one list of fields (`QuakeField`), and how a
/// `Quake` is bound to them and read from them.
enum QuakeColumns {
    /// Every column, in table order.
    static let names = QuakeField.allCases.map(\.name)

    /// `id, time, …, generated`, for SELECT and INSERT lists.
    static let list = names.joined(separator: ", ")

    /// Decodes the row at the statement's cursor, whose first columns are `list` in order.
    static func quake(from row: Statement, startingAt first: Int32 = 0) -> Quake {
        Quake(copying: StatementRow(statement: row, first: first))
    }

    /// The row at a statement's cursor, whose columns from `first` are `list` in order, as
    /// `Quake(copying:)` reads it: each field by its kind, the text's bytes as SQLite holds them,
    /// which may not be valid UTF-8 (another program may have written them): nothing but
    /// `Quake(copying:)` reads this row, and it makes them valid.
    private struct StatementRow: QuakeRow {
        let statement: Statement
        let first: Int32

        func integer(_ field: QuakeField) -> Int64? {
            field.kind == .integer ? statement.int64(at: first + Int32(field.rawValue)) : nil
        }

        func real(_ field: QuakeField) -> Double? {
            field.kind == .real ? statement.double(at: first + Int32(field.rawValue)) : nil
        }

        func withText<Result>(_ field: QuakeField, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows
            -> Result
        {
            guard field.kind == .text else { return try body(nil) }
            return try statement.withText(at: first + Int32(field.rawValue)) { bytes in
                try body(
                    bytes.map {
                        UnsafeBufferPointer(start: $0.baseAddress?.assumingMemoryBound(to: UInt8.self), count: $0.count)
                    })
            }
        }

        var quake: Quake { Quake(copying: self) }
    }

    /// Binds every column of `event` to the statement's parameters from `first` on, in table order.
    ///
    /// Text is bound where the event holds it (`SQLITE_STATIC`): the event must outlive the
    /// statement's run.
    static func bind(_ event: PackedQuake, to statement: Statement, from first: Int32 = 1) throws(SQLiteError) {
        for field in QuakeField.allCases {
            let index = first + Int32(field.rawValue)
            switch field.kind {
            case .text:
                if let text = event.text(field) {
                    try statement.bind(unownedText: text, at: index)
                } else {
                    try statement.bindNull(at: index)
                }
            case .integer: try statement.bind(event.integer(field), at: index)
            case .real: try statement.bind(event.real(field), at: index)
            }
        }
    }
}
