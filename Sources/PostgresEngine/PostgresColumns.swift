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
        var quake = Quake(id: "", time: 0, longitude: 0, latitude: 0)
        for field in QuakeField.allCases {
            let column = field.rawValue
            let value: QuakeField.Value? =
                switch field.kind {
                case .text: result.string(row: row, column: column).map(QuakeField.Value.text)
                case .integer: result.int64(row: row, column: column).map(QuakeField.Value.integer)
                case .real: result.double(row: row, column: column).map(QuakeField.Value.real)
                }
            field.set(value, in: &quake)
        }
        return quake
    }
}
