import Dispatch

/// A batch's decided writes, moved on a thread of their own while the store decides the next batch.
///
/// A fresh ingest otherwise alternates: the server loads a batch while quakes waits, then quakes
/// decides the next while the server waits, and the cores are idle much of the time. The next
/// batch's owners are read before this flush starts, so they lack its rows; the
/// store lays this batch's decided owners over them
/// (`PostgresBatchWrites.loadOwners(of:amongFresh:flushingMeanwhile:after:on:)`).
///
/// A flush may be queued behind another still under way (`after`): when the store has decided
/// the next batch before this one is written and the batch after it needs nothing read from the
/// server, the next batch's flush is queued at once, so that the server goes on to it rather than
/// wait for the store's thread to wake and start it, and only one waits so.
///
/// `@unchecked Sendable` is sound: from `init` until `done` is signalled, the writes, and the
/// connection they hold, are used by the flushing thread alone, and the flushes queued on the one
/// serial queue run one after another, each ending before the next begins. The store does not use
/// the connection meanwhile: `PostgresStore.ingest` hands it to the batch it decides without
/// waiting, but the batch touches it only in `PostgresBatchWrites.owners(of:)` and `loadOwners`,
/// which call `finish()` on the last flush queued first, and every other use goes through
/// `PostgresStore.connection()`, which does too. The semaphore orders the flushing thread's
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
