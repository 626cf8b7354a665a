import Foundation
import SQLite
import Testing

@Suite struct ConnectionTests {
    private func memory() throws -> Connection {
        try Connection(path: ":memory:")
    }

    @Test func valuesOfEveryKindRoundTripThroughBindingAndColumns() throws {
        let db = try memory()
        try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, n TEXT)")
        let insert = try db.prepare("INSERT INTO t VALUES (?1, ?2, ?3, ?4)")
        try insert.bind(Int64.min, at: 1)
        try insert.bind(-0.5, at: 2)
        try insert.bind("Ōfunato \"quoted\" 😀", at: 3)
        try insert.bind(nil as String?, at: 4)
        try insert.run()

        let select = try db.prepare("SELECT i, r, s, n FROM t")
        #expect(try select.step())
        #expect(select.int64(at: 0) == Int64.min)
        #expect(select.double(at: 1) == -0.5)
        #expect(select.string(at: 2) == "Ōfunato \"quoted\" 😀")
        #expect(select.string(at: 3) == nil)
        #expect(select.isNull(at: 3))
        #expect(select.columnName(at: 2) == "s")
        #expect(try select.step() == false)
    }

    @Test func emptyTextIsBoundAsEmptyStringNotNull() throws {
        let db = try memory()
        let select = try db.prepare("SELECT ?1 IS NULL, length(?1), ?2 IS NULL")
        try select.bind("", at: 1)
        try "".utf8CString.withUnsafeBytes {
            try select.bind(unownedText: UnsafeRawBufferPointer(rebasing: $0[0..<0]), at: 2)
        }
        #expect(try select.step())
        #expect(select.int(at: 0) == 0)
        #expect(select.int(at: 1) == 0)
        #expect(select.int(at: 2) == 0)
    }

    @Test func unownedTextIsReadInPlaceAtEveryStep() throws {
        let db = try memory()
        let select = try db.prepare("SELECT ?1")
        let bytes = Array("first".utf8)
        try bytes.withUnsafeBytes { buffer in
            try select.bind(unownedText: buffer, at: 1)
            #expect(try select.step())
            #expect(select.string(at: 0) == "first")
        }
    }

    @Test func errorsKeepCodesMessageAndSQL() throws {
        let db = try memory()
        try db.execute("CREATE TABLE t (id TEXT PRIMARY KEY)")
        let insert = try db.prepare("INSERT INTO t VALUES ('a')")
        try insert.run()
        let error = try #require(throws: SQLiteError.self) { try insert.run() }
        #expect(error.code == 19)  // SQLITE_CONSTRAINT
        #expect(error.extendedCode == 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY
        #expect(error.message.contains("UNIQUE constraint failed"))
        #expect(error.sql == "INSERT INTO t VALUES ('a')")

        let syntax = try #require(throws: SQLiteError.self) { try db.prepare("SELEC 1") }
        #expect(syntax.message.contains("syntax error"))
        #expect(syntax.sql == "SELEC 1")
    }

    @Test func aStatementIsReusableAfterAFailedStep() throws {
        let db = try memory()
        try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")
        let insert = try db.prepare("INSERT INTO t VALUES (?1)")
        try insert.bind(1, at: 1)
        try insert.run()
        #expect(throws: SQLiteError.self) { try insert.run() }
        try insert.bind(2, at: 1)
        try insert.run()
        let count = try db.prepare("SELECT count(*) FROM t")
        _ = try count.step()
        #expect(count.int(at: 0) == 2)
    }

    @Test func cachedStatementsAreReusedResetAndCleared() throws {
        let db = try memory()
        let first = try db.statement("SELECT ?1")
        try first.bind(7, at: 1)
        #expect(try first.step())
        let second = try db.statement("SELECT ?1")
        #expect(first === second)
        #expect(try second.step())
        #expect(second.isNull(at: 0))  // Bindings were cleared and the statement rewound.
    }

    @Test func transactionCommitsOnReturnAndRollsBackOnThrow() throws {
        let db = try memory()
        try db.execute("CREATE TABLE t (x INTEGER)")
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction(.immediate) {
                try db.execute("INSERT INTO t VALUES (1)")
                throw Boom()
            }
        }
        #expect(!db.isInTransaction)
        try db.transaction { try db.execute("INSERT INTO t VALUES (2)") }
        let sum = try db.prepare("SELECT count(*), sum(x) FROM t")
        _ = try sum.step()
        #expect(sum.int(at: 0) == 1)
        #expect(sum.int(at: 1) == 2)
        try db.rollback()  // Nothing open: no error.
    }

    @Test func changesCountsRowsOfTheLastStatement() throws {
        let db = try memory()
        try db.execute("CREATE TABLE t (x INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        try db.execute("UPDATE t SET x = x + 1 WHERE x > 1")
        #expect(db.changes == 2)
    }

    @Test func openingAMissingFileReadOnlyFails() throws {
        let path = NSTemporaryDirectory() + "missing-\(UUID().uuidString).sqlite"
        let error = try #require(throws: SQLiteError.self) { try Connection(path: path, mode: .readOnly) }
        #expect(error.code == 14)  // SQLITE_CANTOPEN
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aFileThatIsNotADatabaseIsReportedAsSuch() throws {
        let path = NSTemporaryDirectory() + "notadb-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let db = try Connection(path: path)
        let error = try #require(throws: SQLiteError.self) { try db.execute("SELECT * FROM sqlite_master") }
        #expect(error.code == 26)  // SQLITE_NOTADB
    }

    @Test func aSecondWriterWaitsThenFailsAsBusy() throws {
        let path = NSTemporaryDirectory() + "busy-\(UUID().uuidString).sqlite"
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let first = try Connection(path: path)
        try first.pragma("journal_mode = WAL")
        try first.execute("CREATE TABLE t (x INTEGER)")
        let second = try Connection(path: path)
        second.setBusyTimeout(milliseconds: 50)
        try first.begin(.immediate)
        let error = try #require(throws: SQLiteError.self) { try second.begin(.immediate) }
        #expect(error.isBusy)
        try first.commit()
        try second.begin(.immediate)
        try second.commit()
    }
}

@Suite struct MigratorTests {
    let migrator = Migrator(
        applicationID: 0x5445_5354,
        migrations: [
            "CREATE TABLE a (x INTEGER)",
            "CREATE TABLE b (y INTEGER)",
        ])

    @Test func appliesEveryMigrationOnceAndRecordsTheVersionAndTheMark() throws {
        let db = try Connection(path: ":memory:")
        #expect(try db.applicationID() == 0)
        #expect(try migrator.migrate(db) == 0)
        #expect(try db.userVersion() == 2)
        #expect(try db.applicationID() == 0x5445_5354)
        #expect(try migrator.migrate(db) == 2)  // Nothing left to do.
        try db.execute("INSERT INTO a VALUES (1); INSERT INTO b VALUES (2)")
    }

    @Test func aSwiftStepRunsInTheSameTransactionAsItsSQL() throws {
        let db = try Connection(path: ":memory:")
        let withStep = Migrator(
            applicationID: 1,
            migrations: [
                .init("CREATE TABLE a (x INTEGER)") { connection in try connection.execute("INSERT INTO a VALUES (7)")
                },
                .init("CREATE TABLE b (y INTEGER)") { _ in throw SQLiteError(code: 1, message: "the step failed") },
            ])
        #expect(throws: SQLiteError.self) { try withStep.migrate(db) }
        #expect(try db.userVersion() == 0)
        #expect(try db.applicationID() == 0)
        #expect(try db.tableColumns().isEmpty)
    }

    @Test func theTablesOfAVersionAreReadFromItsMigrations() throws {
        #expect(try migrator.tables(atVersion: 1) == ["a": ["x"]])
        #expect(try migrator.tables(atVersion: 2) == ["a": ["x"], "b": ["y"]])
    }

    @Test func appliesOnlyTheMigrationsAFileLacks() throws {
        let db = try Connection(path: ":memory:")
        try Migrator(applicationID: 0x5445_5354, migrations: ["CREATE TABLE a (x INTEGER)"]).migrate(db)
        try db.execute("INSERT INTO a VALUES (42)")
        #expect(try migrator.migrate(db) == 1)
        let statement = try db.prepare("SELECT x FROM a")
        _ = try statement.step()
        #expect(statement.int(at: 0) == 42)
        try db.execute("SELECT * FROM b")
    }

    @Test func refusesAFileFromANewerSchemaWithoutTouchingIt() throws {
        let db = try Connection(path: ":memory:")
        try db.setUserVersion(7)
        let error = try #require(throws: MigrationError.self) { try migrator.migrate(db) }
        #expect(error == .newerSchema(found: 7, supported: 2))
        #expect(error.description.contains("schema version 7"))
        #expect(try db.userVersion() == 7)
        #expect(throws: SQLiteError.self) { try db.execute("SELECT * FROM a") }
    }

    @Test func aFailingMigrationLeavesTheFileAsItWas() throws {
        let db = try Connection(path: ":memory:")
        let broken = Migrator(applicationID: 1, migrations: ["CREATE TABLE a (x INTEGER)", "CREATE TABLE oops ("])
        #expect(throws: SQLiteError.self) { try broken.migrate(db) }
        #expect(try db.userVersion() == 0)
        #expect(throws: SQLiteError.self) { try db.execute("SELECT * FROM a") }
    }
}
