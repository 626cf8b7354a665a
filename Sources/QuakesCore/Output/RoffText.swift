/// Text made safe for roff, for the manual page.
///
/// The help strings were written for a terminal, and several of their characters mean something to
/// roff: a backslash starts an escape, a `.` or `'` at the start of a line makes it a request, and
/// a plain `-` may be set as a hyphen, which breaks copying `--sort` from the page. Characters
/// beyond ASCII become `\[uXXXX]` escapes, which every roff reads whatever its input encoding.
enum RoffText {
    /// A whole line of running text (one paragraph), guarded when it would start with `.` or `'`.
    static func line(_ text: String) -> String {
        let escaped = escape(String(text.drop { $0 == " " }))
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// Text within a line. A `-` that starts a word (`--near`, `-1`, a lone `-`) and the dashes that
    /// follow it are minus signs, `\-`; a `-` inside a word (`read-only`, `2021-07-20`) stays a hyphen.
    static func escape(_ text: String) -> String {
        var result = ""
        var previous: Character?
        var inDashes = false
        for character in text {
            if character == "-" {
                inDashes = inDashes || previous.map { !($0.isLetter || $0.isNumber) } ?? true
                result += inDashes ? "\\-" : "-"
            } else {
                inDashes = false
                result += escape(character)
            }
            previous = character
        }
        return result
    }

    /// A name whose every `-` is a minus: an option (`\-\-max\-bytes`) or a command.
    static func name(_ text: String) -> String {
        String(text.map(escape).joined()).replacingEvery("-", with: "\\-")
    }

    /// One character: `\e` for a backslash, `\[u00E9]` beyond ASCII (`\[u0065_0301]` for a
    /// character of several code points), else itself.
    private static func escape(_ character: Character) -> String {
        if character == "\\" { return "\\e" }
        if character.isASCII { return String(character) }
        let codes = character.unicodeScalars.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return "\\[u" + codes.joined(separator: "_") + "]"
    }
}
