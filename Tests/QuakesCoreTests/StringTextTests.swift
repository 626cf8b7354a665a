import Foundation
import Testing

@testable import QuakesCore

/// The string helpers that replaced Foundation's in the executable, held to Foundation's results.
@Suite struct StringTextTests {
    @Test func printfFormatsAsFoundationDid() {
        let cases: [(String, [any CVarArg])] = [
            ("%4.1f", [4.25]), ("%6.1f km", [-12.05]), ("%.2f", [0.005]), ("b-value %.2f ± %.2f", [1.0, 0.125]),
            ("%7.1f km", [12_345.678]), ("%.1f", [Double.nan]), ("%300.1f|", [2.5]),
        ]
        for (format, arguments) in cases {
            #expect(
                String(cFormat: format, arguments: arguments) == String(format: format, arguments: arguments),
                "\(format)")
        }
    }

    /// Matched byte for byte: a quote followed by a combining mark is one character to Swift, but
    /// still a quote to the shell the text is quoted for. (swift-corelibs-foundation's
    /// `replacingOccurrences`, which quakes used before, left that quote as it was.)
    @Test func replacingMatchesBytesNotCharacters() {
        let text = "it's a'\u{301} test"
        #expect(text.replacingEvery("'", with: #"'\''"#) == "it'\\''s a'\\''\u{301} test")
        #expect(text.replacingEvery("'", with: "").contains("'") == false)
        #expect("aaa".replacingEvery("aa", with: "b") == "ba")
        #expect("".replacingEvery("a", with: "b") == "")
        #expect("abc".replacingEvery("", with: "x") == "abc")
    }

    @Test func trimmingKeepsWhatIsInside() {
        #expect(" \t a b \t".trimmingCharacters(where: \.isBlank) == "a b")
        #expect(" \n a \n".trimmingCharacters(where: \.isBlank) == "\n a \n")
        #expect(" \n a \n".trimmingCharacters(where: \.isWhitespace) == "a")
        #expect("(503),".trimmingCharacters(where: \.isPunctuation) == "503")
        #expect("   ".trimmingCharacters(where: \.isBlank) == "")
    }
}
