/// The ids an ingest has given owners, when it began on a database that had none (a first load):
/// then only those can have an owner, and a batch reads the owners of the ids it names only for
/// those that may be among them. Without it, every batch of a first load would look up every id it
/// names, finding none but the rare repeat, which costs more than the filter's hashing.
///
/// A Bloom filter of fixed size, so that memory stays flat however large the load: it never
/// says no for an id it was given, and says yes for another one in about 200 after a million ids
/// (2 MiB, three probes), which costs only that id's look-up.
///
/// Not `Sendable`: it belongs to a store actor, with the ingest it serves. An engine may use it only
/// where its writers take turns, so that no other writer gives an id an owner during the ingest.
package final class FreshIdentities {
    /// The filter's bits; a power of two of them.
    private var words: [UInt64]
    private let mask: Int

    /// An empty filter of `2^exponent` bits, at least a word of them.
    package init(exponent: Int = 24) {
        precondition(exponent >= 6, "a filter of less than one word")
        words = Array(repeating: 0, count: (1 << exponent) / 64)
        mask = (1 << exponent) - 1
    }

    /// Notes that `id` was given an owner.
    package func insert(_ id: String) {
        let (first, step) = Self.probes(of: id)
        words.withUnsafeMutableBufferPointer { words in
            for probe in 0..<Self.probeCount {
                let bit = (first &+ probe &* step) & mask
                words[bit >> 6] |= 1 << UInt64(bit & 63)
            }
        }
    }

    /// False when `id` was never given an owner; true when it likely was.
    package func mayContain(_ id: String) -> Bool {
        let (first, step) = Self.probes(of: id)
        return words.withUnsafeBufferPointer { words in
            for probe in 0..<Self.probeCount {
                let bit = (first &+ probe &* step) & mask
                if words[bit >> 6] & (1 << UInt64(bit & 63)) == 0 { return false }
            }
            return true
        }
    }

    private static let probeCount = 3

    /// Where the probes of `id` start and how far apart they are: one hash split in two, which
    /// does as well as a hash per probe (Kirsch and Mitzenmacher). The hash is the fingerprint's,
    /// fast and finished so that every bit of the id reaches every bit of it; a collision costs
    /// only a look-up.
    private static func probes(of id: String) -> (first: Int, step: Int) {
        var id = id
        let hash = UInt64(bitPattern: id.withUTF8 { FeatureFingerprint.of(UnsafeRawBufferPointer($0)) })
        return (Int(truncatingIfNeeded: hash), Int(truncatingIfNeeded: hash >> 32) | 1)
    }
}
