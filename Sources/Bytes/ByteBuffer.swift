/// Bytes appended through a pointer, for text built a few bytes at a time by the million: a JSON
/// listing appends some 70 runs of bytes a row, the SQLite reader copies some 15 texts a row out of
/// SQLite's buffers, and a PostgreSQL COPY writes each field of each row in two or three runs (the
/// tests' FDSN emulator writes its answers here too).
/// `Array.append(contentsOf:)` makes, at every run, checks that this type makes once.
///
/// A value, as an array is: the storage is copied before a write when another value shares it.
/// Inlinable, in a module of its own below the core and the PostgreSQL wrapper, so that every
/// writer copies in line, whichever module it is in.
public struct ByteBuffer: Sendable {
    /// `@unchecked Sendable` is sound: a buffer writes to a storage only when it holds the one
    /// reference to it (`isKnownUniquelyReferenced`, as `Array` does), and copies it first
    /// otherwise, so a storage two values share, on two threads or one, is only ever read.
    @usableFromInline final class Storage: @unchecked Sendable {
        @usableFromInline let base: UnsafeMutablePointer<UInt8>
        @usableFromInline let capacity: Int

        @usableFromInline init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit {
            base.deallocate()
        }
    }

    @usableFromInline var storage: Storage
    @usableFromInline var used = 0

    public init(capacity: Int = 1024) {
        storage = Storage(capacity: max(capacity, 16))
    }

    /// How many bytes the buffer holds.
    @inlinable public var count: Int {
        used
    }

    @inlinable public var isEmpty: Bool {
        used == 0
    }

    /// A copy of the bytes.
    public var bytes: [UInt8] {
        // Copied into an array made for them rather than by `Array(_:)` from a buffer pointer: in
        // the debug builds the tests run, that generic path asked the runtime for the array's type
        // under a lock at every call, which concurrent writers queued on.
        guard used > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: used) { array, count in
            array.baseAddress!.initialize(from: storage.base, count: used)
            count = used
        }
    }

    /// The bytes as UTF-8 text, ill-formed sequences repaired.
    public var text: String {
        guard used > 0 else { return "" }
        return String(unsafeUninitializedCapacity: used) { text in
            text.baseAddress!.initialize(from: storage.base, count: used)
            return used
        }
    }

    /// Empties the buffer, keeping its storage.
    @inlinable public mutating func removeAll() {
        used = 0
    }

    /// Keeps the first `count` bytes only: what a writer does to take back a row it could not end.
    @inlinable public mutating func truncate(to count: Int) {
        precondition(count >= 0 && count <= used, "truncating \(used) bytes to \(count)")
        used = count
    }

    /// Calls `body` with the bytes, which are valid only during the call.
    @inlinable public func withUnsafeBufferPointer<Result>(
        _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
    ) rethrows -> Result {
        try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: storage.base, count: used)) }
    }

    @inlinable public mutating func append(_ byte: UInt8) {
        if used == storage.capacity || !isKnownUniquelyReferenced(&storage) { reserve(used + 1) }
        (storage.base + used).initialize(to: byte)
        used += 1
    }

    @inlinable public mutating func append(_ more: UnsafeBufferPointer<UInt8>) {
        guard let source = more.baseAddress else { return }
        let end = used + more.count
        if end > storage.capacity || !isKnownUniquelyReferenced(&storage) { reserve(end) }
        (storage.base + used).initialize(from: source, count: more.count)
        used = end
    }

    @inlinable public mutating func append(_ more: UnsafeRawBufferPointer) {
        append(more.assumingMemoryBound(to: UInt8.self))
    }

    /// `value` in network byte order, stored in place rather than copied by `memcpy`: the binary
    /// COPY format writes one before every field.
    @inlinable public mutating func appendBigEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        let end = used + MemoryLayout<Integer>.size
        if end > storage.capacity || !isKnownUniquelyReferenced(&storage) { reserve(end) }
        UnsafeMutableRawPointer(storage.base + used).storeBytes(of: value.bigEndian, as: Integer.self)
        used = end
    }

    /// `value` in decimal, written straight in: the COPY text format's integers and the FDSN
    /// emulator's.
    @inlinable public mutating func appendDecimal(_ value: Int64) {
        if value < 0 { append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        // 20 digits hold any UInt64; they are made from the last.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            append(UnsafeBufferPointer(start: digits.baseAddress! + start, count: 20 - start))
        }
    }

    /// Gives the buffer a storage of its own with room for `needed` bytes at least, doubling.
    @usableFromInline mutating func reserve(_ needed: Int) {
        let larger = Storage(capacity: needed > storage.capacity ? max(needed, storage.capacity * 2) : storage.capacity)
        larger.base.initialize(from: storage.base, count: used)
        storage = larger
    }
}
