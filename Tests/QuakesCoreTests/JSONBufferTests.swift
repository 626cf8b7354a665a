import Testing

@testable import QuakesCore

/// The listing's number and time writers are hand-written for speed; the standard library's text
/// is their oracle.
@Suite(.disabled(if: SuiteMode.isThreadSanitized, "one thread")) struct JSONBufferTests {
    private func written(_ write: (inout JSONBuffer) -> Void) -> String {
        var buffer = JSONBuffer()
        write(&buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    /// What `Double.description` writes, with integral values as integers, as the listings do.
    private func expected(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : value.description
    }

    /// The buffer writes through a pointer into storage of its own (`ByteBuffer`); a copy is a value
    /// all the same, and growing keeps what was written.
    @Test func aCopyIsAValueAndGrowingKeepsTheText() {
        var first = JSONBuffer(capacity: 0)
        let run = Array("abcdefghij".utf8)
        for _ in 0..<1000 { run.withUnsafeBufferPointer { first.raw($0) } }
        first.raw(UInt8(ascii: "!"))
        let expected = String(repeating: "abcdefghij", count: 1000) + "!"
        #expect(String(decoding: first.bytes, as: UTF8.self) == expected)
        var second = first
        second.raw(UInt8(ascii: "?"))
        first.removeAll()
        first.raw(UInt8(ascii: "x"))
        #expect(String(decoding: second.bytes, as: UTF8.self) == expected + "?")
        #expect(String(decoding: first.bytes, as: UTF8.self) == "x")
        #expect(first.count == 1 && second.count == 10_002)
        var third = second
        run.withUnsafeBufferPointer { third.raw($0) }
        #expect(second.count == 10_002)
        #expect(String(decoding: third.bytes, as: UTF8.self) == expected + "?abcdefghij")
    }

    @Test func numbersAreWrittenAsTheStandardLibraryWritesThem() {
        var random = SystemRandomNumberGenerator()
        var values: [Double] = [
            0, -0.0, 0.001, -0.001, 0.0001, 1e-7, 0.1, 0.2, 0.3, 1.5, -1.25, 4.5, 38.8311667,
            -122.8063354, 1e9, 999_999_999.99999, 1e15, 1e16, 123_456.789_01, .leastNonzeroMagnitude,
            .greatestFiniteMagnitude, 2.0.squareRoot(), 0.1 + 0.2, 1 / 3,
        ]
        // Feed-like values: few decimals, every sign and size.
        for places in 0...7 {
            for _ in 0..<2000 {
                let whole = Double(Int64.random(in: -100_000_000...100_000_000, using: &random))
                values.append(whole / pow10(places))
            }
        }
        // Arbitrary doubles of every magnitude.
        for _ in 0..<5000 { values.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &random))) }
        for value in values where value.isFinite {
            #expect(written { $0.number(value) } == expected(value), "for \(value)")
        }
        #expect(written { $0.number(nil) } == "null")
        #expect(written { $0.number(.nan) } == "null")
        #expect(written { $0.number(.infinity) } == "null")
    }

    @Test func integersIncludeTheExtremes() {
        for value: Int64 in [0, 7, -7, 10, -10, 1_000_000, Int64.max, Int64.min] {
            #expect(written { $0.integer(value) } == String(value))
        }
        #expect(written { $0.integer(Int64?.none) } == "null")
    }

    @Test func timesAreWrittenAsCivilTimeWritesThem() {
        var random = SystemRandomNumberGenerator()
        var times: [Int64] = [
            0, -1, 1, 86_399_999, -62_167_219_200_000, 253_402_300_799_999, 253_402_300_800_000,
            -62_167_219_200_001, 951_782_400_000, 1_626_790_985_120,
        ]
        for _ in 0..<5000 { times.append(Int64.random(in: -80_000_000_000_000...300_000_000_000_000, using: &random)) }
        for time in times {
            #expect(written { $0.time(time) } == "\"\(CivilTime.iso8601(time))\"", "for \(time)")
        }
        #expect(written { $0.time(nil) } == "null")
    }

    @Test func stringsEscapeWhatRFC8259Requires() {
        #expect(written { $0.string("plain") } == #""plain""#)
        #expect(written { $0.string("a\"b\\c\nd\re\tf\u{1}g\u{1F}") } == #""a\"b\\c\nd\re\tf\u0001g\u001f""#)
        #expect(written { $0.string("Ñuñoa, Chile – 東京") } == "\"Ñuñoa, Chile – 東京\"")
        #expect(written { $0.string("\"") } == #""\"""#)
        #expect(written { $0.string("") } == #""""#)
        #expect(written { $0.string(nil) } == "null")
    }

    private func pow10(_ places: Int) -> Double {
        (0..<places).reduce(1) { result, _ in result * 10 }
    }
}
