/// What one run of a backfill or a sync did, for its progress line and its summary; the progress
/// it leaves counts every run of the pass.
struct PagedFetchReport: Sendable {
    var progress: ServiceProgress
    /// Windows stored in this run.
    var windows = 0
    /// Requests made in this run, refused and retried ones included.
    var requests = 0
    /// Requests the service refused for matching more than its cap.
    var refused = 0
    /// Requests tried again after a transient failure (429, 503, a dropped connection).
    var retried = 0
    var features = 0
    var inserted = 0
    var updated = 0
    var unchanged = 0
    var deleted = 0
    var skipped = 0
    /// About how many windows remain.
    var windowsLeft = 0
    var seconds: Double = 0

    /// Counts a stored window.
    mutating func add(_ ingest: IngestReport) {
        windows += 1
        requests += ingest.attempts
        retried += ingest.attempts - 1
        features += ingest.features
        let commit = ingest.commit ?? StoreCommit()
        inserted += commit.inserted
        updated += commit.updated
        deleted += commit.deleted
        unchanged += ingest.counts.unchanged
        skipped += ingest.skipped
    }
}
