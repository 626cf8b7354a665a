// Foundation's string methods live in a module that quakes does not link (see Package.swift for
// why); these are the two it needs, on the text's bytes and characters.

extension StringProtocol {
    /// The text without the leading and trailing characters `isTrimmed` accepts, as Foundation's
    /// `trimmingCharacters(in:)` gave it.
    package func trimmingCharacters(where isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = lastIndex(where: { !isTrimmed($0) })!
        return String(self[first...last])
    }

    /// The text with every occurrence of `target` replaced, matched byte for byte, as Foundation's
    /// `replacingOccurrences(of:with:)` did: a quote followed by a combining mark is still a quote
    /// to the shell, so quoting must not compare whole characters, as `replacing(_:with:)` does.
    package func replacingEvery(_ target: String, with replacement: String) -> String {
        let source = Array(utf8)
        let pattern = Array(target.utf8)
        guard !pattern.isEmpty else { return String(self) }
        var result: [UInt8] = []
        result.reserveCapacity(source.count)
        var index = 0
        while index < source.count {
            if source[index] == pattern[0], source.count - index >= pattern.count,
                source[index..<index + pattern.count].elementsEqual(pattern)
            {
                result += replacement.utf8
                index += pattern.count
            } else {
                result.append(source[index])
                index += 1
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}

extension Character {
    /// A space or a tab, not a line break: what Foundation's `CharacterSet.whitespaces` holds.
    package var isBlank: Bool { isWhitespace && !isNewline }
}
