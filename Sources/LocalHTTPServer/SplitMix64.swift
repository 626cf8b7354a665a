/// Steele, Lea and Flood's SplitMix64: a small, fast generator whose sequence depends only on its
/// seed, on every machine. The FDSN emulator's catalogues, the benchmarks' feeds and the tests'
/// random inputs are drawn from it, so that a count a test states, a feed a benchmark times and a
/// failure a seed replays are the same everywhere.
///
/// Here, in the module of test and benchmark support that quakes-bench and the tests import beside
/// the emulator; quakes itself never links it. Not for anything secret: the state is the seed plus a
/// multiple of a constant.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    @inlinable public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform number in [0, 1): the top 53 bits of `next()`.
    @inlinable public mutating func uniform() -> Double {
        Double(next() >> 11) / Double(1 << 53)
    }

    /// A uniform number in (0, 1], whose logarithm is finite: the top 53 bits of `next()`, plus one.
    @inlinable public mutating func uniformAboveZero() -> Double {
        Double((next() >> 11) + 1) / Double(1 << 53)
    }
}
