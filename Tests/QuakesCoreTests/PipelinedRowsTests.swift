import Foundation
import SQLite
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// A listing's rows are read by one thread and written by another (`PipelinedRows`): the writer
/// must see every row of the statement, in its order, with its bytes, whether the listing ends,
/// stops early or fails part-way, and the statement must be free again when it returns.
@Suite struct PipelinedRowsTests {
    /// Both weekly feeds, with text that is not ASCII, and bytes that are not UTF-8, in the oldest
    /// event, which comes last.
    private static func database() async throws -> (TemporaryDirectory, String) {
        let folder = try TemporaryDirectory()
        let database = folder.file("q.sqlite")
        let fetch = await QuakesRun.fetch(
            [Fixtures.path(Fixtures.weekBefore), Fixtures.path(Fixtures.weekAfter)], database: database)
        #expect(fetch.status == .success, "\(fetch.standardError)")
        try Connection(path: database, mode: .readWrite).execute(
            """
            UPDATE quake SET place = CAST(X'53E36F2050C3A16F6C6FFF' AS TEXT)
            WHERE id = (SELECT id FROM quake ORDER BY time, id LIMIT 1)
            """)
        return (folder, database)
    }

    /// Batches of 64 rows, so that the weekly feeds fill dozens of them.
    private static let batch = 64

    private static let ordered = "SELECT \(QuakeColumns.list) FROM quake ORDER BY time DESC, id"

    /// What stepping the statement directly reads: each row's `Quake` and the JSON it writes.
    private static func direct(_ connection: Connection, _ sql: String = ordered) throws -> [(Quake, [UInt8])] {
        let statement = try connection.prepare(sql)
        var rows: [(Quake, [UInt8])] = []
        while try statement.step() {
            let quake = QuakeColumns.quake(from: statement)
            rows.append((quake, json(quake)))
        }
        return rows
    }

    private static func json(_ row: some QuakeRow) -> [UInt8] {
        var json = JSONBuffer()
        QuakeFormats.writeJSONObject(row, to: &json)
        return json.bytes
    }

    @Test func everyRowComesInOrderWithItsBytes() async throws {
        let (folder, database) = try await Self.database()
        _ = folder
        let connection = try Connection(path: database, mode: .readOnly)
        let expected = try Self.direct(connection)
        #expect(expected.count > 50 * Self.batch)
        #expect(expected.last.map { String(decoding: $0.1, as: UTF8.self).contains("\u{FFFD}") } == true)
        var seen: [(Quake, [UInt8])] = []
        try PipelinedRows.forEach(in: try connection.prepare(Self.ordered), batchSize: Self.batch) { row in
            seen.append((row.quake, Self.json(row)))
            return true
        }
        #expect(seen.count == expected.count)
        // Compared as booleans: a failure would otherwise print thousands of events.
        let sameQuakes = seen.map(\.0) == expected.map(\.0)
        let sameBytes = seen.map(\.1) == expected.map(\.1)
        #expect(sameQuakes)
        #expect(sameBytes)
    }

    /// Stopped after any number of rows, inside the first batch, at its edge or well past it, the
    /// listing returns at once, and the connection answers the next statement.
    @Test(arguments: [1, batch - 1, batch, batch + 1, 3 * batch + 1, 1_543])
    func aListingStoppedEarlyFreesItsStatement(after rows: Int) async throws {
        let (folder, database) = try await Self.database()
        _ = folder
        let connection = try Connection(path: database, mode: .readOnly)
        try connection.begin(.deferred)
        let expected = try Self.direct(connection).prefix(rows).map(\.0)
        var seen: [Quake] = []
        let statement = try connection.prepare(Self.ordered)
        try PipelinedRows.forEach(in: statement, batchSize: Self.batch) { row in
            seen.append(row.quake)
            return seen.count < rows
        }
        let same = seen == expected
        #expect(same, "\(seen.count) rows of \(expected.count)")
        statement.reset()
        #expect(try Self.direct(connection).count > rows)
        try connection.rollback()
    }

    /// SQLite fails on a row of the first batch, read by the writer's thread, or of a later one,
    /// read by the other: the rows before it are written, in order, and the error is thrown.
    @Test(arguments: [30, 1_500]) func anErrorPartWayIsThrownAfterTheRowsBeforeIt(row: Int) async throws {
        let (folder, database) = try await Self.database()
        _ = folder
        let connection = try Connection(path: database, mode: .readOnly)
        let expected = try Self.direct(connection).prefix(row - 1).map(\.0)
        let failing = try connection.prepare(
            """
            SELECT \(QuakeColumns.list), CASE WHEN row_number() OVER (ORDER BY time DESC, id) = \(row)
            THEN abs(-9223372036854775807 - 1) END FROM quake ORDER BY time DESC, id
            """)
        var seen: [Quake] = []
        #expect(throws: SQLiteError.self) {
            try PipelinedRows.forEach(in: failing, batchSize: Self.batch) { row in
                seen.append(row.quake)
                return true
            }
        }
        let same = seen == expected
        #expect(same, "\(seen.count) rows of \(expected.count)")
    }
}
