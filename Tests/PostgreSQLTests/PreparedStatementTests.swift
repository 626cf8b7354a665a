import PostgreSQL
import Testing

@Suite struct PreparedStatementTests {
    @Test func aStatementIsPreparedOnceAndReused() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            try connection.execute("CREATE TABLE quake (code text PRIMARY KEY, mag double precision)")
            let upsert =
                "INSERT INTO quake VALUES ($1, $2) ON CONFLICT (code) DO UPDATE SET mag = excluded.mag"
            for index in 0..<20 {
                try connection.executePrepared(upsert, [.text("q\(index % 5)"), .real(Double(index))])
            }
            let prepared = try connection.execute(
                "SELECT count(*) FROM pg_prepared_statements WHERE statement = $1", [.text(upsert)])
            #expect(prepared.int(row: 0, column: 0) == 1)
            let rows = try connection.executePrepared("SELECT code, mag FROM quake WHERE mag >= $1 ORDER BY code", [15])
            #expect(rows.rowCount == 5)
            #expect(rows.double(row: 4, column: 1) == 19)

            // Dropped behind the connection's back, it is prepared again.
            try connection.execute("DEALLOCATE ALL")
            try connection.executePrepared(upsert, ["q9", 9.5])
            #expect(try connection.execute("SELECT mag FROM quake WHERE code = 'q9'").double(row: 0, column: 0) == 9.5)
        }
    }

    @Test func aStatementThatDoesNotPrepareIsNotKept() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            let sql = "SELECT count(*) FROM later"
            let error = #expect(throws: PostgresError.self) { try connection.executePrepared(sql) }
            #expect(error?.sqlState == "42P01")
            try connection.execute("CREATE TABLE later (a int)")
            #expect(try connection.executePrepared(sql).int(row: 0, column: 0) == 0)
        }
    }
}
