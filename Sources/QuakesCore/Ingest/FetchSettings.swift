/// How a fetch downloads and records its sources: the options of `quakes fetch` and `quakes watch`.
struct FetchSettings: Sendable {
    /// Seconds a transfer may take, time waiting for the store excluded.
    var timeout: Double = 60
    /// The largest body accepted, after decompression.
    var maximumBytes: Int64 = 1 << 30
    /// How many times a transient failure (a timeout, a dropped connection, HTTP 429 or 5xx) is retried.
    var retries = 3
    /// About how long the first retry waits, in seconds; each next one waits twice as long, with
    /// jitter, up to a minute, unless the server's `Retry-After` says otherwise.
    var retryDelay: Double = 1
    /// Skip the conditional headers: download even what has not changed.
    var force = false
    /// Who the history says wrote the transaction.
    var author = "fetch"
    var userAgent = "quakes/\(Quakes.version)"
    /// A PEM file of the certificate authorities to trust for https (`--cacert`), instead of the
    /// system's.
    var caBundle: String?
    /// A folder of certificate authorities to trust (`SSL_CERT_DIR`).
    var caPath: String?
    /// Takes the certificate authorities from the environment as the curl tool does, unless
    /// `--cacert` named them: `CURL_CA_BUNDLE`, else `SSL_CERT_DIR` and `SSL_CERT_FILE`. Verification
    /// itself can never be turned off.
    mutating func trust(_ variables: EnvironmentVariables) {
        guard caBundle == nil else { return }
        func value(_ name: String) -> String? { variables[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let bundle = value("CURL_CA_BUNDLE") {
            caBundle = bundle
        } else {
            caPath = value("SSL_CERT_DIR")
            caBundle = value("SSL_CERT_FILE")
        }
    }

    /// The current time, for history timestamps and `Retry-After` dates.
    var clock: @Sendable () -> Int64 = Environment.systemClock
}
