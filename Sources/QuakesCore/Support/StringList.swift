extension [String] {
    /// The strings with `separator` between them, as `joined(separator:)` gives them.
    ///
    /// For the paths every command takes at start-up: the standard library's `joined(separator:)`
    /// is generic, and its first call asks the Swift runtime whether the array is a `Collection`,
    /// which it answers by searching every protocol conformance in the binary.
    package func concatenated(separator: String) -> String {
        var text = ""
        for index in indices {
            if index > startIndex { text += separator }
            text += self[index]
        }
        return text
    }
}
