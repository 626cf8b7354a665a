import QuakesCore

/// A quake's fields laid out in one buffer of its own, made once beside the `Quake` by the decoder
/// that read it: what an engine writes a row from in place of the `Quake`, so that the thread that
/// owns the database (the critical path of a fetch) neither copies each text into a buffer of
/// its own nor copies, retains and releases the `Quake`'s strings, and the decoders, which have
/// cores to spare in a first load, do that work instead.
///
/// Its texts stay where they are while the object lives: SQLite binds them in place
/// (`SQLITE_STATIC`) for as long as a statement holds the row.
///
/// The buffer: a word whose bit `n` says whether field `n` has a value, then one eight-byte slot per
/// field in `QuakeField` order (an `Int64`, a `Double`'s bits, or where a text lies: its offset and
/// length as two `UInt32`s), then the texts' UTF-8, one after another.
///
/// `@unchecked Sendable` is sound: the buffer is written only in `init`, before the object can be
/// shared, read only after, and freed in `deinit`, when no reference is left to read it through.
package final class PackedQuake: @unchecked Sendable {
    /// What the decoders run for the SQLite store: they pack every event they decode.
    static let preparation: any EventPreparation = Preparation()

    private struct Preparation: EventPreparation {
        func prepare(_ quake: Quake) -> any AnyObject & Sendable {
            PackedQuake(quake)
        }
    }

    private let bytes: UnsafeMutableRawBufferPointer

    /// The presence word and the slots, before the texts.
    private static let header = 8 * (1 + QuakeField.allCases.count)

    package init(_ quake: Quake) {
        precondition(QuakeField.allCases.count <= 64, "a field without a presence bit")
        // Room for the texts of most features (about 300 bytes), doubled when a feature needs
        // more: one pass over the fields, as texts are placed by offset, not by address.
        var buffer = Self.allocate(Self.header + 512)
        var present: UInt64 = 0
        var end = Self.header
        for field in QuakeField.allCases {
            let slot = Self.slot(field)
            switch field.kind {
            case .text:
                guard var text = quake.text(field) else { continue }
                let count = text.withUTF8 { utf8 in
                    if end + utf8.count > buffer.count {
                        let larger = Self.allocate(max(2 * buffer.count, end + utf8.count))
                        larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[..<end]))
                        buffer.deallocate()
                        buffer = larger
                    }
                    if let source = utf8.baseAddress {
                        (buffer.baseAddress! + end).copyMemory(from: source, byteCount: utf8.count)
                    }
                    return utf8.count
                }
                buffer.storeBytes(of: UInt32(end), toByteOffset: slot, as: UInt32.self)
                buffer.storeBytes(of: UInt32(count), toByteOffset: slot + 4, as: UInt32.self)
                end += count
            case .integer:
                guard let value = quake.integer(field) else { continue }
                buffer.storeBytes(of: value, toByteOffset: slot, as: Int64.self)
            case .real:
                guard let value = quake.real(field) else { continue }
                buffer.storeBytes(of: value, toByteOffset: slot, as: Double.self)
            }
            present |= 1 << UInt64(field.rawValue)
        }
        buffer.storeBytes(of: present, toByteOffset: 0, as: UInt64.self)
        bytes = buffer
    }

    deinit {
        bytes.deallocate()
    }

    /// `count` bytes bound to `UInt8`, as `withText` reads the texts; the slots are written and read
    /// as raw bytes.
    private static func allocate(_ count: Int) -> UnsafeMutableRawBufferPointer {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 8)
        bytes.bindMemory(to: UInt8.self)
        return bytes
    }

    /// The UTF-8 of a text field, or nil when it has none: valid as long as this object lives, so
    /// the caller holds a reference for as long as it uses the bytes (the SQLite engine holds the
    /// event until the statement it is bound to has run).
    package func text(_ field: QuakeField) -> UnsafeRawBufferPointer? {
        guard field.kind == .text, has(field) else { return nil }
        let slot = Self.slot(field)
        let offset = Int(bytes.load(fromByteOffset: slot, as: UInt32.self))
        let count = Int(bytes.load(fromByteOffset: slot + 4, as: UInt32.self))
        return UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }

    private func has(_ field: QuakeField) -> Bool {
        bytes.load(as: UInt64.self) & (1 << UInt64(field.rawValue)) != 0
    }

    private static func slot(_ field: QuakeField) -> Int {
        8 * (1 + field.rawValue)
    }
}

extension PackedQuake: QuakeRow {
    package func integer(_ field: QuakeField) -> Int64? {
        field.kind == .integer && has(field) ? bytes.load(fromByteOffset: Self.slot(field), as: Int64.self) : nil
    }

    package func real(_ field: QuakeField) -> Double? {
        field.kind == .real && has(field) ? bytes.load(fromByteOffset: Self.slot(field), as: Double.self) : nil
    }

    package func withText<Result>(_ field: QuakeField, _ body: (UnsafeBufferPointer<UInt8>?) throws -> Result)
        rethrows -> Result
    {
        guard let text = text(field) else { return try body(nil) }
        return try body(text.assumingMemoryBound(to: UInt8.self))
    }

    package var quake: Quake {
        Quake(copying: self)
    }
}
