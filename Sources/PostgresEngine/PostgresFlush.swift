import Dispatch

/// A batch's decided writes, moved on a thread of their own while the store decides the next batch.
///
/// A fresh ingest otherwise alternates: the server loads a batch while quakes waits, then quakes
/// decides the next while the server waits (measured: both cores idle 40 % of a 200,000-feature
/// ingest). The next batch's owners are read before this flush starts, so they lack its rows; the
/// store lays this batch's decided owners over them
/// (`PostgresBatchWrites.loadOwners(of:flushingMeanwhile:on:)`).
///
/// When the next batch is decided before this one is written, and needs nothing read from the
/// server, its flush is queued behind this one (`after`), so that the server goes on to it at once
/// rather than wait for the store's thread to wake and start it: that hand-over left the server
/// idle about a tenth of a fresh ingest.
///
/// `@unchecked Sendable` is sound: from `init` until `done` is signalled, the writes, and the
/// connection they hold, are used by the flushing thread alone, and the flushes queued on the one
/// serial queue run one after another, each ending before the next begins. The store does not use
/// the connection meanwhile: deciding a batch touches it only in `PostgresBatchWrites.owners(of:)`
/// and `loadOwners`, which call `finish()` on the last flush queued first, and every other use goes
/// through `PostgresStore.connection()`, which does too. The semaphore orders the flushing thread's
/// writes (`failure` included) before everything the store does after `finish()`; a flush queued
/// behind another reads that one's `failure` on the same serial queue, after it was written.
/// `finished` is touched by the store's thread only.
final class PostgresFlush: @unchecked Sendable {
    private var writes: PostgresBatchWrites
    private var failure: (any Error)?
    private var finished = false
    private let done = DispatchSemaphore(value: 0)

    /// Starts flushing `writes` on `queue`, a serial queue, once `earlier`, queued there before,
    /// has ended; when that failed, this ends with the same failure and writes nothing, as the
    /// transaction is lost.
    init(_ writes: PostgresBatchWrites, after earlier: PostgresFlush?, on queue: DispatchQueue) {
        self.writes = writes
        queue.async { [self] in
            if let failed = earlier?.failure {
                failure = failed
            } else {
                do { try self.writes.flush() } catch { failure = error }
            }
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

    /// Throws what the flush failed with if it has already ended, without waiting for it.
    func throwIfFailed() throws {
        if !finished, done.wait(timeout: .now()) == .success { finished = true }
        if finished, let failure { throw failure }
    }
}
