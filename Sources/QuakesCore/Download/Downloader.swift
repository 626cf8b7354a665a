/// Transfers a URL's body to a `ByteSink` as it arrives: the seam between the network and the feed.
///
/// `CurlDownloader` is the real one; tests use it too, against `file://` URLs and a server of
/// their own on 127.0.0.1.
public protocol Downloader: Sendable {
    /// Transfers `request`, handing its body to `sink` in order, then calls `sink.finish()`; a
    /// 304 Not Modified has no body, and returns without `finish()`.
    func download(_ request: DownloadRequest, into sink: some ByteSink) async throws -> DownloadResponse
}

/// Receives a download's body on the thread doing the download, which it may block to slow the
/// download down to its own pace.
public protocol ByteSink: Sendable {
    /// Takes the next bytes of the body; throwing stops the download with that error.
    func receive(_ bytes: UnsafeRawBufferPointer) throws
    /// Called once the whole body has arrived; throwing fails the download with that error.
    func finish() throws
    /// How much of the transfer has arrived (as sent, before decompression), and how much is coming
    /// when the server said so. Called often; for progress displays.
    func transferProgress(received: Int64, expected: Int64?)
}

extension ByteSink {
    public func transferProgress(received: Int64, expected: Int64?) {}
}

/// What to download, and the limits of the transfer.
public struct DownloadRequest: Sendable, Equatable {
    /// An `http`, `https` or `file` URL.
    public var url: String
    /// Seconds the transfer may take, not counting time the sink spends blocking it.
    public var timeout: Double
    /// The most body bytes to accept, counted after decompression.
    public var maximumBytes: Int64
    /// The `User-Agent` header.
    public var userAgent: String
    /// Extra request headers, as `Name: value` lines.
    public var headers: [String]
    /// A PEM file of certificate authorities to trust instead of the system's, for https.
    public var caBundle: String?
    /// A folder of certificate authorities to trust, for https.
    public var caPath: String?

    public init(
        url: String, timeout: Double = 60, maximumBytes: Int64 = 1 << 30, userAgent: String,
        headers: [String] = [], caBundle: String? = nil, caPath: String? = nil
    ) {
        self.url = url
        self.timeout = timeout
        self.maximumBytes = maximumBytes
        self.userAgent = userAgent
        self.headers = headers
        self.caBundle = caBundle
        self.caPath = caPath
    }
}

/// What came back from a finished download.
public struct DownloadResponse: Sendable, Equatable {
    /// The HTTP status, or 0 for a `file://` URL.
    public var status: Int
    /// The URL the body came from, after redirects.
    public var url: String
    /// The body's size after decompression.
    public var bodyBytes: Int64
    /// The response's `ETag`, for the next conditional request.
    public var etag: String?
    /// The response's `Last-Modified`, for the next conditional request.
    public var lastModified: String?

    public init(status: Int, url: String, bodyBytes: Int64, etag: String? = nil, lastModified: String? = nil) {
        self.status = status
        self.url = url
        self.bodyBytes = bodyBytes
        self.etag = etag
        self.lastModified = lastModified
    }

    /// True for 304 Not Modified: the copy from the last fetch is current.
    public var isNotModified: Bool { status == 304 }
}
