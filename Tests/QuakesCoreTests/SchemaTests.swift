import Foundation
import PostgreSQL
import SQLite
import Testing

@testable import QuakesCore
@testable import SQLiteEngine

/// The migrations of both engines are written out by hand, since a released one must never change;
/// the table of fields must still describe the table they leave.
@Suite struct SchemaTests {
    @Test func theSQLiteQuakeTableHasTheFieldsOfTheTableOfFieldsInOrder() async throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("q.sqlite")
        let fetch = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: path)
        #expect(fetch.status == .success, "\(fetch.standardError)")
        let connection = try Connection(path: path, mode: .readOnly)
        let statement = try connection.statement(
            #"SELECT name, type, "notnull" FROM pragma_table_info('quake') ORDER BY cid"#)
        var columns: [[String]] = []
        while try statement.step() {
            columns.append([
                statement.string(at: 0) ?? "", statement.string(at: 1) ?? "", String(statement.int64(at: 2) ?? -1),
            ])
        }
        let expected = QuakeField.allCases.map { field -> [String] in
            let type =
                switch field.kind {
                case .text: "TEXT"
                case .integer: "INTEGER"
                case .real: "REAL"
                }
            return [field.name, type, field.isRequired ? "1" : "0"]
        }
        #expect(columns == expected)
    }

    @Test func thePostgreSQLQuakeTableBeginsWithTheFieldsOfTheTableOfFieldsInOrder() async throws {
        let store = try TestEngine.postgresql.newDatabase()
        let fetch = await QuakesRun.fetch([Fixtures.path(Fixtures.alerts)], database: store.location)
        #expect(fetch.status == .success, "\(fetch.standardError)")
        let result = try PostgresConnection(uri: store.location).execute(
            """
            SELECT column_name, data_type, is_nullable FROM information_schema.columns
            WHERE table_name = 'quake' ORDER BY ordinal_position
            """)
        let columns = (0..<result.rowCount).map { row in
            (0..<3).map { result.string(row: row, column: $0) ?? "" }
        }
        let expected = QuakeField.allCases.map { field -> [String] in
            let type =
                switch field.kind {
                case .text: "text"
                case .integer: "bigint"
                case .real: "double precision"
                }
            return [field.name, type, field.isRequired ? "NO" : "YES"]
        }
        #expect(Array(columns.prefix(expected.count)) == expected)
        #expect(
            columns.dropFirst(expected.count).map(\.[0]) == ["place_folded", "time_utc", "updated_utc", "extra_json"])
    }
}
