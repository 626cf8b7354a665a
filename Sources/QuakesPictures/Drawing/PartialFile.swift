import Glibc
import QuakesCore

/// The temporary file a picture is written to, beside the name it is renamed to once whole.
///
/// It keeps the system's reason for the first write that failed: cairo, which writes through it,
/// only says that one did.
final class PartialFile {
    /// The name messages show: the one the user gave.
    let path: String
    /// The name the picture is renamed to.
    private let target: String
    private let temporary: String
    private var descriptor: Int32
    private var writeFailure: String?

    /// Creates the temporary file beside `target`; a folder that does not exist or cannot be
    /// written fails here, before anything is drawn. A new picture gets the mode any file the user
    /// creates gets. Messages name the file `shownAs` (as the user gave it).
    init(replacing target: String, shownAs path: String? = nil) throws(PictureError) {
        let shown = path ?? target
        self.path = shown
        self.target = target
        temporary = target + ".tmp." + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw PictureError(.cannotWrite(path: shown, reason: Self.systemReason())) }
    }

    /// Replaces the file at `target` with what `write` puts in the partial file, once all of it is
    /// on disk; if `write` throws, or `isCancelled` says so when it is done, the file stays as it
    /// was and nothing is left beside it. Blocks: call it off the cooperative pool.
    static func replacing(
        _ target: String, shownAs path: String? = nil, isCancelled: () -> Bool = { false },
        _ write: (PartialFile) throws -> Void
    ) throws {
        let file = try PartialFile(replacing: target, shownAs: path)
        do {
            try write(file)
            try file.checkWrites()
            if isCancelled() { throw CancellationError() }
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }

    /// Writes `bytes` into the partial file, whose `checkWrites` then says whether they all went.
    func append(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write($0) }
    }

    /// Appends `bytes`; false once a write failed, whose reason `checkWrites` throws.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard writeFailure == nil else { return false }
        var written = 0
        while written < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                writeFailure = Self.systemReason()
                return false
            }
            written += count
        }
        return true
    }

    /// Throws the reason of a write that failed, which cairo reports only as "error while writing".
    func checkWrites() throws(PictureError) {
        if let writeFailure { throw PictureError(.cannotWrite(path: path, reason: writeFailure)) }
    }

    /// Flushes the file to disk and renames it over `path`, so that after a crash the name holds
    /// the old picture or the whole new one.
    func commit() throws(PictureError) {
        let flushed = fsync(descriptor) == 0
        let reason = flushed ? nil : Self.systemReason()
        close(descriptor)
        descriptor = -1
        if let reason { throw PictureError(.cannotWrite(path: path, reason: reason)) }
        guard rename(temporary, target) == 0 else {
            throw PictureError(.cannotWrite(path: path, reason: Self.systemReason()))
        }
    }

    /// Closes and removes the temporary file after a failure.
    func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(temporary)
    }

    private static func systemReason() -> String { String(cString: strerror(errno)) }
}
