import CZlib
import Locking

/// Passes a body on to another sink, decompressing it first when it is gzip, which it recognises by
/// its first two bytes (1F 8B) rather than by a name or a header: a `.geojson.gz` file, standard
/// input, or a server that sends a gzip file without saying so. A body that libcurl already decoded
/// (`Content-Encoding: gzip`) starts with JSON and passes through untouched.
///
/// The limit on the body's size counts what comes out, so a gzip bomb stops there.
final class GzipDecodingSink<Next: ByteSink>: ByteSink {
    private let next: Next
    private let url: String
    private let maximumBytes: Int64
    private let state = Locked(State())

    private struct State {
        /// The first bytes, until two have come and the body's kind is known.
        var head: [UInt8] = []
        var inflater: Inflater?
        var decided = false
    }

    init(next: Next, url: String, maximumBytes: Int64) {
        self.next = next
        self.url = url
        self.maximumBytes = maximumBytes
    }

    deinit {
        // A body that stopped before its end (an error, a cancellation) leaves the decoder open.
        state.withLock { state in
            state.inflater?.end()
            state.inflater = nil
        }
    }

    func transferProgress(received: Int64, expected: Int64?) {
        next.transferProgress(received: received, expected: expected)
    }

    func receive(_ bytes: UnsafeRawBufferPointer) throws {
        // Only the download thread calls in; the lock is never contended.
        try state.withLock { state in
            if !state.decided {
                state.head += bytes
                guard state.head.count >= 2 else { return }
                state.decided = true
                if state.head[0] == 0x1F, state.head[1] == 0x8B {
                    state.inflater = try Inflater(url: url, maximumBytes: maximumBytes)
                }
                let head = state.head
                state.head = []
                try head.withUnsafeBytes { try Self.pass($0, through: &state.inflater, to: next) }
                return
            }
            try Self.pass(bytes, through: &state.inflater, to: next)
        }
    }

    func finish() throws {
        try state.withLock { state in
            if !state.decided, !state.head.isEmpty {
                let head = state.head
                try head.withUnsafeBytes { try next.receive($0) }
            }
            defer {
                state.inflater?.end()
                state.inflater = nil
            }
            try state.inflater?.finish()
        }
        try next.finish()
    }

    private static func pass(_ bytes: UnsafeRawBufferPointer, through inflater: inout Inflater?, to next: Next) throws {
        guard inflater != nil else { return try next.receive(bytes) }
        try inflater!.inflate(bytes) { try next.receive($0) }
    }
}

/// zlib's gzip decoder over one body. The `z_stream` lives on the heap, where zlib needs it to stay
/// put; `end()` frees it.
///
/// `@unchecked Sendable` is sound: an inflater is created, used and ended only inside the `Locked`
/// state of the one `GzipDecodingSink` that made it (it is private to this file, and no method of
/// the sink hands it out), so its stream is never touched by two threads at once; and the input
/// pointer it gives zlib is cleared before `inflate` returns, so no caller's memory is kept. The
/// region checker cannot see that the pointer does not outlive the call, hence the annotation.
private struct Inflater: @unchecked Sendable {
    private let stream: UnsafeMutablePointer<z_stream>
    private let url: String
    private let maximumBytes: Int64
    private var produced: Int64 = 0
    /// True between the end of one gzip member and the start of the next, or after the last.
    private var atMemberEnd = false
    private var output = [UInt8](repeating: 0, count: 256 * 1024)

    init(url: String, maximumBytes: Int64) throws {
        self.url = url
        self.maximumBytes = maximumBytes
        if let failure = czlib_load() {
            throw DownloadError.transfer(url: url, reason: String(cString: failure))
        }
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard czlib_inflate_init(stream) == Z_OK else {
            stream.deallocate()
            throw DownloadError.transfer(url: url, reason: "zlib could not start decoding")
        }
    }

    /// Frees zlib's memory; the inflater is not used again.
    func end() {
        _ = czlib_inflate_end(stream)
        stream.deallocate()
    }

    /// Decodes `bytes`, handing what comes out to `emit`.
    mutating func inflate(_ bytes: UnsafeRawBufferPointer, emit: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        // zlib reads the input only during this call.
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(bytes.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        while stream.pointee.avail_in > 0 {
            if atMemberEnd {
                // Another member follows (gzip files may be concatenated).
                guard czlib_inflate_reset(stream) == Z_OK else { throw corrupt() }
                atMemberEnd = false
            }
            let stream = stream
            let (result, count) = output.withUnsafeMutableBytes { buffer in
                stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
                stream.pointee.avail_out = uInt(buffer.count)
                let result = czlib_inflate(stream, Z_NO_FLUSH)
                return (result, buffer.count - Int(stream.pointee.avail_out))
            }
            guard result == Z_OK || result == Z_STREAM_END || (result == Z_BUF_ERROR && count > 0) else {
                throw corrupt()
            }
            produced += Int64(count)
            guard produced <= maximumBytes else { throw DownloadError.tooLarge(url: url, limit: maximumBytes) }
            if count > 0 { try output.withUnsafeBytes { try emit(UnsafeRawBufferPointer(rebasing: $0[..<count])) } }
            if result == Z_STREAM_END { atMemberEnd = true }
        }
    }

    /// Fails unless the last member ended.
    func finish() throws {
        guard atMemberEnd else {
            throw FeedError(source: url, offset: Int64(stream.pointee.total_in), reason: "the gzip data is cut short")
        }
    }

    private func corrupt() -> FeedError {
        let reason = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
        return FeedError(
            source: url, offset: Int64(stream.pointee.total_in), reason: "the gzip data is damaged (\(reason))")
    }
}
