import SQLite

/// An INSERT written many rows to a statement: rows are held as they come and written in groups,
/// each one statement of several `VALUES` rows.
///
/// A statement costs SQLite a start, a halt and a reset besides the work of its rows, a large part
/// of a bulk load when each row is a statement. Rows of one statement go in one after another, as
/// separate statements would: a later row with the key of an earlier one takes the statement's
/// `ON CONFLICT` path against it.
///
/// The rows held are written by `flush`, which the owner calls before anything else reads or
/// changes the table, and at the end of its batch. Text is bound in place (`SQLITE_STATIC`), from
/// the arena, reset for each statement run, or from the rows themselves (`PackedQuake`), held
/// until their statement has run: every parameter of the statement is bound again before each
/// run, so no run reads text from before the reset or of rows let go.
struct MultiRowInsert<Row> {
    /// The statements of an insert for each number of rows they take, made once per process.
    struct SQL: Sendable {
        /// The SQL for 1, 2, 4, … rows: powers of two, so that any count splits into few
        /// statements of distinct sizes.
        let bySize: [String]
        let columns: Int

        /// The statements of rows of `columns` values, `statement(values)` being the one whose
        /// `VALUES` list is `values`: `(?, ?, …), (?, ?, …)`. None has more than 999 parameters,
        /// the least any SQLite allows.
        init(columns: Int, statement: (_ values: String) -> String) {
            let row = "(" + Array(repeating: "?", count: columns).joined(separator: ", ") + ")"
            var sizes = [1]
            while sizes.last! * 2 * columns <= 999, sizes.count < 8 { sizes.append(sizes.last! * 2) }
            bySize = sizes.map { statement(Array(repeating: row, count: $0).joined(separator: ", ")) }
            self.columns = columns
        }
    }

    private let sql: SQL
    private let bindRow: (Row, Statement, _ firstParameter: Int32, TextArena) throws -> Void
    /// The statements used so far, by the index of their size in `sql`.
    private var statements: [Statement?]
    private var held: [Row] = []

    /// An insert by `sql`, which binds a row to a statement's parameters from a first one on.
    init(_ sql: SQL, bindRow: @escaping (Row, Statement, _ firstParameter: Int32, TextArena) throws -> Void) {
        self.sql = sql
        self.bindRow = bindRow
        statements = Array(repeating: nil, count: sql.bySize.count)
    }

    /// The most rows one statement takes.
    var rowsPerStatement: Int { 1 << (sql.bySize.count - 1) }

    /// Holds `row`; writes the rows held once there are enough for a whole statement.
    mutating func append(_ row: Row, on connection: Connection, arena: TextArena) throws {
        held.append(row)
        if held.count == rowsPerStatement { try flush(on: connection, arena: arena) }
    }

    /// Writes every row held, in order.
    mutating func flush(on connection: Connection, arena: TextArena) throws {
        var start = 0
        while start < held.count {
            var size = sql.bySize.count - 1
            while 1 << size > held.count - start { size -= 1 }
            let statement = try statement(size, on: connection)
            arena.reset()
            for row in 0..<(1 << size) {
                try bindRow(held[start + row], statement, Int32(row * sql.columns + 1), arena)
            }
            try statement.run()
            start += 1 << size
        }
        held.removeAll(keepingCapacity: true)
    }

    /// The statement for rows of size index `size`, from the connection's cache the first time.
    private mutating func statement(_ size: Int, on connection: Connection) throws -> Statement {
        if let statement = statements[size] { return statement }
        let statement = try connection.statement(sql.bySize[size])
        statements[size] = statement
        return statement
    }
}
