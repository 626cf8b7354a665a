import SQLite
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// Rows written many to a statement (`MultiRowInsert`) must come out as if each had been its own
/// statement, whatever their number, and their text must reach SQLite intact through the arena.
@Suite struct MultiRowInsertTests {
    private static let upsert = MultiRowInsert<(key: String, value: Int)>.SQL(columns: 2) { values in
        """
        INSERT INTO pair (key, value) VALUES \(values)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value, history = history || ',' || excluded.value
        """
    }

    private static func insert() -> MultiRowInsert<(key: String, value: Int)> {
        MultiRowInsert(upsert) { row, statement, first, arena in
            try statement.bind(unownedText: arena.store(row.key), at: first)
            try statement.bind(row.value, at: first + 1)
        }
    }

    private static func table() throws -> Connection {
        let connection = try Connection(path: ":memory:")
        try connection.execute(
            "CREATE TABLE pair (key TEXT PRIMARY KEY, value INTEGER, history TEXT NOT NULL DEFAULT '')")
        return connection
    }

    private static func pairs(_ connection: Connection) throws -> [String: (value: Int, history: String)] {
        let rows = try connection.prepare("SELECT key, value, history FROM pair")
        var pairs: [String: (Int, String)] = [:]
        while try rows.step() { pairs[rows.string(at: 0)!] = (rows.int(at: 1)!, rows.string(at: 2)!) }
        return pairs
    }

    @Test func statementsStayUnderTheLeastParameterLimitWithPowersOfTwo() {
        #expect(Self.upsert.bySize.count == 8)  // 1 through 128 rows of 2 parameters
        let rows = { (sql: MultiRowInsert<Quake>.SQL) in sql.bySize.map { $0.filter { $0 == "(" }.count } }
        // 16 × 32 = 512 ≤ 999 < 32 × 32
        #expect(rows(MultiRowInsert<Quake>.SQL(columns: 32) { $0 }) == [1, 2, 4, 8, 16])
        #expect(rows(MultiRowInsert<Quake>.SQL(columns: 999) { $0 }) == [1])
        #expect(Self.upsert.bySize[1].contains("VALUES (?, ?), (?, ?)\n"))
    }

    /// Counts below, at and beyond a whole statement, and ones that split into every size.
    @Test(arguments: [0, 1, 2, 3, 127, 128, 129, 255, 300, 1000])
    func everyRowIsWrittenOnce(count: Int) throws {
        let connection = try Self.table()
        var insert = Self.insert()
        let arena = TextArena(blockSize: 64)
        // Keys of every length around the arena's block, and not all ASCII.
        let keys = (0..<count).map { String(repeating: "é", count: $0 % 40) + "#\($0)" }
        for (value, key) in keys.enumerated() {
            try insert.append((key, value), on: connection, arena: arena)
        }
        try insert.flush(on: connection, arena: arena)
        let pairs = try Self.pairs(connection)
        #expect(pairs.count == count)
        for (value, key) in keys.enumerated() {
            #expect(pairs[key]?.value == value, "\(key)")
            #expect(pairs[key]?.history == "", "\(key)")
        }
    }

    /// A key twice in one statement, and again in a later one: each later row updates the row the
    /// earlier one wrote, in order, as separate statements would.
    @Test func aLaterRowWithTheSameKeyUpdatesTheEarlierOne() throws {
        let connection = try Self.table()
        var insert = Self.insert()
        let arena = TextArena()
        for (key, value) in [("a", 1), ("b", 2), ("a", 3), ("c", 4), ("a", 5)] {
            try insert.append((key, value), on: connection, arena: arena)
        }
        try insert.flush(on: connection, arena: arena)
        for value in 6...200 { try insert.append(("a", value), on: connection, arena: arena) }
        try insert.flush(on: connection, arena: arena)
        let pairs = try Self.pairs(connection)
        #expect(pairs["a"]?.value == 200)
        #expect(pairs["a"]?.history == "," + ([3, 5] + Array(6...200)).map(String.init).joined(separator: ","))
        #expect(pairs["b"]?.value == 2)
        #expect(pairs["c"]?.value == 4)
    }

    /// Texts larger than a block, empty ones and small ones all keep their bytes until the reset,
    /// however many came after them.
    @Test func theArenaKeepsEveryTextUntilItIsReset() {
        let arena = TextArena(blockSize: 16)
        let texts = ["", "a", "Alaska", String(repeating: "ü", count: 40), "", "M 4.5 - 10 km SSW of Ōfunato", "x"]
        for _ in 0..<3 {
            let stored = texts.map(arena.store)
            for (text, bytes) in zip(texts, stored) {
                #expect(String(decoding: bytes, as: UTF8.self) == text)
            }
            arena.reset()
        }
    }
}
