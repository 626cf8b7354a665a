/// Bytes appended through a pointer, for text built a few bytes at a time by the million: a JSON
/// listing appends some 70 runs of bytes a row, and the SQLite reader copies some 15 texts a row
/// out of SQLite's buffers. `Array.append(contentsOf:)` cost about 90 instructions a run, most of
/// them checks this type makes once.
///
/// A value, as an array is: the storage is copied before a write when another value shares it.
package struct ByteBuffer: Sendable {
    /// `@unchecked Sendable` is sound: a buffer writes to a storage only when it holds the one
    /// reference to it (`isKnownUniquelyReferenced`, as `Array` does), and copies it first
    /// otherwise, so a storage two values share, on two threads or one, is only ever read.
    private final class Storage: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = .allocate(capacity: capacity)
        }

        deinit {
            base.deallocate()
        }
    }

    private var storage: Storage
    /// How many bytes the buffer holds.
    package private(set) var count = 0

    package init(capacity: Int = 1024) {
        storage = Storage(capacity: max(capacity, 16))
    }

    /// A copy of the bytes.
    package var bytes: [UInt8] {
        Array(UnsafeBufferPointer(start: storage.base, count: count))
    }

    package var isEmpty: Bool {
        count == 0
    }

    /// Empties the buffer, keeping its storage.
    package mutating func removeAll() {
        count = 0
    }

    /// Calls `body` with the bytes, which are valid only during the call.
    package func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
        -> Result
    {
        try withExtendedLifetime(storage) { try body(UnsafeBufferPointer(start: storage.base, count: count)) }
    }

    // Inlined into `JSONBuffer`, in this module: a listing's writer then checks and copies in line.
    // Another module (the SQLite reader's batches) calls them, as it cannot see their bodies.
    @inline(__always) package mutating func append(_ byte: UInt8) {
        if count == storage.capacity || !isKnownUniquelyReferenced(&storage) { reserve(count + 1) }
        (storage.base + count).initialize(to: byte)
        count += 1
    }

    @inline(__always) package mutating func append(_ more: UnsafeBufferPointer<UInt8>) {
        guard let source = more.baseAddress else { return }
        let end = count + more.count
        if end > storage.capacity || !isKnownUniquelyReferenced(&storage) { reserve(end) }
        (storage.base + count).initialize(from: source, count: more.count)
        count = end
    }

    /// Gives the buffer a storage of its own with room for `needed` bytes at least, doubling.
    private mutating func reserve(_ needed: Int) {
        let larger = Storage(capacity: needed > storage.capacity ? max(needed, storage.capacity * 2) : storage.capacity)
        larger.base.initialize(from: storage.base, count: count)
        storage = larger
    }
}
