import Dispatch

/// An executor that runs its jobs on a dispatch queue of its own, off Swift's cooperative pool: as
/// a serial executor, an actor's; as a task executor, those of the tasks that prefer it.
///
/// The store actor runs on one, so that `sqlite3_step`, which blocks on disk and on other
/// processes' locks, never holds one of the few threads of the pool. A fetch's loop that hands
/// decoded batches to the store prefers one, so that it never waits behind the decoders, which
/// hold every thread of the pool on two cores (`FeedIngest.decodeAndStore`).
package final class QueueExecutor: SerialExecutor, TaskExecutor {
    private let queue: DispatchQueue

    package init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let serial = asUnownedSerialExecutor()
        let task = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(isolatedTo: serial, taskExecutor: task) }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
