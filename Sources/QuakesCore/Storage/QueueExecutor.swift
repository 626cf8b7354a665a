import Dispatch

/// A serial executor that runs an actor's jobs on a dispatch queue of its own.
///
/// The store actor runs on one, so that `sqlite3_step`, which blocks on disk and on other
/// processes' locks, never holds one of the few threads of Swift's cooperative pool.
package final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue
    /// A task executor whose jobs run on this queue, between the actor's: for a task that does
    /// little but hand the actor work and wait for the answer (an ingest's loop, which gives the
    /// store its batches). Each hand-over and each answer then continues on the thread that is
    /// already running, where on a queue of its own each would wake another thread, a round trip
    /// for every batch.
    package let companion: QueueTaskExecutor

    package init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
        companion = QueueTaskExecutor(label: label + ".companion", target: queue)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
