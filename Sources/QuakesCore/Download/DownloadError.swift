/// Why a download failed.
public enum DownloadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A local file (a path or a `file://` URL) is missing or unreadable.
    case unreadableFile(path: String, reason: String)
    /// The server answered with an HTTP error status, and maybe said when to try again: its
    /// `Retry-After`, as sent (seconds or an HTTP date); `message` is the start of its body, which
    /// is where an FDSN service says why it refused a query.
    case httpStatus(url: String, status: Int, retryAfter: String? = nil, message: String? = nil)
    /// The transfer took longer than its timeout.
    case timedOut(url: String, seconds: Double)
    /// The body was larger than the limit.
    case tooLarge(url: String, limit: Int64)
    /// Anything else libcurl reports: DNS, connection, TLS, a refused redirect. `transient` failures
    /// (a refused or dropped connection, a body cut short) may succeed when tried again.
    case transfer(url: String, reason: String, transient: Bool = false)

    public var description: String {
        switch self {
        case let .unreadableFile(path, reason):
            "\(path): cannot read: \(reason)"
        case let .httpStatus(url, status, _, message):
            "HTTP \(status)\(httpReason(status).map { " \($0)" } ?? "") from \(url)"
                + (message.flatMap { serviceReason($0, status: status) }.map { ": \($0)" } ?? "")
        case let .timedOut(url, seconds):
            "\(url): no complete answer within \(formatSeconds(seconds)) s (see --timeout)"
        case let .tooLarge(url, limit):
            "\(url): the response is larger than \(limit) bytes (see --max-bytes)"
        case let .transfer(url, reason, _):
            "\(url): \(reason)"
        }
    }

    /// True for failures that trying again later may cure: timeouts, dropped connections, HTTP 429
    /// and 5xx. Other 4xx, unreadable files and oversized bodies will fail the same way again.
    public var isTransient: Bool {
        switch self {
        case .timedOut: true
        case let .httpStatus(_, status, _, _): status == 429 || (500...599).contains(status)
        case let .transfer(_, _, transient): transient
        case .unreadableFile, .tooLarge: false
        }
    }

    /// The server's `Retry-After`, as sent.
    public var retryAfter: String? {
        if case let .httpStatus(_, _, retryAfter, _) = self { return retryAfter }
        return nil
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

/// The reason an FDSN service gives in its error body (`Error 400: Bad Request`, a blank line, then
/// the reason: `Unknown parameter "x".`), nil for any other body, such as an HTML page.
private func serviceReason(_ message: String, status: Int) -> String? {
    let lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(where: \.isBlank) }
    guard lines.first?.hasPrefix("Error \(status)") == true,
        let reason = lines.dropFirst().first(where: { !$0.isEmpty })
    else { return nil }
    return String(reason.prefix(300))
}

/// Seconds without a useless ".0": `60`, `0.5`.
func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
}
