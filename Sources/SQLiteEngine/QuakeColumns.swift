import QuakesCore
import SQLite

/// The columns of the `quake` table in SQLite, from the one list of fields (`QuakeField`), and how a
/// `Quake` is bound to them and read from them.
enum QuakeColumns {
    /// Every column, in table order.
    static let names = QuakeField.allCases.map(\.name)

    /// `id, time, …, generated`, for SELECT and INSERT lists.
    static let list = names.joined(separator: ", ")

    private static let textFields = QuakeField.allCases.filter { $0.kind == .text }

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

    /// Binds every column of `quake` to parameters 1 through 32 in table order.
    ///
    /// Text goes through `arena`, one buffer per row that SQLite reads in place (`SQLITE_STATIC`),
    /// which saves the allocation and copy SQLite would otherwise make for each string. The bindings
    /// stay valid until the arena starts its next row or the statement's bindings are cleared.
    static func bind(_ quake: Quake, to statement: Statement, arena: TextArena) throws(SQLiteError) {
        var textBytes = 0
        for field in textFields {
            if case let .text(text)? = field.value(of: quake) { textBytes += text.utf8.count }
        }
        arena.startRow(reserving: textBytes)
        for field in QuakeField.allCases {
            let index = Int32(field.rawValue + 1)
            switch field.value(of: quake) {
            case let .text(text)?: try statement.bind(unownedText: arena.store(text), at: index)
            case let .integer(value)?: try statement.bind(value, at: index)
            case let .real(value)?: try statement.bind(value, at: index)
            case nil: try statement.bindNull(at: index)
            }
        }
    }
}

/// A buffer for the text of one row at a time, which SQLite reads in place while the row is stepped.
///
/// Not `Sendable`: it belongs to the store actor, like the statements bound to it.
final class TextArena {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    private var used = 0

    init(capacity: Int = 16 * 1024) {
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
        self.capacity = capacity
    }

    deinit {
        base.deallocate()
    }

    /// Forgets the previous row and makes room for `byteCount` bytes; nothing moves until the next call.
    func startRow(reserving byteCount: Int) {
        used = 0
        guard byteCount > capacity else { return }
        base.deallocate()
        capacity = max(byteCount, capacity * 2)
        base = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
    }

    /// Copies `text` in and returns where its UTF-8 bytes now are.
    func store(_ text: String) -> UnsafeRawBufferPointer {
        var text = text
        let count = text.utf8.count
        precondition(used + count <= capacity, "startRow(reserving:) was given too small a size")
        let start = base + used
        text.withUTF8 { bytes in
            if let source = bytes.baseAddress { start.copyMemory(from: source, byteCount: count) }
        }
        used += count
        return UnsafeRawBufferPointer(start: start, count: count)
    }
}
