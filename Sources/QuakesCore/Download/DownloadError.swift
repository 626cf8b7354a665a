/// Why a download failed.
public enum DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A local file (a path or a `file://` URL) is missing or unreadable.
    case unreadableFile(path: String, reason: String)
    /// The server answered with an HTTP error status.
    case httpStatus(url: String, status: Int)
    /// The transfer took longer than its timeout.
    case timedOut(url: String, seconds: Double)
    /// The body was larger than the limit.
    case tooLarge(url: String, limit: Int64)
    /// Anything else libcurl reports: DNS, connection, TLS, a refused redirect.
    case transfer(url: String, reason: String)

    public var description: String {
        switch self {
        case let .unreadableFile(path, reason):
            "\(path): cannot read: \(reason)"
        case let .httpStatus(url, status):
            "HTTP \(status)\(httpReason(status).map { " \($0)" } ?? "") from \(url)"
        case let .timedOut(url, seconds):
            "\(url): no complete answer within \(formatSeconds(seconds)) s (see --timeout)"
        case let .tooLarge(url, limit):
            "\(url): the response is larger than \(limit) bytes (see --max-bytes)"
        case let .transfer(url, reason):
            "\(url): \(reason)"
        }
    }
}

private func httpReason(_ status: Int) -> String? {
    switch status {
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 410: "Gone"
    case 429: "Too Many Requests"
    case 500: "Internal Server Error"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    default: nil
    }
}

/// Seconds without a useless ".0": `60`, `0.5`.
func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
}
