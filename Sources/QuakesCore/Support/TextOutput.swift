import Glibc
import Locking
import Synchronization

/// Where a command writes its text: standard output, standard error, or a buffer in tests.
public protocol TextOutput: Sendable {
    /// Writes `text` as UTF-8.
    func write(_ text: String)
    /// Writes bytes that are already UTF-8.
    func write(bytes: UnsafeRawBufferPointer)
    /// Pushes out anything buffered.
    func flush()
    /// True once the reader has gone away (a closed pipe): later writes are dropped, and a command
    /// that is still producing output should stop, quietly.
    var isClosed: Bool { get }
    /// Why a write failed, for any reason but a closed pipe.
    var writeFailure: String? { get }
}

extension TextOutput {
    public var isClosed: Bool { false }
    public var writeFailure: String? { nil }

    /// Writes `text` and a newline.
    public func writeLine(_ text: String) {
        write(text + "\n")
    }
}

/// A write to an output failed (a full disk, a closed pipe).
public struct OutputError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { "cannot write output: \(reason)" }
}

/// Output to a file descriptor, buffered so that long listings cost few system calls.
///
/// Lines are pushed out when the buffer fills and on `flush()`; with `lineBuffered`, after every
/// write (for progress and messages on a terminal).
public final class FileDescriptorOutput: TextOutput {
    private let descriptor: Int32
    private let lineBuffered: Bool
    private let buffer = Locked<[UInt8]>([])
    private let failure = Locked<String?>(nil)
    private let closed = Atomic<Bool>(false)
    private static let capacity = 64 * 1024

    public init(descriptor: Int32, lineBuffered: Bool = false) {
        self.descriptor = descriptor
        self.lineBuffered = lineBuffered
    }

    public func write(_ text: String) {
        var text = text
        text.withUTF8 { write(bytes: UnsafeRawBufferPointer($0)) }
    }

    public func write(bytes: UnsafeRawBufferPointer) {
        guard !isClosed else { return }
        buffer.withLock { buffer in
            buffer.append(contentsOf: bytes)
            if lineBuffered || buffer.count >= Self.capacity { drain(&buffer) }
        }
    }

    public func flush() {
        buffer.withLock { drain(&$0) }
    }

    public var isClosed: Bool {
        closed.load(ordering: .relaxed)
    }

    public var writeFailure: String? {
        failure.withLock { $0 }
    }

    private func drain(_ buffer: inout [UInt8]) {
        defer { buffer.removeAll(keepingCapacity: true) }
        guard !isClosed else { return }
        var written = 0
        buffer.withUnsafeBytes { bytes in
            while written < bytes.count {
                let result = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    // EPIPE needs SIGPIPE ignored, which the executable does: then a closed pipe
                    // (`quakes list | head`) is a quiet end rather than a death by signal.
                    if errno == EPIPE {
                        closed.store(true, ordering: .relaxed)
                    } else {
                        let reason = String(cString: strerror(errno))
                        failure.withLock { $0 = $0 ?? reason }
                    }
                    return
                }
                written += result
            }
        }
    }
}

/// Output kept in memory, for tests and for building text before it is written.
public final class CapturedOutput: TextOutput {
    private let storage = Locked<[UInt8]>([])

    public init() {}

    public func write(_ text: String) {
        storage.withLock { $0.append(contentsOf: text.utf8) }
    }

    public func write(bytes: UnsafeRawBufferPointer) {
        storage.withLock { $0.append(contentsOf: bytes) }
    }

    public func flush() {}

    /// Everything written so far.
    public var text: String {
        storage.withLock { String(decoding: $0, as: UTF8.self) }
    }
}
