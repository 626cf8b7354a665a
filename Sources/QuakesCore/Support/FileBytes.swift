import Glibc

/// The one loop that reads a file's bytes from a descriptor: it retries a read a signal
/// interrupted (EINTR), stops at the end of the file, and never reads past a limit, so that a file
/// that grows while it is read cannot make the caller hold more than it asked for.
///
/// Time zone files, the data files quakes ships, a GeoJSON store and a database's header are all
/// read through it.
package enum FileBytes {
    /// Reads from `descriptor` until the end of the file or `limit` bytes, whichever comes first;
    /// `expected` (a size from `fstat`) sizes the first buffer, one byte over, so that the read that
    /// finds the end needs no larger one. Nil when a read fails, with `errno` saying why.
    package static func read(_ descriptor: Int32, upTo limit: Int, expected: Int = 0) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: min(limit, max(expected + 1, 16_384)))
        var done = 0
        while done < limit {
            if done == bytes.count {
                bytes.append(contentsOf: repeatElement(0, count: min(limit - done, bytes.count)))
            }
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + done, $0.count - done) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            done += count
        }
        bytes.removeLast(bytes.count - done)
        return bytes
    }

    /// The bytes of the file at `path` when it is a regular file of at most `limit` bytes; nil
    /// otherwise, or when it cannot be read. One descriptor serves the check and the read, so a file
    /// replaced or grown in between is still read no further than the bound; it is opened without
    /// waiting, so a FIFO at the path is refused rather than waited on.
    package static func ofRegularFile(_ path: String, atMost limit: Int) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= limit else {
            return nil
        }
        // One byte past the limit tells a file that grew beyond it meanwhile.
        let bound = limit == .max ? limit : limit + 1
        guard let bytes = read(descriptor, upTo: bound, expected: Int(status.st_size)), bytes.count <= limit else {
            return nil
        }
        return bytes
    }
}
