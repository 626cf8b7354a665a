import CCurl
import Dispatch
import Synchronization

/// Downloads with libcurl, each transfer on a thread outside Swift's cooperative pool (see
/// `Blocking`), since `curl_easy_perform` blocks until the transfer ends.
///
/// Only `http`, `https` and `file` URLs are fetched, redirects are followed only to `http` and
/// `https`, TLS certificates are always verified (libcurl's default, never turned off), and gzip
/// and the other encodings libcurl supports are accepted.
public struct CurlDownloader: Downloader {
    public init() {}

    public func download(_ request: DownloadRequest, into sink: some ByteSink) async throws -> DownloadResponse {
        if let failure = ccurl_load() {
            throw DownloadError.transfer(url: request.url, reason: String(cString: failure))
        }
        let cancellation = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await Blocking.run {
                try CurlTransfer(request: request, sink: sink, cancellation: cancellation).perform()
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}

/// One libcurl easy transfer. It lives on the download thread from creation to release; the C
/// callbacks reach it through the user-data pointer, which stays valid because `perform()` keeps
/// `self` alive for the whole of `curl_easy_perform`.
private final class CurlTransfer {
    private let handle: UnsafeMutableRawPointer
    private let request: DownloadRequest
    private let sink: any ByteSink
    private let cancellation: CancellationFlag
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    private var headerList: UnsafeMutablePointer<curl_slist>?

    /// The first error a callback met; it explains why libcurl stopped.
    private var failure: (any Error)?
    private var bodyBytes: Int64 = 0
    private var checkedStatus = false
    /// True once the response is known to be an HTTP error, whose body is kept for its message.
    private var isErrorResponse = false
    private var errorBody: [UInt8] = []
    /// How much of an error response's body is kept.
    private static let errorBodyKept = 4096
    private let started = DispatchTime.now().uptimeNanoseconds
    /// Time spent inside the sink, which is ours and not the network's, so the timeout leaves it out.
    private var nanosecondsInSink: UInt64 = 0

    init(request: DownloadRequest, sink: any ByteSink, cancellation: CancellationFlag) throws {
        guard let handle = ccurl_easy_init() else {
            throw DownloadError.transfer(url: request.url, reason: "libcurl could not start a transfer")
        }
        self.handle = handle
        self.request = request
        self.sink = sink
        self.cancellation = cancellation
        errorBuffer.initialize(to: 0)
    }

    deinit {
        ccurl_easy_cleanup(handle)
        ccurl_slist_free_all(headerList)
        errorBuffer.deallocate()
    }

    func perform() throws -> DownloadResponse {
        try configure()
        let result = ccurl_easy_perform(handle)
        if let failure { throw failure }
        guard result == CURLE_OK else { throw error(for: result) }
        let status = responseCode()
        if status >= 400 { throw httpError(status) }
        if status != 304 { try sink.finish() }
        return DownloadResponse(
            status: status, url: effectiveURL(), bodyBytes: bodyBytes, etag: header("ETag"),
            lastModified: header("Last-Modified"))
    }

    // MARK: - Set-up

    private func configure() throws {
        try set(CURLOPT_URL, request.url)
        try set(CURLOPT_PROTOCOLS_STR, "http,https,file")
        try set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_FOLLOWLOCATION, 1)
        try set(CURLOPT_MAXREDIRS, 10)
        try set(CURLOPT_ACCEPT_ENCODING, "")  // Every encoding this libcurl can decode: gzip at least.
        try set(CURLOPT_USERAGENT, request.userAgent)
        try set(CURLOPT_NOSIGNAL, 1)  // Timeouts must not use signals in a threaded process.
        try set(CURLOPT_CONNECTTIMEOUT_MS, Int(min(request.timeout * 1000, 3_600_000).rounded(.up)))
        try set(CURLOPT_BUFFERSIZE, 256 * 1024)  // Larger reads for file:// and fast links.
        try check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        // Which authorities to trust; that certificates are verified is never changed.
        if let caBundle = request.caBundle { try set(CURLOPT_CAINFO, caBundle) }
        if let caPath = request.caPath { try set(CURLOPT_CAPATH, caPath) }

        for header in request.headers { headerList = ccurl_slist_append(headerList, header) }
        if let headerList { try check(ccurl_setopt_slist(handle, CURLOPT_HTTPHEADER, headerList)) }

        let context = Unmanaged.passUnretained(self).toOpaque()
        try check(
            ccurl_setopt_write_callback(handle, CURLOPT_WRITEFUNCTION) { data, size, count, context in
                guard let context else { return 0 }
                let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                return transfer.receive(UnsafeRawBufferPointer(start: data, count: size * count))
            })
        try check(ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context))
        try set(CURLOPT_NOPROGRESS, 0)
        try check(
            ccurl_setopt_progress_callback(handle) { context, expected, received, _, _ in
                guard let context else { return 1 }
                return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
                    .checkProgress(received: Int64(received), expected: Int64(expected))
            })
        try check(ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context))
    }

    private func set(_ option: CURLoption, _ value: Int) throws {
        try check(ccurl_setopt_long(handle, option, value))
    }

    private func set(_ option: CURLoption, _ value: String) throws {
        try check(ccurl_setopt_string(handle, option, value))
    }

    private func check(_ result: CURLcode) throws {
        guard result == CURLE_OK else { throw error(for: result) }
    }

    // MARK: - Callbacks

    /// The write callback: passes body bytes to the sink, enforcing the status and size limits.
    private func receive(_ bytes: UnsafeRawBufferPointer) -> Int {
        if !checkedStatus {
            checkedStatus = true
            let status = responseCode()
            isErrorResponse = status >= 400
        }
        if isErrorResponse {
            // An error's body is read for its message, never handed to the sink.
            errorBody += bytes.prefix(Self.errorBodyKept - errorBody.count)
            if errorBody.count < Self.errorBodyKept { return bytes.count }
            failure = httpError(responseCode())
            return ccurl_write_error()
        }
        bodyBytes += Int64(bytes.count)
        guard bodyBytes <= request.maximumBytes else {
            failure = DownloadError.tooLarge(url: request.url, limit: request.maximumBytes)
            return ccurl_write_error()
        }
        let entered = DispatchTime.now().uptimeNanoseconds
        defer { nanosecondsInSink += DispatchTime.now().uptimeNanoseconds - entered }
        do {
            try sink.receive(bytes)
        } catch {
            failure = error
            return ccurl_write_error()
        }
        return bytes.count
    }

    /// The progress callback, called at least once a second: enforces the timeout and cancellation.
    private func checkProgress(received: Int64, expected: Int64) -> Int32 {
        sink.transferProgress(received: received, expected: expected > 0 ? expected : nil)
        if cancellation.isCancelled {
            failure = CancellationError()
            return 1
        }
        let elapsed = DispatchTime.now().uptimeNanoseconds - started - nanosecondsInSink
        if Double(elapsed) / 1e9 > request.timeout {
            failure = DownloadError.timedOut(url: request.url, seconds: request.timeout)
            return 1
        }
        return 0
    }

    // MARK: - Results

    private func responseCode() -> Int {
        var code = 0
        _ = ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    /// A response header of the last response (after redirects), wrapping `curl_easy_header`.
    private func header(_ name: String) -> String? {
        var header: UnsafeMutablePointer<curl_header>?
        guard ccurl_easy_header(handle, name, 0, UInt32(CURLH_HEADER), -1, &header) == CURLHE_OK,
            let value = header?.pointee.value
        else { return nil }
        return String(cString: value)
    }

    private func httpError(_ status: Int) -> DownloadError {
        let message = String(decoding: errorBody, as: UTF8.self).trimmingCharacters(where: \.isWhitespace)
        return .httpStatus(
            url: request.url, status: status, retryAfter: header("Retry-After"),
            message: message.isEmpty ? nil : message)
    }

    private func effectiveURL() -> String {
        var url: UnsafePointer<CChar>?
        _ = ccurl_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &url)
        return url.map { String(cString: $0) } ?? request.url
    }

    private func error(for result: CURLcode) -> DownloadError {
        let message =
            errorBuffer.pointee != 0
            ? String(cString: errorBuffer) : String(cString: ccurl_easy_strerror(result))
        if request.url.lowercased().hasPrefix("file:") {
            return .unreadableFile(path: request.url, reason: message)
        }
        switch result {
        case CURLE_OPERATION_TIMEDOUT:
            return .timedOut(url: request.url, seconds: request.timeout)
        case CURLE_UNSUPPORTED_PROTOCOL:
            return .transfer(
                url: request.url,
                reason:
                    "\(message) (only http, https and file URLs are fetched, and redirects are followed only to http and https)"
            )
        default:
            return .transfer(url: request.url, reason: message, transient: transientFailures.contains(result.rawValue))
        }
    }
}

/// libcurl's failures that a later attempt may not meet: name resolution and connection failures,
/// a connection dropped or a body cut short, TLS handshakes that failed on the way.
private let transientFailures: Set<UInt32> = Set(
    [
        CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_HTTP2, CURLE_PARTIAL_FILE,
        CURLE_OPERATION_TIMEDOUT, CURLE_SSL_CONNECT_ERROR, CURLE_GOT_NOTHING, CURLE_SEND_ERROR, CURLE_RECV_ERROR,
        CURLE_HTTP2_STREAM,
    ].map(\.rawValue))
