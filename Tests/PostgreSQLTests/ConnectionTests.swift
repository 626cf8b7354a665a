import PostgreSQL
import Testing

@Suite struct ConnectionTests {
    @Test func connectsToItsOwnDatabaseInUTF8WithExactFloats() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            #expect(connection.isConnected)
            #expect(connection.serverVersion >= 100_000)
            let result = try connection.execute(
                "SELECT current_database(), current_setting('client_encoding'), current_setting('extra_float_digits')")
            #expect(result.rowCount == 1)
            #expect(result.columnCount == 3)
            #expect(result.columnName(0) == "current_database")
            #expect(result.string(row: 0, column: 0) == database.name)
            #expect(result.string(row: 0, column: 1) == "UTF8")
            #expect(result.string(row: 0, column: 2) == "3")
        }
    }

    @Test func failedConnectionsNeverShowThePassword() async throws {
        let serverURI = try TestDatabase.serverURI()
        let uris = [
            // Nothing listens on port 1: refused at once.
            "postgresql://quakes:s3cret-pw@127.0.0.1:1/quakes?connect_timeout=5",
            "postgresql://quakes@127.0.0.1:1/quakes?password=s3cret-pw&connect_timeout=5",
            "host=127.0.0.1 port=1 user=quakes password=s3cret-pw dbname=quakes connect_timeout=5",
            "host=127.0.0.1 port=1 password='s3cret-pw with spaces' connect_timeout=5",
            // libpq quotes the token it cannot decode, here the password itself.
            "postgresql://quakes:s3cret-pw%zz@127.0.0.1:1/quakes",
            // Unescaped "/" and "@": libpq reads a piece as the port or the host, and quotes it.
            "postgresql://quakes:s3cret/pw@127.0.0.1:1/quakes?connect_timeout=5",
            "postgresql://quakes:pw@s3cret@127.0.0.1:1/quakes?connect_timeout=5",
            // The server answers, but has no such database.
            TestDatabase.uri(
                TestDatabase.uri(serverURI, database: "quakes_missing_database"), adding: "password=s3cret-pw"),
        ]
        for uri in uris {
            let error = #expect(throws: PostgresError.self) { try PostgresConnection(uri: uri) }
            let text = String(describing: error)
            #expect(text.contains("cannot connect to"), "\(text)")
            #expect(!text.contains("s3cret"), "\(text)")
            #expect(error?.sqlState == nil)
        }
    }

    @Test func aMissingTableFailsWithItsSQLStateAndTheConnectionCarriesOn() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            let missing = #expect(throws: PostgresError.self) { try connection.execute("SELECT * FROM no_such_table") }
            #expect(missing?.sqlState == "42P01")
            #expect(missing?.message == #"relation "no_such_table" does not exist"#)
            #expect(missing?.sql == "SELECT * FROM no_such_table")

            let syntax = #expect(throws: PostgresError.self) { try connection.execute("SELEKT 1") }
            #expect(syntax?.sqlState == "42601")

            try connection.execute("CREATE TABLE quake (code text PRIMARY KEY)")
            try connection.execute("INSERT INTO quake VALUES ($1)", ["us7000abcd"])
            let duplicate = #expect(throws: PostgresError.self) {
                try connection.execute("INSERT INTO quake VALUES ($1)", ["us7000abcd"])
            }
            #expect(duplicate?.sqlState == "23505")
            #expect(duplicate?.detail == "Key (code)=(us7000abcd) already exists.")
            #expect(String(describing: duplicate).contains("SQLSTATE 23505"))

            #expect(try connection.execute("SELECT count(*) FROM quake").int64(row: 0, column: 0) == 1)
        }
    }

    @Test func statementsReportTheRowsTheyTouched() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            // The NOTICE this gives ("does not exist, skipping") is silenced, not printed.
            try connection.execute("DROP TABLE IF EXISTS quake")
            try connection.execute("CREATE TABLE quake (code text, mag double precision)")
            let insert = try connection.execute(
                "INSERT INTO quake VALUES ('a', 1), ('b', 2), ('c', 3)")
            #expect(insert.rowsAffected == 3)
            #expect(try connection.execute("UPDATE quake SET mag = mag + 1 WHERE mag > $1", [1.5]).rowsAffected == 2)
            #expect(try connection.execute("CREATE INDEX ON quake (mag)").rowsAffected == 0)
        }
    }

    @Test func textWithNULIsRefusedBeforeItIsCutShort() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            let error = #expect(throws: PostgresError.self) {
                try connection.execute("SELECT $1::text", ["before\u{0}after"])
            }
            #expect(error?.sqlState == "22021")
            #expect(try connection.execute("SELECT 1").int(row: 0, column: 0) == 1)
        }
    }

    @Test func copyThroughExecuteIsRefusedAndTheConnectionRecovers() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            try connection.execute("CREATE TABLE staging (a text)")
            #expect(throws: PostgresError.self) { try connection.execute("COPY staging FROM STDIN") }
            #expect(try connection.execute("SELECT count(*) FROM staging").int(row: 0, column: 0) == 0)
        }
    }
}
