import QuakesCore

/// Reads the little-endian integers and zigzag varints of a packed data file, checking every read
/// against the end, so that a truncated or damaged file is an error and never a crash.
struct PackedReader {
    /// The file ended in the middle of a value.
    struct Truncated: Error {}

    private let buffer: UnsafeRawBufferPointer
    private var position = 0

    init(_ buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
    }

    var isAtEnd: Bool { position == buffer.count }

    /// The bytes not read yet: a bound on how many values can follow, whatever a count says.
    var remaining: Int { buffer.count - position }

    mutating func bytes(_ count: Int) throws(Truncated) -> UnsafeRawBufferPointer.SubSequence {
        guard count <= buffer.count - position else { throw Truncated() }
        defer { position += count }
        return buffer[position..<(position + count)]
    }

    mutating func integer<Value: FixedWidthInteger>(_: Value.Type) throws(Truncated) -> Value {
        let size = MemoryLayout<Value>.size
        guard size <= buffer.count - position else { throw Truncated() }
        defer { position += size }
        return Value(littleEndian: buffer.loadUnaligned(fromByteOffset: position, as: Value.self))
    }

    /// A signed number written as an unsigned varint of `(n << 1) ^ (n >> 63)`: small differences
    /// of either sign take one byte.
    mutating func zigzag() throws(Truncated) -> Int64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard position < buffer.count, shift < 64 else { throw Truncated() }
            let byte = buffer[position]
            position += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
    }
}
