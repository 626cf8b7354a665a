/// Finds the end of a run of bytes that a byte-by-byte reader would pass over, eight bytes at a
/// time: the inner loops of `JSONScanner` (string contents) and `FeedSplitter` (string contents,
/// and everything inside a feature but its strings and brackets), which see every byte of a feed,
/// and the SQLite engine's check that stored text is ASCII, which sees every byte of an export.
///
/// Each test flags the bytes of a word that may need the reader (SWAR: "SIMD within a register");
/// the lowest flag is exact, so the returned index is the first such byte, and the reader takes
/// over there as if it had walked every byte before.
///
/// The scans that run in the per-byte loops of the scanner, the splitter and the JSON writer are
/// always inlined into them: a call each cost more than scanning a short run.
package enum ByteRuns {
    /// The index of the first byte from `index` that is a quote, a backslash, a control character
    /// or not ASCII, or `count`: where a string's plain contents end.
    @inline(__always)
    static func plainStringEnd(_ base: UnsafePointer<UInt8>, from index: Int, count: Int) -> Int {
        scan(base, from: index, count: count) { word in
            zeroBytes(word ^ repeated(.quote)) | zeroBytes(word ^ repeated(.backslash)) | bytesBelow(0x20, word)
                | (word & highBits)
        } stop: { byte in
            byte == .quote || byte == .backslash || byte < 0x20 || byte >= 0x80
        }
    }

    /// The index of the first quote or backslash from `index`, or `count`.
    @inline(__always)
    static func quoteOrBackslash(_ base: UnsafePointer<UInt8>, from index: Int, count: Int) -> Int {
        scan(base, from: index, count: count) { word in
            zeroBytes(word ^ repeated(.quote)) | zeroBytes(word ^ repeated(.backslash))
        } stop: { byte in
            byte == .quote || byte == .backslash
        }
    }

    /// The index of the first quote, brace or bracket from `index` (and of some bytes no JSON has
    /// outside strings: `Y`, `_`, `y`, DEL, and any byte past ASCII), or `count`.
    @inline(__always)
    static func quoteOrBracket(_ base: UnsafePointer<UInt8>, from index: Int, count: Int) -> Int {
        // '[' 0x5B, ']' 0x5D, '{' 0x7B and '}' 0x7D are the bytes b with b & 0xD9 == 0x59 (with the four above).
        scan(base, from: index, count: count) { word in
            zeroBytes(word ^ repeated(.quote)) | zeroBytes((word & repeated(0xD9)) ^ repeated(0x59)) | (word & highBits)
        } stop: { byte in
            byte == .quote || byte & 0xD9 == 0x59 || byte >= 0x80
        }
    }

    /// The index of the first byte from `index` that is not ASCII, or `count`: how a reader of
    /// stored text tells whether it can pass the bytes on as they are.
    package static func nonASCII(_ base: UnsafePointer<UInt8>, from index: Int, count: Int) -> Int {
        scan(base, from: index, count: count) { word in
            word & highBits
        } stop: { byte in
            byte >= 0x80
        }
    }

    @inline(__always) private static func scan(
        _ base: UnsafePointer<UInt8>, from start: Int, count: Int, flags: (UInt64) -> UInt64, stop: (UInt8) -> Bool
    ) -> Int {
        var index = start
        let raw = UnsafeRawPointer(base)
        while index &+ 8 <= count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let flagged = flags(word)
            if flagged != 0 { return index &+ flagged.trailingZeroBitCount / 8 }
            index &+= 8
        }
        while index < count, !stop(base[index]) { index &+= 1 }
        return index
    }

    private static let lowBits: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    @inline(__always) private static func repeated(_ byte: UInt8) -> UInt64 {
        lowBits &* UInt64(byte)
    }

    /// The high bit of every zero byte of `word` (exact up to the lowest; above it, maybe more).
    @inline(__always) private static func zeroBytes(_ word: UInt64) -> UInt64 {
        (word &- lowBits) & ~word & highBits
    }

    /// The high bit of every byte of `word` below `limit` (at most 0x80), as `zeroBytes`.
    @inline(__always) private static func bytesBelow(_ limit: UInt8, _ word: UInt64) -> UInt64 {
        (word &- repeated(limit)) & ~word & highBits
    }
}
