import Glibc

/// Reads a document from standard input (`quakes fetch -`) as a downloader would fetch it: on a
/// thread of its own, in blocks, within the size limit, and stopping when the command is cancelled.
struct StandardInputReader: Downloader {
    /// The descriptor read from: standard input, or another in tests.
    var descriptor: Int32 = STDIN_FILENO

    func download(_ request: DownloadRequest, into sink: some ByteSink) async throws -> DownloadResponse {
        let cancellation = CancellationFlag()
        let descriptor = descriptor
        return try await withTaskCancellationHandler {
            try await Blocking.run {
                var buffer = [UInt8](repeating: 0, count: 256 * 1024)
                var total: Int64 = 0
                while true {
                    // A pipe that stays silent must not hold a Ctrl-C back: look again every 100 ms.
                    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    let ready = poll(&poller, 1, 100)
                    if cancellation.isCancelled { throw CancellationError() }
                    if ready < 0, errno == EINTR { continue }
                    guard ready != 0 else { continue }
                    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
                    if count < 0, errno == EINTR || errno == EAGAIN { continue }
                    guard count >= 0 else {
                        throw DownloadError.unreadableFile(
                            path: "standard input", reason: String(cString: strerror(errno)))
                    }
                    if count == 0 { break }
                    total += Int64(count)
                    guard total <= request.maximumBytes else {
                        throw DownloadError.tooLarge(url: request.url, limit: request.maximumBytes)
                    }
                    try buffer.withUnsafeBytes { try sink.receive(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                    sink.transferProgress(received: total, expected: nil)
                }
                try sink.finish()
                return DownloadResponse(status: 0, url: request.url, bodyBytes: total)
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}
