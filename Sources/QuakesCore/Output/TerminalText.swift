/// Text from a feed made safe to print: nothing in it can move the cursor, change colours or
/// reorder what a terminal shows.
package enum TerminalText {
    /// `text` with control characters (C0, DEL, C1) and bidirectional overrides written as escapes:
    /// `\x1B[31m` prints as those characters, not as a colour change.
    package static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar) {
                result +=
                    scalar.value < 0x100
                    ? "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
                    : "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F..<0xA0: true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true  // Bidirectional controls.
        default: false
        }
    }

    /// The columns `text` takes on a terminal: one per character, two for wide East Asian ones.
    package static func width(_ text: String) -> Int {
        text.reduce(0) { width, character in
            guard let scalar = character.unicodeScalars.first else { return width }
            return width + (isWide(scalar) ? 2 : 1)
        }
    }

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            true
        default: false
        }
    }

    /// `text` cut to at most `width` columns, ending with `…` when cut.
    package static func truncated(_ text: String, to width: Int) -> String {
        guard self.width(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let next = self.width(String(character))
            if used + next > width - 1 { break }
            result.append(character)
            used += next
        }
        return result + "…"
    }

    /// `text` padded with spaces to `width` columns.
    package static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - self.width(text)))
    }

    /// 1234567 as `1,234,567`, as people read counts.
    package static func grouped(_ number: Int) -> String {
        let digits = String(number)
        return digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : String(digit)
        }.joined()
    }
}
