/// JSON text built straight into bytes, for listings of millions of rows: no intermediate values,
/// strings escaped in one pass over their UTF-8.
package struct JSONBuffer: JSONOutput {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// How much listings gather before handing it to the output: one copy and one lock per 64 KB
    /// rather than per row.
    static var batchSize: Int { 64 * 1024 }

    /// Hands the bytes to `output` and empties the buffer.
    mutating func write(to output: any TextOutput) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { output.write(bytes: $0) }
        removeAll()
    }

    /// Appends one byte of JSON text.
    package mutating func raw(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends bytes that are already JSON (a member's key, a number's digits).
    package mutating func raw(_ more: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: more)
    }
}
