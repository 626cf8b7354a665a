import Bytes

/// JSON text built straight into bytes, for listings of millions of rows: no intermediate values,
/// strings escaped in one pass over their UTF-8.
package struct JSONBuffer: JSONOutput {
    private var text: ByteBuffer

    package init(capacity: Int = 1024) {
        text = ByteBuffer(capacity: capacity)
    }

    /// How many bytes of text the buffer holds.
    package var count: Int {
        text.count
    }

    /// The text.
    package var bytes: [UInt8] {
        text.bytes
    }

    /// The text, as a string.
    package var string: String {
        text.text
    }

    package var isEmpty: Bool {
        text.isEmpty
    }

    mutating func removeAll() {
        text.removeAll()
    }

    /// How much listings gather before handing it to the output: one copy and one lock per 64 KB
    /// rather than per row.
    static var batchSize: Int { 64 * 1024 }

    /// Hands the bytes to `output` and empties the buffer.
    mutating func write(to output: any TextOutput) {
        guard !text.isEmpty else { return }
        text.withUnsafeBufferPointer { output.write(bytes: UnsafeRawBufferPointer($0)) }
        removeAll()
    }

    // Both inlined, as `ByteBuffer`'s are: through the witness table of `JSONOutput` every run of
    // bytes of a listing was a call of its own.

    /// Appends one byte of JSON text.
    @inline(__always) package mutating func raw(_ byte: UInt8) {
        text.append(byte)
    }

    /// Appends bytes that are already JSON (a member's key, a number's digits).
    @inline(__always) package mutating func raw(_ more: UnsafeBufferPointer<UInt8>) {
        text.append(more)
    }
}
