/// A 64-bit hash of a feature's bytes exactly as the feed wrote them: what lets a re-ingest see that
/// a feature is the very version already stored without decoding it.
///
/// An identity row keeps the fingerprint of the feature its version was decoded from
/// (`IdentityOwner.fingerprint`); the same bytes decode to the same `Quake`, so a feature whose
/// fingerprint matches is that version, whose `QuakeDigest` the row holds already. Like the digest,
/// it trusts 64 bits not to collide by chance between two versions of one event. It reads eight
/// bytes at a time, about ten times faster than the digest's byte-wise FNV-1a, as it runs over
/// every byte of every feature.
///
/// A first load's filter of ids hashes them with it too (`FreshIdentities`), for its speed.
///
/// The seed names the decoder: bump it whenever `FeatureDecoder` would read the same bytes into a
/// different `Quake`, so that fingerprints stored by the old one match nothing.
enum FeatureFingerprint {
    static let seed: UInt64 = 0x7175_616B_6573_0001

    static func of(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        let count = bytes.count
        var hash = seed ^ (UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = bytes.baseAddress else { return Int64(bitPattern: finish(hash)) }
        var offset = 0
        while offset + 8 <= count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            hash = mix(hash ^ word)
            offset += 8
        }
        if offset < count {
            var tail: UInt64 = 0
            for index in offset..<count {
                tail |= UInt64(base.load(fromByteOffset: index, as: UInt8.self)) << (8 * UInt64(index - offset))
            }
            hash = mix(hash ^ tail)
        }
        return Int64(bitPattern: finish(hash))
    }

    @inline(__always) private static func mix(_ value: UInt64) -> UInt64 {
        let product = value &* 0xBF58_476D_1CE4_E5B9
        return product ^ (product >> 31)
    }

    /// MurmurHash3's finaliser, so that every input bit reaches every output bit.
    @inline(__always) private static func finish(_ value: UInt64) -> UInt64 {
        var hash = value
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash &*= 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 33
        return hash
    }
}
