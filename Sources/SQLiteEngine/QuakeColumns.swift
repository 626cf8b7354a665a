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
        var quake = Quake(id: "", time: 0, longitude: 0, latitude: 0)
        for field in QuakeField.allCases {
            let column = first + Int32(field.rawValue)
            let value: QuakeField.Value? =
                switch field.kind {
                case .text: row.string(at: column).map(QuakeField.Value.text)
                case .integer: row.int64(at: column).map(QuakeField.Value.integer)
                case .real: row.double(at: column).map(QuakeField.Value.real)
                }
            field.set(value, in: &quake)
        }
        return quake
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
