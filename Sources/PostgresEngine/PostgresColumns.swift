import PostgreSQL
import QuakesCore

/// The columns of the `quake` table in PostgreSQL, from the one list of fields (`QuakeField`), and
/// how a `Quake` is written to and read from them.
enum PostgresColumns {
    /// `"name"`: quoted, so that `magType` keeps its case, as in SQLite.
    static func quoted(_ column: String) -> String {
        "\"\(column)\""
    }

    /// Every field's column, quoted, in table order.
    static let names = QuakeField.allCases.map { quoted($0.name) }

    /// `"id", "time", …, "generated"`, for SELECT lists.
    static let list = names.joined(separator: ", ")

    /// The columns COPY fills: the fields, then `place_folded`, which Swift computes (see
    /// `TextFolding`) so that place matching does not depend on the server's collation.
    static let copied = names + ["place_folded"]

    /// `copied`, for statements.
    static let copiedList = copied.joined(separator: ", ")

    /// The types of `copied`, for a binary COPY.
    static let copiedTypes: [PostgresColumnType] =
        QuakeField.allCases.map { field in
            switch field.kind {
            case .text: .text
            case .integer: .bigint
            case .real: .double
            }
        } + [.text]

    /// Writes the row COPY sends for `quake`, in the order of `copied`.
    static func append(_ quake: Quake, to rows: inout PostgresCopyRows) throws(PostgresError) {
        try rows.appendRow { rows throws(PostgresError) in
            for field in QuakeField.allCases {
                switch field.value(of: quake) {
                case let .text(text)?: try rows.appendField(text)
                case let .integer(value)?: try rows.appendField(value)
                case let .real(value)?: try rows.appendField(value)
                case nil: try rows.appendNull()
                }
            }
            try rows.appendField(quake.place.map(TextFolding.fold))
        }
    }

    /// The quake in `row` of `result`, whose first columns are `list` in order.
    static func quake(at row: Int, of result: PostgresResult) -> Quake {
        Quake(copying: ResultRow(result: result, row: row))
    }

    /// A row of a result whose first columns are `list` in order, as `Quake(copying:)` reads it: each
    /// field by its kind, the text's bytes as the server sent them; nothing but `Quake(copying:)`
    /// reads this row, and it makes them valid UTF-8 whatever they are.
    private struct ResultRow: QuakeRow {
        let result: PostgresResult
        let row: Int

        func integer(_ field: QuakeField) -> Int64? {
            field.kind == .integer ? result.int64(row: row, column: field.rawValue) : nil
        }

        func real(_ field: QuakeField) -> Double? {
            field.kind == .real ? result.double(row: row, column: field.rawValue) : nil
        }

        func withText<Result>(_ field: QuakeField, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result) rethrows
            -> Result
        {
            guard field.kind == .text else { return try body(nil) }
            return try result.withText(row: row, column: field.rawValue, body)
        }

        var quake: Quake { Quake(copying: self) }
    }
}
