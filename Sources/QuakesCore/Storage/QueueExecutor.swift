import Dispatch

/// A serial executor that runs an actor's jobs on a dispatch queue of its own.
///
/// The store actor runs on one, so that `sqlite3_step`, which blocks on disk and on other
/// processes' locks, never holds one of the few threads of Swift's cooperative pool.
package final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    package init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
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
