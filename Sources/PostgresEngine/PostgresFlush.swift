import Dispatch

/// A batch's decided writes, moved on a thread of their own while the store decides the next batch.
///
/// A fresh ingest otherwise alternates: the server loads a batch while quakes waits, then quakes
/// decides the next while the server waits (measured: both cores idle 40 % of a 200,000-feature
/// ingest). The next batch's owners are read before this flush starts, so they lack its rows; the
/// store lays this batch's decided owners over them
/// (`PostgresBatchWrites.loadOwners(of:flushingMeanwhile:on:)`).
///
/// `@unchecked Sendable` is sound: from `init` until `done` is signalled, the writes, and the
/// connection they hold, are used by the flushing thread alone. The store does not use the
/// connection meanwhile: deciding a batch touches it only in `PostgresBatchWrites.owners(of:)`,
/// which calls `finish()` first, and every other use goes through `PostgresStore.connection()`,
/// which does too. The semaphore orders the flushing thread's writes (`failure` included) before
/// everything the store does after `finish()`. `finished` is touched by the store's thread only.
final class PostgresFlush: @unchecked Sendable {
    private var writes: PostgresBatchWrites
    private var failure: (any Error)?
    private var finished = false
    private let done = DispatchSemaphore(value: 0)

    /// Starts flushing `writes` on `queue`.
    init(_ writes: PostgresBatchWrites, on queue: DispatchQueue) {
        self.writes = writes
        queue.async { [self] in
            do { try self.writes.flush() } catch { failure = error }
            done.signal()
        }
    }

    /// Waits until the flush has ended, and throws what it failed with. Called again, it waits no
    /// more and throws the same.
    func finish() throws {
        if !finished {
            done.wait()
            finished = true
        }
        if let failure { throw failure }
    }
}
