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
    /// The current time, for history timestamps and `Retry-After` dates.
    var clock: @Sendable () -> Int64 = Environment.systemClock
}
