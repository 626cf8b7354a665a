/// A 64-bit fingerprint of everything a version of an event says, but the feed time it came in.
///
/// Two copies of an event that agree in every field have the same digest, whatever feed carried
/// them; copies that differ in any field almost surely differ in it. The identity rules use it to
/// see at once whether a copy with the same `updated` changed anything, and as the last tie-breaker
/// of `EventVersion`, which makes the order of versions total. It is FNV-1a over the quake's JSON
/// object (every typed field, as listings write it) and its `extra` text: both are canonical, so the
/// digest of a decoded feature and of the row it was stored as agree. A change to what the JSON
/// object holds changes every digest, and needs a migration that computes them again.
package enum QuakeDigest {
    package static func of(_ quake: Quake) -> Int64 {
        var hash = FNV1a()
        QuakeFormats.writeJSONObject(quake, to: &hash)
        hash.raw(0)
        if var extra = quake.extra {
            extra.withUTF8 { hash.raw($0) }
        }
        return Int64(bitPattern: hash.value)
    }

    /// 64-bit FNV-1a, taking the JSON text as it is written: the digest needs each byte once, so
    /// none is gathered into a buffer first (which cost more than the hash: an array append for
    /// every key, value and punctuation of every feature).
    private struct FNV1a: JSONOutput {
        private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func raw(_ byte: UInt8) {
            value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }

        mutating func raw(_ more: UnsafeBufferPointer<UInt8>) {
            var hash = value
            for byte in more { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            value = hash
        }
    }
}
