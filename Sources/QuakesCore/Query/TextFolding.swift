// The standard library's own NFD, which its string comparison uses; `_Unicode` is its interface for
// the toolchain's string-processing module. Foundation's `decomposedStringWithCanonicalMapping`,
// the public equivalent, lives in the module quakes does not link (see Package.swift).
@_spi(_Unicode) import Swift

/// Text matching and ordering that ignores case and accents, Unicode-aware, with an ASCII fast path.
///
/// Folding decomposes text (NFD), drops the combining marks, and lower-cases what remains: `Ō` and
/// `ō` become `o`, so `ofunato` and `ŌFUNATO` find `Ōfunato`, `borazjan` finds `Borāzjān`, and text
/// written composed (NFC) or decomposed (NFD) folds alike. Most USGS places are ASCII, which is
/// compared byte by byte without building strings.
package enum TextFolding {
    /// The folded form of `text`.
    package static func fold(_ text: String) -> String {
        if isASCII(text) { return lowercasedASCII(text) }
        // Into bytes, not a `UnicodeScalarView` (whose append costs far more), and with no look-up
        // of the general category of an ASCII scalar, which is never a mark.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text._nfd where scalar.isASCII || scalar.properties.generalCategory != .nonspacingMark {
            UTF8.encode(scalar) { bytes.append($0) }
        }
        return String(decoding: bytes, as: UTF8.self).lowercased()
    }

    /// True when `haystack`, folded, contains `needle`, which must already be folded.
    package static func contains(_ haystack: UnsafeRawBufferPointer, foldedNeedle needle: UnsafeRawBufferPointer)
        -> Bool
    {
        guard !needle.isEmpty else { return true }
        if isASCII(haystack) {
            // A folded needle that is still not ASCII cannot be in ASCII text.
            guard isASCII(needle) else { return false }
            return asciiContains(haystack, needle)
        }
        var folded = fold(String(decoding: haystack, as: UTF8.self))
        return folded.withUTF8 { asciiContains(UnsafeRawBufferPointer($0), needle) }
    }

    /// Byte search of `needle` in `haystack`, folding ASCII capitals in the haystack.
    private static func asciiContains(_ haystack: UnsafeRawBufferPointer, _ needle: UnsafeRawBufferPointer) -> Bool {
        guard haystack.count >= needle.count else { return false }
        let first = needle[0]
        outer: for start in 0...(haystack.count - needle.count) where lowerASCII(haystack[start]) == first {
            for offset in 1..<needle.count where lowerASCII(haystack[start + offset]) != needle[offset] {
                continue outer
            }
            return true
        }
        return false
    }

    /// Orders two UTF-8 texts by their folded forms: texts that differ only in case and accents
    /// are equal, and the sort's own tie-breakers (newest first, then id) decide between them.
    package static func compare(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Int32 {
        if isASCII(left), isASCII(right) {
            for index in 0..<min(left.count, right.count) {
                let a = lowerASCII(left[index])
                let b = lowerASCII(right[index])
                if a != b { return a < b ? -1 : 1 }
            }
            return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
        }
        let a = fold(String(decoding: left, as: UTF8.self)).unicodeScalars
        let b = fold(String(decoding: right, as: UTF8.self)).unicodeScalars
        if a.elementsEqual(b) { return 0 }
        return a.lexicographicallyPrecedes(b) ? -1 : 1
    }

    /// `text` with ASCII capitals lower-cased and nothing else changed, as SQLite's `lower()` does.
    package static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map(lowerASCII), as: UTF8.self)
    }

    /// Whether every byte is ASCII, by the stored-text readers' word-at-a-time scan
    /// (`ByteRuns.nonASCII`), not `allSatisfy`: in the debug builds the tests run, each step of the
    /// unspecialised algorithm queues on the Swift runtime's lock for a type, as concurrent sorts
    /// compare places.
    private static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        return ByteRuns.nonASCII(base.assumingMemoryBound(to: UInt8.self), from: 0, count: bytes.count) == bytes.count
    }

    private static func isASCII(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { isASCII(UnsafeRawBufferPointer($0)) }
    }

    /// `text.lowercased()` for ASCII text, a byte at a time: the standard library's, made for every
    /// script, costs far more, and runs for every event a fetch stores.
    private static func lowercasedASCII(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            String(unsafeUninitializedCapacity: bytes.count) { folded in
                for index in bytes.indices { folded[index] = lowerASCII(bytes[index]) }
                return bytes.count
            }
        }
    }

    @inline(__always)
    private static func lowerASCII(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }
}
