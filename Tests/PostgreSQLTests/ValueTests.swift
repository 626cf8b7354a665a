import PostgreSQL
import Testing

@Suite struct ValueTests {
    /// Text that COPY, C strings or careless quoting would damage.
    static let awkwardTexts = [
        "", " ", "plain", "tab\there", "line\nbreak", "carriage\rreturn\r\n", #"back\slash"#, #"\"#, #"\N"#,
        #"\."#, "\\\t\\n", "quote ' and \"double\"", "$1 ? %s", "Ōfunato 😀 ñ 地震", "trailing spaces  ",
        "\u{7F}\u{1}\u{1B}[31m",
    ]

    /// Doubles whose text is easy to get wrong: shortest forms, extremes, subnormals, signed zero.
    static let awkwardDoubles: [Double] = [
        0.1, 0.2, 0.3, 1.0 / 3, -2.5, 1e-300, 1e300, .leastNonzeroMagnitude, Double.leastNormalMagnitude.nextDown,
        .leastNormalMagnitude,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .pi, 123_456_789.123_456_789, 9_007_199_254_740_992,
        1e22, 1e23, 0, -0.0, .infinity, -.infinity, .nan,
    ]

    @Test func parametersOfEveryKindComeBackUnchanged() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            for text in Self.awkwardTexts {
                let result = try connection.execute("SELECT $1::text, length($1)", [.text(text)])
                #expect(result.string(row: 0, column: 0) == text)
                #expect(result.int(row: 0, column: 1) == text.unicodeScalars.count)  // Code points, as length() counts.
            }
            for integer: Int64 in [0, -1, 1, .min, .max, 1_700_000_000_000] {
                let result = try connection.execute("SELECT $1::bigint", [.integer(integer)])
                #expect(result.int64(row: 0, column: 0) == integer)
            }
            // Text read as an integer the way Swift's Int64(_:) reads it, whatever the text.
            let texts = [
                "42", "+42", "-42", "-0", "007", "", "-", "+", " 1", "1 ", "1.0", "1e3", "0x10", "١٢",
                "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
                "99999999999999999999999", "--1", "+-1", "+9223372036854775808", "+0",
            ]
            for text in texts {
                let result = try connection.execute("SELECT $1::text", [.text(text)])
                #expect(result.int64(row: 0, column: 0) == Int64(text), "\(text)")
            }
            #expect(try connection.execute("SELECT NULL::bigint").int64(row: 0, column: 0) == nil)
            for bool in [true, false] {
                let result = try connection.execute("SELECT $1::boolean, NOT $1::boolean", [.bool(bool)])
                #expect(result.bool(row: 0, column: 0) == bool)
                #expect(result.bool(row: 0, column: 1) == !bool)
            }
        }
    }

    @Test func doublesComeBackAsTheSameBits() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            try connection.execute("CREATE TABLE reading (id integer, value double precision)")
            var generator = SystemRandomNumberGenerator()
            let random = (0..<300).map { _ in
                // Random bit patterns cover every exponent; NaNs and infinities are in the list above.
                let value = Double(bitPattern: generator.next())
                return value.isFinite ? value : 1.5
            }
            let values = Self.awkwardDoubles + random
            for (id, value) in values.enumerated() {
                let result = try connection.executePrepared("SELECT $1::double precision", [.real(value)])
                let back = try #require(result.double(row: 0, column: 0), "\(value)")
                #expect(
                    back.bitPattern == value.bitPattern || (back.isNaN && value.isNaN), "\(value) came back \(back)")
                try connection.executePrepared(
                    "INSERT INTO reading VALUES ($1, $2)", [.integer(Int64(id)), .real(value)])
            }
            // Through stored rows as well, where the server's own float text is all that travels.
            let stored = try connection.execute("SELECT value FROM reading ORDER BY id")
            #expect(stored.rowCount == values.count)
            for (row, value) in values.enumerated() {
                let back = try #require(stored.double(row: row, column: 0))
                #expect(
                    back.bitPattern == value.bitPattern || (back.isNaN && value.isNaN), "\(value) came back \(back)")
            }
            // What the server writes: the shortest exact text, as Swift would.
            let written = try connection.execute(
                "SELECT $1::float8, $2::float8, $3::float8, $4::float8", [0.1, 1e-300, .real(-0.0), .real(.infinity)])
            #expect((0..<4).map { written.string(row: 0, column: $0) } == ["0.1", "1e-300", "-0", "Infinity"])
        }
    }

    @Test func nullsAreNilAndNotEmptyText() async throws {
        try await TestDatabase.with { database in
            let connection = try database.connect()
            let result = try connection.execute(
                "SELECT $1::text, $1::text IS NULL, $2::text, $2::text IS NULL, $3::bigint", [nil, "", nil])
            #expect(result.isNull(row: 0, column: 0))
            #expect(result.string(row: 0, column: 0) == nil)
            #expect(result.bool(row: 0, column: 1) == true)
            #expect(!result.isNull(row: 0, column: 2))
            #expect(result.string(row: 0, column: 2) == "")
            #expect(result.bool(row: 0, column: 3) == false)
            #expect(result.int64(row: 0, column: 4) == nil)
            #expect(result.double(row: 0, column: 4) == nil)
            #expect(result.bool(row: 0, column: 4) == nil)
        }
    }

    @Test func literalsMakeValuesOfTheirKind() {
        let values: [PostgresValue?] = ["text", 42, 2.5, true, nil]
        #expect(values == [.text("text"), .integer(42), .real(2.5), .bool(true), nil])
    }
}
