import Foundation
import Testing

@testable import QuakesCore

/// Runs `body` with a scanner over `text`.
private func scanning<Result>(_ text: String, _ body: (inout JSONScanner) throws -> Result) rethrows -> Result {
    try scanning(Array(text.utf8), body)
}

private func scanning<Result>(_ bytes: [UInt8], _ body: (inout JSONScanner) throws -> Result) rethrows -> Result {
    try bytes.withUnsafeBytes { buffer in
        var scanner = JSONScanner(buffer)
        return try body(&scanner)
    }
}

private func string(_ json: String) throws -> String {
    try scanning(json) { scanner in scanner.string(try scanner.scanString()) }
}

private func stringError(_ bytes: [UInt8]) -> String? {
    scanning(bytes) { scanner -> String? in
        do {
            _ = try scanner.scanString()
            return nil
        } catch let error as JSONSyntaxError {
            return error.reason
        } catch {
            return "unexpected \(error)"
        }
    }
}

@Suite struct JSONScannerStringTests {
    @Test func decodesEveryEscape() throws {
        #expect(try string(#""plain""#) == "plain")
        #expect(try string(#""a\"b\\c\/d""#) == "a\"b\\c/d")
        #expect(try string(#""\b\f\n\r\t""#) == "\u{8}\u{C}\n\r\t")
        #expect(try string(#""Lithaki\u00e1, Guam \u00C1""#) == "Lithakiá, Guam Á")
        #expect(try string(#""\u0000 \u20ac""#) == "\u{0} €")
        #expect(try string(#""\ud83d\ude00 smile""#) == "😀 smile")
        #expect(try string(#""""#) == "")
    }

    @Test func keepsRawUTF8() throws {
        #expect(try string("\"3 km S of Pāhala, Hawaii — Zindah Jān 😀\"") == "3 km S of Pāhala, Hawaii — Zindah Jān 😀")
    }

    @Test(arguments: [
        (#""\ud800""#, "lone high surrogate"),
        (#""\ud800\u0041""#, "lone high surrogate"),
        (#""\udc00""#, "lone low surrogate"),
        (#""\x""#, "invalid escape"),
        (#""\u12g4""#, "not a hex digit"),
        (#""\u12""#, "\\u escape"),
        ("\"tab\there\"", "control character"),
        ("\"unterminated", "unterminated string"),
        ("\"ends in backslash\\", "unterminated string"),
    ])
    func rejectsBrokenStrings(json: String, reason: String) throws {
        let error = try #require(stringError(Array(json.utf8)))
        #expect(error.contains(reason))
    }

    @Test(
        arguments: [
            [0x22, 0xFF, 0x22],  // never valid
            [0x22, 0xC0, 0x80, 0x22],  // overlong NUL
            [0x22, 0xE0, 0x80, 0x80, 0x22],  // overlong
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // an encoded surrogate
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
            [0x22, 0xE2, 0x82, 0x22],  // truncated sequence
            [0x22, 0x80, 0x22],  // a lone continuation byte
        ] as [[UInt8]])
    func rejectsInvalidUTF8(bytes: [UInt8]) throws {
        let error = try #require(stringError(bytes))
        #expect(error.contains("UTF-8"))
    }
}

@Suite struct JSONScannerNumberTests {
    private func value(_ text: String) throws -> Double {
        try scanning(text) { scanner in scanner.double(try scanner.scanNumber()) }
    }

    private func integer(_ text: String) throws -> Int64? {
        try scanning(text) { scanner in scanner.integer(try scanner.scanNumber()) }
    }

    @Test(arguments: [
        "0", "-0", "12", "-155.389495849609", "0.0900000036", "1E+2", "1e-7", "2.0999999",
        "123456789012345678901234567890", "1.7976931348623157e308", "5e-324", "2.2250738585072011e-308",
        "9007199254740993", "0.30000000000000004", "1e23", "8.41e21", "1e400", "-1e400", "1e-400",
    ])
    func convertsLikeTheStandardLibrary(text: String) throws {
        let expected = try #require(Double(text))
        let decoded = try value(text)
        #expect(decoded.bitPattern == expected.bitPattern, "\(text): \(decoded) != \(expected)")
    }

    @Test func roundTripsRandomDoubles() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let original =
                Double(bitPattern: generator.next() & 0x7FEF_FFFF_FFFF_FFFF)
                * (Bool.random(using: &generator) ? 1 : -1)
            for text in [original.description, String(format: "%.6f", original)] where text.count < 400 {
                #expect(try value(text).bitPattern == Double(text)!.bitPattern, "\(text)")
            }
        }
    }

    @Test func readsWholeNumbersExactly() throws {
        #expect(try integer("1626796217729") == 1_626_796_217_729)
        #expect(try integer("-42") == -42)
        #expect(try integer("12.0") == 12)
        #expect(try integer("1.2e1") == 12)
        #expect(try integer("-9007199254740993") == -9_007_199_254_740_993)
        #expect(try integer("12.5") == nil)
        #expect(try integer("1e400") == nil)
        #expect(try integer("99999999999999999999") == nil)
    }

    @Test(arguments: ["01", "-", "1.", ".5", "1e", "1e+", "+1", "-a", "00"])
    func rejectsNumbersOutsideTheGrammar(text: String) throws {
        #expect(throws: JSONSyntaxError.self) {
            try scanning(text) { scanner in
                _ = try scanner.scanNumber()
                scanner.skipWhitespace()
                guard scanner.isAtEnd else { throw scanner.unexpected("expected the end") }
            }
        }
    }
}

@Suite struct JSONScannerValueTests {
    private func copy(_ text: String) throws -> String {
        try scanning(text) { scanner in
            var output = JSONBuffer(capacity: 0)
            try scanner.copyValue(into: &output)
            scanner.skipWhitespace()
            guard scanner.isAtEnd else { throw scanner.unexpected("expected the end") }
            return String(decoding: output.bytes, as: UTF8.self)
        }
    }

    @Test func copiesValuesWithoutInsignificantWhitespace() throws {
        #expect(
            try copy(#" { "a" : [ 1 , 2.5e3 , "x y" ] , "b" : { } , "c" : [ ] , "d" : null } "#)
                == #"{"a":[1,2.5e3,"x y"],"b":{},"c":[],"d":null}"#)
        #expect(try copy("\"kept \\u00e9scapes\"") == "\"kept \\u00e9scapes\"")
        #expect(try copy("[true,false]") == "[true,false]")
    }

    @Test(arguments: [
        "NaN", "0x10", "Infinity", "[1,]", "{\"a\"}", "{\"a\":1,}", "[1 2]", "{1:2}", "tru", "nul",
        "[", "{\"a\":[1}", "'single'",
    ])
    func rejectsInvalidValues(text: String) throws {
        #expect(throws: JSONSyntaxError.self) { try copy(text) }
    }

    @Test func acceptsNestingUpToTheLimitAndRefusesDeeperWithoutRecursion() throws {
        let limit = JSONScanner.maximumDepth
        let deepest = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(try copy(deepest) == deepest)
        let tooDeep = String(repeating: "[", count: limit + 1) + String(repeating: "]", count: limit + 1)
        #expect(throws: JSONSyntaxError.self) { try copy(tooDeep) }
        let hostile = String(repeating: "{\"a\":[", count: 100_000)
        let error = try #require(throws: JSONSyntaxError.self) { try copy(hostile) }
        #expect(error.reason.contains("nesting deeper than 512"))
    }

    /// Objects and arrays alternate through the 64th level, where `copyValue` moves its record of
    /// open containers from a word to an array: each must still be closed by its own bracket.
    @Test func closesObjectsAndArraysInTurnPastTheSixtyFourthLevel() throws {
        // Siblings of each kind, so that the levels below are opened again as the other kind.
        let siblings = #"[{"a":1},[2],{"b":[3]}]"#
        for levels in [62, 63, 64, 65, 66, 130, JSONScanner.maximumDepth - 3] {
            let opening = (0..<levels).map { $0.isMultiple(of: 2) ? #"{"a":"# : "[" }.joined()
            let closing = (0..<levels).reversed().map { $0.isMultiple(of: 2) ? "}" : "]" }.joined()
            #expect(try copy(opening + siblings + closing) == opening + siblings + closing)
            // The innermost closer swapped for the other kind: refused, whichever kind it is.
            let innermost = closing.first == "}" ? "]" : "}"
            #expect(throws: JSONSyntaxError.self) { try copy(opening + siblings + innermost + closing.dropFirst()) }
        }
    }

    @Test func reportsTheOffsetWhereParsingStopped() throws {
        let error = try #require(throws: JSONSyntaxError.self) {
            try scanning(#"{"a": [1, 2, x]}"#) { scanner in try scanner.skipValue() }
        }
        #expect(error.offset == 13)
        #expect(error.reason == "unexpected 'x' (expected a value)")
    }
}
