import PostgreSQL
import Testing

@Suite struct CopyTests {
    private static let createStaging =
        "CREATE TABLE staging (id bigint, name text, mag double precision, felt boolean, note text)"
    private static let copyStaging = "COPY staging (id, name, mag, felt, note) FROM STDIN"

    /// Every row as read back, in the order of `id`.
    private func rows(_ connection: PostgresConnection) throws -> [[PostgresValue?]] {
        let result = try connection.execute("SELECT id, name, mag, felt, note FROM staging ORDER BY id")
        return (0..<result.rowCount).map { row in
            [
                result.int64(row: row, column: 0).map { .integer($0) },
                result.string(row: row, column: 1).map { .text($0) },
                result.double(row: row, column: 2).map { .real($0) },
                result.bool(row: row, column: 3).map { .bool($0) },
                result.string(row: row, column: 4).map { .text($0) },
            ]
        }
    }

    @Test func awkwardRowsArriveExactlyAsSent() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            try connection.execute(Self.createStaging)
            let texts = ValueTests.awkwardTexts
            let doubles = ValueTests.awkwardDoubles.filter { !$0.isNaN }  // NaN is not equal to itself.
            let sent: [[PostgresValue?]] = (0..<max(texts.count, doubles.count)).map { index in
                [
                    .integer(Int64(index)), .text(texts[index % texts.count]), .real(doubles[index % doubles.count]),
                    index % 3 == 2 ? nil : .bool(index % 2 == 0),
                    index % 4 == 0 ? nil : .text(texts.reversed()[index % texts.count]),
                ]
            }
            #expect(try connection.copy(Self.copyStaging, rows: sent) == sent.count)
            let received = try rows(connection)
            #expect(received == sent)
            // -0.0 == 0.0, so the sign is checked apart.
            for (row, value) in zip(received, sent) {
                if case .real(let back) = row[2], case .real(let original) = value[2] {
                    #expect(back.sign == original.sign)
                }
            }
        }
    }

    @Test func integersArriveExactlyAsSent() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            try connection.execute(Self.createStaging)
            let integers: [Int64] = [.min, .min + 1, -1_000_000_007, -10, -9, -1, 0, 1, 9, 10, 99, 100, 2_021, .max]
            let sent: [[PostgresValue?]] = integers.map { [.integer($0), .text(String($0)), nil, nil, nil] }
            #expect(try connection.copy(Self.copyStaging, rows: sent) == sent.count)
            #expect(try rows(connection) == sent)
        }
    }

    @Test func manyRowsAreSentInChunksAndCounted() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            try connection.execute(Self.createStaging)
            let count = 60_000  // About 3 MB of COPY text: several chunks.
            let stored = try connection.copy(Self.copyStaging) { writer in
                for index in 0..<count {
                    try writer.append([
                        .integer(Int64(index)), .text("quake \(index)\twith a tab"), .real(Double(index) / 10),
                        .bool(index.isMultiple(of: 2)), nil,
                    ])
                }
                #expect(writer.rowCount == count)
            }
            #expect(stored == count)
            let result = try connection.execute(
                "SELECT count(*), sum(id), count(*) FILTER (WHERE felt), count(note), max(name) FROM staging")
            #expect(result.int(row: 0, column: 0) == count)
            #expect(result.int(row: 0, column: 1) == count * (count - 1) / 2)
            #expect(result.int(row: 0, column: 2) == count / 2)
            #expect(result.int(row: 0, column: 3) == 0)
            #expect(result.string(row: 0, column: 4) == "quake 9999\twith a tab")
        }
    }

    /// Rows encoded before the COPY starts, as an ingest encodes a batch while the server stores
    /// the one before, in both formats: a refused row leaves the rows around it whole, and the
    /// encoded rows arrive as sent.
    @Test(arguments: [false, true])
    func rowsEncodedAheadArriveExactlyAsSent(binary: Bool) async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            try connection.execute(Self.createStaging)
            var encoded = PostgresCopyRows(
                for: Self.copyStaging, format: binary ? .binary([.bigint, .text, .double, .boolean, .text]) : .text)
            let texts = ValueTests.awkwardTexts
            let sent: [[PostgresValue?]] = texts.indices.map { index in
                [.integer(Int64(index)), .text(texts[index]), .real(Double(index) / 4), .bool(index % 2 == 0), nil]
            }
            for (index, row) in sent.enumerated() {
                try encoded.append(row)
                if index == 1 {
                    let refused = #expect(throws: PostgresError.self) {
                        try encoded.append([99, "NUL\u{0}", 1.0, nil, nil])
                    }
                    #expect(refused?.sqlState == "22021")
                }
            }
            #expect(encoded.rowCount == sent.count)
            #expect(try connection.copy(encoded: encoded) == sent.count)
            #expect(try rows(connection) == sent)
        }
    }

    /// Rows written field by field (`appendRow`), as an ingest writes its events, arrive as the
    /// same values appended as arrays do; a row that breaks a rule (a value of the wrong kind for
    /// its column, too few or too many fields, text holding NUL, an integer past an `integer`
    /// column, a refused field swallowed by the body) is refused whole, leaving the rows around it
    /// whole; a field outside a row, or a row in the text format, is refused.
    @Test func rowsWrittenFieldByFieldArriveAsArraysDo() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            try connection.execute(Self.createStaging)
            try connection.execute("ALTER TABLE staging ADD COLUMN small integer")
            let copy = "COPY staging (id, name, mag, felt, note, small) FROM STDIN"
            let types: [PostgresColumnType] = [.bigint, .text, .double, .boolean, .text, .integer]
            let texts = ValueTests.awkwardTexts
            let sent: [[PostgresValue?]] = texts.indices.map { index in
                [
                    .integer(Int64(index) - 3), .text(texts[index]), index % 3 == 0 ? nil : .real(Double(index) / 8),
                    .bool(index % 2 == 0), index % 2 == 0 ? nil : .text(texts.reversed()[index]),
                    .integer(Int64(Int32.min) + Int64(index)),
                ]
            }
            var byField = PostgresCopyRows(for: copy, format: .binary(types))
            var byArray = PostgresCopyRows(for: copy, format: .binary(types))
            for (index, row) in sent.enumerated() {
                try byArray.append(row)
                try byField.appendRow { fields throws(PostgresError) in
                    try fields.appendField(Int64(index) - 3)
                    try fields.appendField(texts[index])
                    try fields.appendField(index % 3 == 0 ? nil : Double(index) / 8)
                    try fields.appendField(index % 2 == 0)
                    try fields.appendField(index % 2 == 0 ? nil : texts.reversed()[index])
                    try fields.appendField(Int64(Int32.min) + Int64(index))
                }
                guard index == 1 else { continue }
                #expect(throws: PostgresError.self) {
                    try byField.appendRow { fields throws(PostgresError) in try fields.appendField("not a number") }
                }
                #expect(throws: PostgresError.self) {
                    try byField.appendRow { fields throws(PostgresError) in try fields.appendField(Int64(1)) }
                }
                #expect(throws: PostgresError.self) {
                    try byField.appendRow { fields throws(PostgresError) in
                        for _ in 0..<7 { try fields.appendNull() }
                    }
                }
                let nul = #expect(throws: PostgresError.self) {
                    try byField.appendRow { fields throws(PostgresError) in
                        try fields.appendField(Int64(1))
                        try fields.appendField("NUL\u{0}")
                        for _ in 0..<4 { try fields.appendNull() }
                    }
                }
                #expect(nul?.sqlState == "22021")
                let wide = #expect(throws: PostgresError.self) {
                    try byField.appendRow { fields throws(PostgresError) in
                        for _ in 0..<5 { try fields.appendNull() }
                        try fields.appendField(Int64(Int32.max) + 1)
                    }
                }
                #expect(wide?.sqlState == "22003")
                // A body that swallows a refused field and goes on leaves a row a field short.
                #expect(throws: PostgresError.self) {
                    try byField.appendRow { fields throws(PostgresError) in
                        try fields.appendField(Int64(1))
                        try? fields.appendField("NUL\u{0}")
                        try? fields.appendField(1.0)
                        for _ in 0..<3 { try fields.appendNull() }
                    }
                }
                #expect(throws: PostgresError.self) { try byField.appendField(Int64(1)) }
            }
            #expect(byField.rowCount == sent.count)
            var text = PostgresCopyRows(for: Self.copyStaging, format: .text)
            #expect(throws: PostgresError.self) {
                try text.appendRow { fields throws(PostgresError) in try fields.appendField(Int64(1)) }
            }
            #expect(try connection.copy(encoded: byField) == sent.count)
            let result = try connection.execute("SELECT small FROM staging ORDER BY id")
            let smalls = sent.map { row -> Int64? in
                if case .integer(let small)? = row[5] { small } else { nil }
            }
            #expect((0..<result.rowCount).map { result.int64(row: $0, column: 0) } == smalls)
            #expect(try rows(connection) == sent.map { Array($0.prefix(5)) })
            try connection.execute("TRUNCATE staging")
            #expect(try connection.copy(encoded: byArray) == sent.count)
            #expect(try rows(connection) == sent.map { Array($0.prefix(5)) })
        }
    }

    @Test func badDataFailsWithTheServersSQLStateAndStoresNothing() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            try connection.execute(Self.createStaging)
            let rows: [[PostgresValue?]] = [
                [1, "fine", 1.5, true, nil],
                [.text("not a number"), "bad", 1.5, true, nil],
            ]
            let error = #expect(throws: PostgresError.self) { try connection.copy(Self.copyStaging, rows: rows) }
            #expect(error?.sqlState == "22P02")
            #expect(try connection.execute("SELECT count(*) FROM staging").int(row: 0, column: 0) == 0)
        }
    }

    @Test func aFailingProducerCancelsTheCopy() async throws {
        struct ProducerFailed: Error {}
        try await TestDatabase.with { database in
            let connection = try database.connect()
            try connection.execute(Self.createStaging)
            #expect(throws: ProducerFailed.self) {
                try connection.copy(Self.copyStaging) { writer in
                    try writer.append([1, "one", 1.0, true, nil])
                    throw ProducerFailed()
                }
            }
            let nul = #expect(throws: PostgresError.self) {
                try connection.copy(Self.copyStaging, rows: [[2, "two\u{0}", 2.0, false, nil]])
            }
            #expect(nul?.sqlState == "22021")
            #expect(throws: PostgresError.self) { try connection.copy("SELECT 1", rows: []) }
            // The connection is back to normal, and nothing was stored.
            #expect(try connection.execute("SELECT count(*) FROM staging").int(row: 0, column: 0) == 0)
            #expect(try connection.copy(Self.copyStaging, rows: [[3, "three", 3.0, nil, nil]]) == 1)
        }
    }

    @Test func aRefusedRowLeavesNothingBehind() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            try connection.execute(Self.createStaging)
            let stored = try connection.copy(Self.copyStaging) { writer in
                try writer.append([1, "one", 1.0, true, nil])
                let refused = #expect(throws: PostgresError.self) {
                    try writer.append([2, "two", 2.0, false, "NUL\u{0} in the last field"])
                }
                #expect(refused?.sqlState == "22021")
                try writer.append([3, "three", 3.0, nil, "note"])
                #expect(writer.rowCount == 2)
            }
            #expect(stored == 2)
            #expect(try rows(connection) == [[1, "one", 1.0, true, nil], [3, "three", 3.0, nil, "note"]])
        }
    }
}
